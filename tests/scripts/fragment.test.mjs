// Reading the address fragment (themes/default/scripts/share/fragment.js, docs/deep-links.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseFragment } from "../../themes/default/scripts/share/fragment.js";

test("the first item without = is the target, s<n>= items are a step's choices", () => {
  assert.deepEqual(parseFragment("#step-3&s1=query:The&s3=head:2,query:c%C3%A4t"), {
    target: "step-3", states: { 1: { query: "The" }, 3: { head: "2", query: "c\u00e4t" } }, hasStates: true,
  });
});

test("unknown items, malformed escapes and pairs without a name are ignored", () => {
  assert.deepEqual(parseFragment("#x=1&s02=a:%E0%A4,:b,c&other&more"), {
    target: "other", states: { 2: {} }, hasStates: true,
  });
  assert.deepEqual(parseFragment(""), { target: null, states: {}, hasStates: false });
});
