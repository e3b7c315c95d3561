// The shared value pool (kinds/explainer/payload.py, kinds/game): arrays shared between
// states are stored once, in `pool`, and referenced as {"$": i}.

// {"$": i}: an array of the pool, stored once and referenced.
export function isReference(node) {
  return typeof node.$ === "number" && Object.keys(node).length === 1;
}

export function holdsObjects(array) {
  for (var i = 0; i < array.length; i++) {
    var item = array[i];
    if (item && typeof item === "object" && !Array.isArray(item)) return true;
  }
  return false;
}

// The resolver of one page's pool. Every array of plain values is handed out as one
// shared object per content: Plotly.react compares data arrays by identity, so an array
// that is the same in two states costs nothing to redraw. Arrays holding objects (traces,
// shapes) are fresh copies each time, since Plotly annotates those objects.
// resolve(node): the node with every reference replaced; keep(array): the array, or the
// shared one with the same content (for arrays made after resolving, as theme.js does).
export function createPool(pool) {
  var byIndex = [];
  var byText = {};
  function resolve(node) {
    if (Array.isArray(node)) return keep(node.map(resolve));
    if (node && typeof node === "object") {
      if (isReference(node)) return pooled(node.$);
      var out = {};
      for (var key in node) out[key] = resolve(node[key]);
      return out;
    }
    return node;
  }
  function keep(array) {
    if (holdsObjects(array)) return array;
    var text = JSON.stringify(array);
    return byText[text] || (byText[text] = array);
  }
  function pooled(index) {
    if (byIndex[index]) return byIndex[index];
    var value = resolve(pool[index]);
    if (!holdsObjects(value)) byIndex[index] = value;
    return value;
  }
  return { resolve: resolve, keep: keep };
}

// A node's JSON text, remembered per object: states are compared by it many times.
var texts = typeof WeakMap === "function" ? new WeakMap() : null;
export function text(node) {
  if (!node || typeof node !== "object" || !texts) return JSON.stringify(node);
  var found = texts.get(node);
  if (found === undefined) texts.set(node, found = JSON.stringify(node));
  return found;
}
