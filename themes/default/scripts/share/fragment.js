// The address fragment of a page's state (docs/deep-links.md), read. Pure: unit-tested
// in tests/scripts/.
//   #step-3&s1=query:The&s3=head:2,query:cat
// - an item without "=" is the element to scroll to (a step anchor);
// - "s<n>=" gives step n's choices as control-name:value pairs, values encoded with
//   encodeURIComponent (a toggle's are true and false, a slider's the value at its
//   position); only steps away from their defaults appear;
// - anything unknown or stale is ignored, and that step keeps its default.

export function decode(text) {
  try { return decodeURIComponent(text); } catch (err) { return null; }  // malformed %-escapes
}

// {target, states: {step number: {control name: value}}, hasStates}
export function parseFragment(hash) {
  var parsed = { target: null, states: {}, hasStates: false };
  hash.replace(/^#/, "").split("&").forEach(function (item) {
    if (!item) return;
    var equals = item.indexOf("=");
    if (equals < 0) {
      if (parsed.target === null) parsed.target = decode(item);
      return;
    }
    var match = /^s(\d+)$/.exec(item.slice(0, equals));
    if (!match) return;
    var choices = {};
    item.slice(equals + 1).split(",").forEach(function (pair) {
      var colon = pair.indexOf(":");
      if (colon <= 0) return;
      var value = decode(pair.slice(colon + 1));
      if (value !== null) choices[pair.slice(0, colon)] = value;
    });
    parsed.states[String(Number(match[1]))] = choices;
    parsed.hasStates = true;
  });
  return parsed;
}
