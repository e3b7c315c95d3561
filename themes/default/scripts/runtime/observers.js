// Charts below the fold are drawn when they come into view, each on its own (a step's
// charts stack on a phone). A device that hovers shows a chart's labels under the
// pointer, which Plotly's axes place: it runs plotly.js when idle once a chart is within
// a screen of the view, so the labels, and the first click's chart, are ready when the
// reader gets there. A touch screen, where a tap is the first use of a chart, runs it
// when a tap needs it. The scheme toggle and the system setting both announce a change
// of colours ("explainer:scheme"): every chart is drawn again in the new ones.
export function observe(steps, charts, plotly) {
  function reveal(chart) {
    chart.visible = true;
    chart.step.draw();
  }
  var hovers = !!(window.matchMedia && window.matchMedia("(hover: hover)").matches);
  if ("IntersectionObserver" in window) {
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        observer.unobserve(entry.target);
        charts.forEach(function (chart) { if (chart.element === entry.target) reveal(chart); });
      });
    }, { rootMargin: "200px 0px" });
    charts.forEach(function (chart) { observer.observe(chart.element); });
    if (hovers && charts.length) {
      var nearing = new IntersectionObserver(function (entries) {
        if (!entries.some(function (entry) { return entry.isIntersecting; })) return;
        nearing.disconnect();
        plotly.idle();
      }, { rootMargin: "100% 0px" });
      charts.forEach(function (chart) { nearing.observe(chart.element); });
    }
  } else {
    charts.forEach(reveal);
    if (hovers && charts.length) plotly.idle();
  }
  document.addEventListener("explainer:scheme", function () {
    steps.forEach(function (step) { step.redraw(); });
  });
}
