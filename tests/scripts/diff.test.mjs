// What differs between two states' figures (themes/default/scripts/runtime/diff.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  changesBetween, frameChanged, keepCount, layoutDiff, isMark,
} from "../../themes/default/scripts/runtime/diff.js";

test("layoutDiff follows objects down to the values that changed, and arrays whole", () => {
  const changes = {};
  const count = layoutDiff({ xaxis: { range: [0, 1], title: "t" }, shapes: [1] },
                           { xaxis: { range: [0, 2], title: "t" }, shapes: [2], gone: undefined }, "", changes);
  assert.equal(count, 2);
  assert.deepEqual(changes, { "xaxis.range": [0, 2], shapes: [2] });
});

test("an attribute gone is null, which Plotly sets back to its default", () => {
  const changes = {};
  assert.equal(layoutDiff({ a: 1, b: 2 }, { a: 1 }, "", changes), 1);
  assert.deepEqual(changes, { b: null });
});

test("a changed annotation is -1: only Plotly.react draws it", () => {
  assert.equal(layoutDiff({ annotations: [1] }, { annotations: [2] }, "", {}), -1);
  assert.equal(layoutDiff({ annotations: [1] }, { annotations: [1] }, "", {}), 0);
});

test("pool references are compared as values, not followed", () => {
  const changes = {};
  assert.equal(layoutDiff({ images: { $: 1 } }, { images: { $: 2 } }, "", changes), 1);
  assert.deepEqual(changes, { images: { $: 2 } });
});

test("changesBetween: layout and trace updates, or null where nothing changed", () => {
  const shared = { xaxis: { range: [0, 1] } };
  const bar = { type: "bar", y: [1] };
  const before = { layout: { shapes: [1] }, data: [{ type: "scatter", marker: { color: "a" } }, bar] };
  const after = { layout: { shapes: [2] }, data: [{ type: "scatter", marker: { color: "b" } }, bar] };
  assert.deepEqual(changesBetween(shared, before, after), {
    layout: { shapes: [2] },
    data: { update: { "marker.color": ["b"] }, traces: [0] },
  });
  assert.deepEqual(changesBetween(shared, before, before), { layout: null, data: null });
});

test("changesBetween is false where traces come, go or change type", () => {
  const one = { layout: {}, data: [{ type: "scatter" }] };
  assert.equal(changesBetween({}, one, { layout: {}, data: [] }), false);
  assert.equal(changesBetween({}, one, { layout: {}, data: [{ type: "bar" }] }), false);
  assert.equal(changesBetween({}, one, { layout: { annotations: [1] }, data: one.data }), false);
});

test("a state's own layout goes over the step's shared one", () => {
  const shared = { yaxis: { range: [0, 1] } };
  const changes = changesBetween(shared, { layout: {}, data: [] }, { layout: { yaxis: { range: [0, 5] } }, data: [] });
  assert.deepEqual(changes.layout, { "yaxis.range": [0, 5] });
});

test("frameChanged: more than the marks (shapes, pictures) changed", () => {
  const shared = { xaxis: { range: [0, 1] } };
  assert.ok(!frameChanged(shared, { layout: { shapes: [1] } }, { layout: { shapes: [2], images: [3] } }));
  assert.ok(frameChanged(shared, { layout: {} }, { layout: { xaxis: { range: [0, 2] } } }));
  assert.ok(frameChanged(shared, { layout: {} }, { layout: { title: "new" } }));
  assert.ok(isMark("shapes") && isMark("images.0.x") && !isMark("shapesx"));
});

test("keepCount pads a shorter list of shapes with hidden ones", () => {
  assert.deepEqual(keepCount([{ a: 1 }], [1, 2, 3]), [{ a: 1 }, { visible: false }, { visible: false }]);
  const shapes = [1, 2];
  assert.equal(keepCount(shapes, [1]), shapes);
  assert.equal(keepCount(shapes, undefined), shapes);
});
