// One chart of a step, drawn lazily (when it first comes into view) and redrawn with the
// least Plotly call that shows the new state (diff.js).
import { text } from "../core/pool.js";
import { themed } from "../core/theme.js";
import { changesBetween, isMark, keepCount } from "./diff.js";
import { hoverText } from "./hover.js";

export function Chart(step, element) {
  this.step = step;
  this.element = element;
  this.index = Number(element.getAttribute("data-chart")) || 0;
  this.visible = false;
  this.drawn = null;     // the key of the state Plotly shows
  this.plotted = false;  // Plotly has set the chart up (with its config)
  this.colours = null;   // theme colours looked up for this chart, by custom property
  this.cells = null;     // the table of the state shown, for hoverCells: {key, table}
  this.update = null;    // what the last draw asked of Plotly, and why ({via, why}: bench/clicks.py)
  // The still drawing of the default state's figure, until Plotly draws in its place.
  this.poster = element.querySelector("[data-poster]") ? step.spec.default : null;
  this.hoverCells();
  // A reader who taps a chart wants to read it: its hover labels come with Plotly.
  element.addEventListener("click", function () { step.page.plotly.soon(); });
}

// Before Plotly has drawn the chart: its still drawing stands in while it shows the
// figure of state `key` (states may share a chart's figure); otherwise it is marked
// as showing the earlier state, and a chart in view asks for Plotly.
Chart.prototype.wait = function (key) {
  var stale = this.poster === null || !sameFigure(this.step.spec, this.index, this.poster, key);
  if (stale !== this.element.hasAttribute("data-pending")) {
    if (stale && this.poster !== null) this.element.setAttribute("data-pending", "");
    else this.element.removeAttribute("data-pending");
  }
  if (stale && this.visible) this.step.page.plotly.soon();
};

function sameFigure(spec, index, one, other) {
  if (one === other) return true;
  var a = spec.states[one].charts[index], b = spec.states[other].charts[index];
  return text(a.data) === text(b.data) && text(a.layout) === text(b.layout);
}

// Charts drawn as pictures and shapes have no trace for Plotly to hover: the label under
// the pointer is read from the step's data table (hover.js), in its own strings. The
// chart is hidden from assistive technology, whose readers have the table itself.
Chart.prototype.hoverCells = function () {
  var chart = this, element = this.element, label = null;
  function hide() { if (label && !label.hidden) label.hidden = true; }
  element.addEventListener("mouseleave", hide);
  element.addEventListener("mousemove", function (event) {
    var full = element._fullLayout, meta = element.layout && element.layout.meta;
    var x = full && full.xaxis, y = full && full.yaxis, table = meta && meta.hover ? chart.table() : null;
    if (!table || !x || !y) return hide();
    var box = element.getBoundingClientRect();
    var px = event.clientX - box.left - x._offset, py = event.clientY - box.top - y._offset;
    var words = px < 0 || py < 0 || px > x._length || py > y._length ? null
      : hoverText(meta, table, x.p2l(px), y.p2l(py), meta.along === "y" ? y : x);
    if (words === null) return hide();
    if (!label) {
      label = document.createElement("div");
      label.className = "cell-hover";
      element.appendChild(label);
    }
    label.textContent = words;
    label.hidden = false;
    // Below and right of the pointer, or left of it where the chart's edge is near.
    var left = event.clientX - box.left + 14, top = event.clientY - box.top + 14;
    if (left + label.offsetWidth > box.width) left = Math.max(0, left - 28 - label.offsetWidth);
    if (top + label.offsetHeight > box.height) top = Math.max(0, top - 28 - label.offsetHeight);
    label.style.left = left + "px";
    label.style.top = top + "px";
  });
};

// The data table of the state the chart shows (resolved once per state).
Chart.prototype.table = function () {
  if (this.drawn === null) return null;
  if (!this.cells || this.cells.key !== this.drawn) {
    var state = this.step.spec.states[this.drawn].charts[this.index];
    this.cells = { key: this.drawn, table: state.table ? this.step.page.pool.resolve(state.table) : null };
  }
  return this.cells.table;
};

