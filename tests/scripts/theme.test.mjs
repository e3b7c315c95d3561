// Theme-colour substitution (themes/default/scripts/core/theme.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { themed } from "../../themes/default/scripts/core/theme.js";

const colour = (name) => ({ "--chart-a": "#111", "--bg": "#fff" })[name];

test("var(--name) strings become the colour, anything else stays", () => {
  assert.equal(themed("var(--chart-a)", colour), "#111");
  assert.equal(themed("var(--chart-a) ", colour), "var(--chart-a) ");
  assert.equal(themed(3, colour), 3);
  assert.deepEqual(themed({ marker: { color: "var(--bg)" }, n: null }, colour), { marker: { color: "#fff" }, n: null });
});

test("an array with nothing to look up is handed on as it is", () => {
  const array = [1, 2, "red"];
  assert.equal(themed(array, colour), array);
});

test("an array with colours in it is a copy, through keep when given", () => {
  const array = ["red", "var(--chart-a)", "var(--bg)"];
  const out = themed(array, colour);
  assert.deepEqual(out, ["red", "#111", "#fff"]);
  assert.deepEqual(array, ["red", "var(--chart-a)", "var(--bg)"], "the original is untouched");
  const kept = [];
  themed(array, colour, (copy) => { kept.push(copy); return copy; });
  assert.deepEqual(kept, [["red", "#111", "#fff"]]);
});
