/* The browser runtime (bundled into static/runtime.js by ../bundle.cjs): generic, it
   knows controls, states, readouts, charts and prose, and nothing about any
   explainer's subject. It never computes a number; it only looks up the state the build
   precomputed. Its modules: controls.js, step.js (a step and the state it shows),
   charts.js (drawing with Plotly), diff.js (what changed between two states), hover.js,
   tables.js, plotly.js (the loader, and the contract of loading plotly.js),
   observers.js and print.js; ../core/ is shared with the other scripts.

   It starts without plotly.js. Controls answer at once from the page data (readouts,
   prose, tables), and each chart's still drawing (render/poster.py) stands in for
   Plotly's until plotly.js is needed (plotly.js says when).

   Events, dispatched on the step's section (they bubble):
   - "explainer:state", detail {key}: a state is shown (controls, readouts,
     prose, tables), at once on every choice;
   - "explainer:drawn", detail {key, chart}: Plotly has drawn chart number
     `chart` of the step in that state.
   On window: lensa.runtime = {steps, plotly()} (docs/architecture.md). */
import { createPool } from "../core/pool.js";
import { Step } from "./step.js";
import { createLoader } from "./plotly.js";
import { observe } from "./observers.js";
import { printing } from "./print.js";
import { lensa } from "../core/lensa.js";

var source = document.getElementById("explainer-data");
if (source) start(JSON.parse(source.textContent));

function start(data) {
  var steps = [];
  var page = { data: data, pool: createPool(data.pool),
               plotly: createLoader(function () { steps.forEach(function (step) { step.draw(); }); }) };
  Array.prototype.slice.call(document.querySelectorAll("section[data-step]")).forEach(function (section) {
    steps.push(new Step(section, page));
  });

  // What the reader chose before this script ran (runtime.js runs once the page is
  // parsed; a slow phone shows the controls well before): the taps the page's head kept
  // (templates/_early_input.html) in order, and a slider's thumb wherever it now is
  // (moved, or put back by the browser on a reload). None is lost.
  ((lensa.early && lensa.early.input) || []).forEach(function (target) {
    var section = target.closest("section[data-step]"), group = target.closest("[data-control]");
    steps.forEach(function (step) {
      if (step.section === section) step.take(step.groups.indexOf(group), target);
    });
  });
  steps.forEach(function (step) {
    step.controls.forEach(function (control, at) {
      if (control.kind === "slider") step.select(at, control.index());
    });
  });

  var charts = [];
  steps.forEach(function (step) { charts = charts.concat(step.charts); });
  observe(steps, charts, page.plotly);
  printing(steps, charts);

  // `plotly()`: a promise of window.Plotly, running plotly.js now if it has not run (for
  // a script that needs Plotly itself, such as one that exports a chart).
  lensa.runtime = { steps: steps, plotly: page.plotly.load };
}
