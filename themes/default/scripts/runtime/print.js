// Printing shows every step, so every chart is drawn first, in print colours
// (data-printing turns the dark palette off) and at the printed width.
export function printing(steps, charts) {
  function resizeAll() {
    charts.forEach(function (chart) {
      if (chart.drawn !== null && window.Plotly) window.Plotly.Plots.resize(chart.element);
    });
  }
  window.addEventListener("beforeprint", function () {
    document.documentElement.setAttribute("data-printing", "");
    charts.forEach(function (chart) { chart.visible = true; });
    steps.forEach(function (step) { step.redraw(); });
    resizeAll();
  });
  window.addEventListener("afterprint", function () {
    document.documentElement.removeAttribute("data-printing");
    steps.forEach(function (step) { step.redraw(); });
    resizeAll();
  });
}
