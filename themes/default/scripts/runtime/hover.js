// Hover labels of charts drawn as pictures and shapes (matrices, bars, lines), which have
// no trace for Plotly to hover: their layout's meta says how a position maps to the step's
// data table (charts/common.py, hover_meta). Pure: unit-tested in tests/scripts/.

// The label for the point (x, y) in axis units, or null where there is nothing.
// "cells": a matrix, a cell per unit, row by row down the y axis. "rows": a row of the
// table per position along one axis (a bar each, or each x of a line chart). The
// positions 0, 1, 2… fill that axis's range (a threshold's row comes after them).
export function hoverText(meta, table, x, y, axis) {
  if (meta.hover === "cells") {
    var row = Math.round(y), column = Math.round(x), cells = table.cells[row];
    if (!cells || cells[column] === undefined) return null;
    return table.headers[row] + " \u2192 " + table.columns[column + 1] + ": " + cells[column];
  }
  if (meta.hover !== "rows") return null;
  var along = meta.along === "y" ? y : x, at = -1;
  var count = meta.numeric ? table.headers.length : Math.round(Math.max(axis.range[0], axis.range[1]) + 0.5);
  if (meta.numeric) {  // a line over numbers: the row whose x is nearest (in powers of ten on a log axis)
    for (var i = 0, best = Infinity; i < count; i++) {
      var header = Number(table.headers[i].replace("\u2212", "-"));
      var distance = Math.abs((meta.log ? Math.log(header) / Math.LN10 : header) - along);
      if (distance < best) { best = distance; at = i; }
    }
  } else if (Math.abs(along - Math.round(along)) <= 0.5) {
    at = Math.round(along);
  }
  if (at < 0 || at >= count || !table.cells[at]) return null;
  var values = table.cells[at], lines = [table.headers[at]];
  if (values.length === 1) return table.headers[at] + ": " + values[0];
  values.forEach(function (value, i) { if (value !== "") lines.push(table.columns[i + 1] + ": " + value); });
  return lines.join("\n");
}