Chart.prototype.draw = function (key) {
  if (this.drawn === key) return;
  if (!window.Plotly || !this.visible) {
    if (!this.plotted) this.wait(key);
    return;
  }
  var spec = this.step.spec, i = this.index, resolve = this.step.page.pool.resolve;
  var state = spec.states[key].charts[i];
  var shared = spec.charts[i].layout;
  var before = this.drawn === null ? null : spec.states[this.drawn].charts[i];
  var motion = shared.transition && !reducedMotion();
  // A chart holds one layout across its step (charts/held.py), so a click changes its
  // marks: Plotly.relayout of just the layout's attributes that changed (shapes, pictures)
  // redraws those parts alone, and Plotly.update also restyles the traces' attributes that
  // changed; Plotly.react would run the defaults of the whole figure again and redraw all
  // of it. It stays for a first draw, traces added or removed, a changed annotation (which
  // Plotly lays out again whichever way it comes) and a figure with a transition, which
  // Plotly.react animates. The same figure in both states needs no call at all.
  var changes = before && !motion ? changesBetween(shared, before, state) : false;
  var drawing;
  if (changes && !changes.layout && !changes.data) {
    this.update = { via: "none" };
    drawing = Promise.resolve();
  } else if (changes) {
    var edits = changes.layout || {}, data = changes.data, name;
    for (name in edits) edits[name] = this.themed(resolve(edits[name]));
    if (edits.shapes) edits.shapes = keepCount(edits.shapes, this.element.layout.shapes);
    // Beyond the marks, the frame changed: Plotly lays the figure out (a chart that rescales).
    var frame = Object.keys(edits).filter(function (path) { return !isMark(path); });
    if (data) {
      for (name in data.update) data.update[name] = this.themed(resolve(data.update[name]));
      drawing = window.Plotly.update(this.element, data.update, edits, data.traces);
    } else {
      drawing = window.Plotly.relayout(this.element, edits);
    }
    this.update = { via: data ? "update" : "relayout", why: frame.length ? "rescaled: " + frame.join(", ") : "" };
  } else {
    var layout = resolve(shared);
    var own = resolve(state.layout);
    for (var k in own) layout[k] = own[k];
    if (reducedMotion()) delete layout.transition;
    // The config goes with the first draw only: with a config, Plotly.react sets the
    // plot up again, reading the chart's size (a forced layout) on every click.
    var config = !this.plotted ? { displayModeBar: false, responsive: true } : undefined;
    // The still drawing of the first state the build put in the page gives way to Plotly's chart.
    var poster = !this.plotted && this.element.querySelector("[data-poster]");
    if (poster) poster.remove();
    this.element.removeAttribute("data-pending");
    // Plotly.react diffs against the drawn figure: one plot per chart, updated in place.
    drawing = window.Plotly.react(this.element, this.themed(resolve(state.data)), this.themed(layout), config);
    this.update = { via: "react", why: !before ? "first drawn" : motion ? "a transition"
      : "traces added or removed, or an annotation changed" };
    this.plotted = true;
  }
  this.drawn = key;
  var section = this.step.section, detail = { key: key, chart: i };
  if (drawing && drawing.then) {
    drawing.then(function () {
      section.dispatchEvent(new CustomEvent("explainer:drawn", { bubbles: true, detail: detail }));
    }, function () {});
  }
};

// Colours the theme decides arrive as "var(--chart-…)" and are looked up in the
// chart's computed style, so charts follow light, dark and print colours. Each is
// read once per scheme: redraw() forgets them when the colours change.
Chart.prototype.themed = function (node) {
  var chart = this.element, colours = this.colours || (this.colours = {}), style = null;
  return themed(node, function (name) {
    if (!(name in colours)) {
      style = style || getComputedStyle(chart);
      colours[name] = style.getPropertyValue(name).trim();
    }
    return colours[name];
  }, this.step.page.pool.keep);
};

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}
