// What differs between two states' figures, as Plotly's update calls take it. Pure: the
// unit tests (tests/scripts/) run it without a browser.
import { isReference, text } from "../core/pool.js";

// What differs between two states' figures (their stored forms: arrays shared between
// states are the same {"$": i} reference in both, so the text stays short), as Plotly's
// update calls take it: {layout: {"shapes": […], "xaxis.range": […]} or null, data:
// {update: {"marker.color": [one value per trace]}, traces: [indices]} or null}; false
// where only Plotly.react can draw it (traces added, removed or of another type; a changed
// annotation, whose relayout has Plotly recompute the whole figure: they can move the
// autorange). A state's own layout goes over the step's shared one (Chart.draw), key by key.
export function changesBetween(shared, before, after) {
  var layout = {};
  var count = layoutDiff(over(shared, before.layout), over(shared, after.layout), "", layout);
  var data = traceChanges(before.data, after.data);
  if (count < 0 || data === false) return false;
  return { layout: count ? layout : null, data: data };
}

export function traceChanges(before, after) {
  if (text(before) === text(after)) return null;
  if (before.length !== after.length) return false;
  var diffs = [], traces = [], paths = {};
  for (var i = 0; i < after.length; i++) {
    if (text(before[i]) === text(after[i])) continue;
    if (before[i].type !== after[i].type) return false;
    var diff = {};
    if (layoutDiff(before[i], after[i], "", diff) < 0) return false;
    diffs.push(after[i]);
    traces.push(i);
    for (var path in diff) paths[path] = true;
  }
  var update = {};
  Object.keys(paths).forEach(function (path) {
    update[path] = diffs.map(function (trace) {
      var value = path.split(".").reduce(function (node, part) { return node && node[part]; }, trace);
      return value === undefined ? null : value;
    });
  });
  return { update: update, traces: traces };
}

// Whether two states of a chart differ in more than their marks: its scale changed.
export function frameChanged(shared, one, other) {
  var a = over(shared, one.layout), b = over(shared, other.layout), key;
  for (key in a) if (!isMark(key) && text(a[key]) !== text(b[key])) return true;
  for (key in b) if (!isMark(key) && !(key in a)) return true;
  return false;
}

// Shapes and pictures: the marks a click changes. Everything else is the chart's frame.
export function isMark(path) {
  return /^(shapes|images)(\.|$)/.test(path);
}

// Shapes as many as Plotly has drawn, the ones past the new list's end hidden: plotly.js
// 4.1 redraws a whole list of shapes without removing those between the grid and the data
// past its end (a bar, a line's marker), so a shorter list would leave them standing.
export function keepCount(shapes, drawn) {
  var count = drawn ? drawn.length : 0;
  if (shapes.length >= count) return shapes;
  var kept = shapes.slice();
  while (kept.length < count) kept.push({ visible: false });
  return kept;
}

export function over(shared, own) {
  var out = {}, key;
  for (key in shared) out[key] = shared[key];
  for (key in own || {}) out[key] = own[key];
  return out;
}

// Adds to `changes` the attributes under `path` that differ from `old` to `now`, and
// returns how many; -1 if one of them is an annotation. Objects are followed down to
// the values that changed; arrays are replaced whole. An attribute gone is null,
// which Plotly.relayout sets back to its default.
export function layoutDiff(old, now, path, changes) {
  var count = 0, key, seen = {};
  for (key in old) seen[key] = true;
  for (key in now) seen[key] = true;
  for (key in seen) {
    var a = old[key], b = now[key];
    if (text(a) === text(b)) continue;
    if (!path && key === "annotations") return -1;
    var at = path ? path + "." + key : key;
    if (isRecord(a) && isRecord(b)) {
      var inner = layoutDiff(a, b, at, changes);
      if (inner < 0) return -1;
      count += inner;
    } else {
      changes[at] = b === undefined ? null : b;
      count++;
    }
  }
  return count;
}

function isRecord(node) {
  return !!node && typeof node === "object" && !Array.isArray(node) && !isReference(node);
}
