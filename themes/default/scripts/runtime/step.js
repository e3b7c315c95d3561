// A step of the page: its controls, its charts, and the state it shows. The build wrote
// every state; the step follows the choices to them and shows what they hold.
import { text } from "../core/pool.js";
import { rove } from "../core/roving.js";
import { Control } from "./controls.js";
import { Chart } from "./charts.js";
import { frameChanged } from "./diff.js";
import { fillTable } from "./tables.js";
import { lensa } from "../core/lensa.js";

// `page`: {data, pool, plotly} (main.js), shared by every step.
export function Step(section, page) {
  this.section = section;
  this.page = page;
  this.spec = page.data.steps[Number(section.getAttribute("data-step"))];
  this.groups = Array.prototype.slice.call(section.querySelectorAll("[data-control]"));
  this.controls = this.groups.map(function (element) { return new Control(element); });
  var self = this;
  this.charts = Array.prototype.slice.call(section.querySelectorAll("[data-chart]")).map(function (element) {
    return new Chart(self, element);
  });
  this.chart = this.charts.length ? this.charts[0].element : null;  // the first chart's element
  this.drawn = null;     // the key of the state every chart of the step shows
  this.shown = {};       // the prose and tables on the page, as the state they came from
  this.key = this.spec.default;
  this.controls.forEach(function (control, index) {
    var element = control.element;
    function input(event) { self.take(index, event.target); }
    if (control.kind === "slider") {
      // "input" follows the thumb as it moves, by pointer or by key.
      control.input.addEventListener("input", input);
    } else if (control.kind === "toggle") {
      control.button.addEventListener("click", input);
    } else {
      element.addEventListener("click", input);
      element.addEventListener("keydown", function (event) { rove(control.buttons, event); });
    }
  });
}

// What the reader did to control number `at` (a click on `target`, or the slider's
// thumb moved): the value it chose.
Step.prototype.take = function (at, target) {
  var control = this.controls[at];
  if (control.kind === "slider") return this.select(at, control.index());
  if (control.kind === "toggle") return this.select(at, control.index() === 1 ? 0 : 1);
  var button = target && target.closest && target.closest("button[data-index]");
  if (button) this.select(at, Number(button.getAttribute("data-index")));
};

// The build wrote, for every state, where each control leads ("to"): the runtime
// follows it and never builds a key itself, so any graph of states works alike.
// `control` is a control's index (or its element), `value` the index of its value.
Step.prototype.select = function (control, value) {
  var at = typeof control === "number" ? control : this.groups.indexOf(control);
  if (value && typeof value === "object") value = Number(value.getAttribute("data-index"));
  var leads = this.spec.states[this.key].to[at];
  var key = leads ? leads[value] : undefined;
  var changed = key !== undefined && key !== this.key && this.spec.states[key];
  // The charts are drawn before the controls change: Plotly reads sizes as it draws,
  // which would otherwise make the browser lay the page out first, mid-click.
  if (changed) {
    this.key = key;
    this.draw();
  }
  if (this.controls[at] && value !== undefined) this.controls[at].show(value);
  if (changed) this.show();
};

Step.prototype.show = function () {
  var state = this.spec.states[this.key];
  var section = this.section, shown = this.shown, spec = this.spec, resolve = this.page.pool.resolve;
  var previous = spec.states[shown.key === undefined ? spec.default : shown.key];
  // The charts first: Plotly measures text as it draws, and would otherwise force
  // the browser to lay out the new prose then, and again after the chart changed.
  this.draw();
  state.readouts.forEach(function (words, i) {
    var cell = section.querySelector('[data-readout="' + i + '"]');
    if (cell && cell.textContent !== words) cell.textContent = words;
  });
  // Text that did not change is left alone: rewriting it costs a layout for nothing.
  var prose = section.querySelector("[data-prose]");
  if (prose && shown.prose !== state.prose) {
    prose.innerHTML = state.prose;
    if (lensa.text) lensa.text(prose);  // citations' cards, code's Copy (_markup.html)
  }
  var tables = shown.tables || [];
  state.charts.forEach(function (chart, i) {
    var summary = section.querySelector('[data-summary="' + i + '"]');
    if (summary && summary.textContent !== chart.summary) summary.textContent = chart.summary;
    var table = section.querySelector('[data-table="' + i + '"]');
    if (table && chart.table && tables[i] !== text(chart.table)) fillTable(table, resolve(chart.table));
    // A chart that rescales (its step file says why) says when this choice changed its scale.
    var note = section.querySelector('[data-rescaled="' + i + '"]');
    if (note) rescaled(note, frameChanged(spec.charts[i].layout, previous.charts[i], chart));
  });
  this.shown = { key: this.key, prose: state.prose,
                 tables: state.charts.map(function (chart) { return text(chart.table); }) };
  section.dispatchEvent(new CustomEvent("explainer:state", { bubbles: true, detail: { key: this.key } }));
};

Step.prototype.draw = function () {
  var key = this.key, all = true;
  this.charts.forEach(function (chart) {
    chart.draw(key);
    if (chart.drawn !== key) all = false;
  });
  this.drawn = all && this.charts.length ? key : null;
};

Step.prototype.redraw = function () {
  this.charts.forEach(function (chart) {
    chart.drawn = null;
    chart.colours = null;
  });
  this.draw();
};

// The note under a chart that rescales: said at each change of scale (emptied first when it
// is already said, so that a screen reader says it again), and taken back at a click that
// keeps the scale.
function rescaled(note, changed) {
  var words = changed ? note.getAttribute("data-rescaled-text") : "";
  if (note.textContent === words && !changed) return;
  note.textContent = "";
  if (words) requestAnimationFrame(function () { note.textContent = words; });
}
