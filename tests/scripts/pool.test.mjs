// The shared value pool (themes/default/scripts/core/pool.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createPool, isReference, holdsObjects, text } from "../../themes/default/scripts/core/pool.js";

test("references resolve to the pool's arrays, each plain array one shared object", () => {
  const pool = createPool([[1, 2, 3], [{ x: 1 }]]);
  const one = pool.resolve({ a: { $: 0 }, b: [1, 2, 3] });
  assert.deepEqual(one, { a: [1, 2, 3], b: [1, 2, 3] });
  assert.equal(one.a, one.b, "the same content is the same object");
  assert.equal(pool.resolve({ $: 0 }), one.a, "and stays so across calls");
});

test("arrays holding objects are fresh copies each time (Plotly annotates them)", () => {
  const pool = createPool([[{ x: 1 }]]);
  const a = pool.resolve({ $: 0 }), b = pool.resolve({ $: 0 });
  assert.deepEqual(a, [{ x: 1 }]);
  assert.notEqual(a, b);
  assert.notEqual(a[0], b[0]);
});

test("keep shares plain arrays made later, and hands arrays of objects on", () => {
  const pool = createPool([]);
  const first = pool.keep([1, "a"]);
  assert.equal(pool.keep([1, "a"]), first);
  const objects = [{ y: 2 }];
  assert.equal(pool.keep(objects), objects);
});

test("a reference is an object with one numeric $ and nothing else", () => {
  assert.ok(isReference({ $: 3 }));
  assert.ok(!isReference({ $: 3, x: 1 }));
  assert.ok(!isReference({ $: "3" }));
  assert.ok(holdsObjects([1, { a: 1 }]));
  assert.ok(!holdsObjects([1, [2], null]));
});

test("text is the JSON text, remembered per object", () => {
  const node = { a: [1, 2] };
  assert.equal(text(node), '{"a":[1,2]}');
  node.a.push(3);
  assert.equal(text(node), '{"a":[1,2]}', "remembered: states are never changed after they are read");
  assert.equal(text(undefined), undefined);
  assert.equal(text("x"), '"x"');
});
