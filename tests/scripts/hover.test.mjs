// Hover labels read from a chart's data table (themes/default/scripts/runtime/hover.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { hoverText } from "../../themes/default/scripts/runtime/hover.js";

const matrix = { headers: ["the", "cat"], columns: ["", "the", "cat"], cells: [["0.9", "0.1"], ["0.2", "0.8"]] };

test("cells: the row down the y axis and the column along x", () => {
  assert.equal(hoverText({ hover: "cells" }, matrix, 1.2, 0.4), "the \u2192 cat: 0.1");
  assert.equal(hoverText({ hover: "cells" }, matrix, 2, 0), null);
  assert.equal(hoverText({ hover: "cells" }, matrix, 0, 5), null);
});

test("rows: a row per position along the axis, with each column named", () => {
  const table = { headers: ["a", "b"], columns: ["", "p", "q"], cells: [["1", "2"], ["3", ""]] };
  const axis = { range: [-0.5, 1.5] };
  assert.equal(hoverText({ hover: "rows" }, table, 0.2, 9, axis), "a\np: 1\nq: 2");
  assert.equal(hoverText({ hover: "rows" }, table, 1, 9, axis), "b\np: 3", "empty cells are left out");
  assert.equal(hoverText({ hover: "rows", along: "y" }, table, 9, 1, axis), "b\np: 3");
  assert.equal(hoverText({ hover: "rows" }, table, 2.2, 0, axis), null);
});

test("rows of one value read as header: value; numeric rows take the nearest, in log units on a log axis", () => {
  const table = { headers: ["1", "10", "100"], columns: ["x", "y"], cells: [["a"], ["b"], ["c"]] };
  assert.equal(hoverText({ hover: "rows", numeric: true }, table, 12, 0), "10: b");
  assert.equal(hoverText({ hover: "rows", numeric: true, log: true }, table, 1.8, 0), "100: c");
  assert.equal(hoverText({ hover: "none" }, table, 0, 0), null);
});
