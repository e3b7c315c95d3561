// A step's data table, filled for the state shown. Rows are built as text nodes: cell
// strings never become markup.
export function fillTable(table, spec) {
  function row(cells, header, highlighted) {
    var tr = document.createElement("tr");
    if (highlighted) tr.setAttribute("aria-current", "true");
    cells.forEach(function (text, i) {
      var cell = document.createElement(header || i === 0 ? "th" : "td");
      if (header) cell.scope = "col";
      else if (i === 0) cell.scope = "row";
      cell.textContent = text;
      tr.appendChild(cell);
    });
    return tr;
  }
  var head = table.tHead || table.createTHead();
  head.replaceChildren(row(spec.columns, true, false));
  var body = table.tBodies[0] || table.createTBody();
  // Each row's header comes apart from its cells (kinds/explainer/payload.py).
  body.replaceChildren.apply(body, spec.headers.map(function (header, i) {
    return row([header].concat(spec.cells[i]), false, i === spec.highlight);
  }));
}
