// Colours the theme decides arrive in a figure as "var(--chart-…)": themed(node, colour)
// is the node with each of them replaced by colour(name) (the custom property's value
// where the chart is drawn). An array with nothing to look up is handed on as it is;
// one with colours in it goes through `keep` (the pool's, so that Plotly.react sees an
// unchanged array as the same object), when given.
export function themed(node, colour, keep) {
  if (typeof node === "string") {
    var match = /^var\((--[\w-]+)\)$/.exec(node);
    return match ? colour(match[1]) : node;
  }
  if (Array.isArray(node)) {
    var copy = null;
    for (var i = 0; i < node.length; i++) {
      var item = themed(node[i], colour, keep);
      if (item !== node[i] && !copy) copy = node.slice(0, i);
      if (copy) copy.push(item);
    }
    return !copy ? node : keep ? keep(copy) : copy;
  }
  if (node && typeof node === "object") {
    var out = {};
    for (var key in node) out[key] = themed(node[key], colour, keep);
    return out;
  }
  return node;
}
