/* The browser runtime: generic, it knows controls, states, readouts, charts
   and prose, and nothing about any explainer's subject. It never computes a
   number; it only looks up the state the build precomputed.
   Classic script (no modules, no fetch): pages must run from file://.

   It starts without plotly.js. Controls answer at once from the page data
   (readouts, prose, tables), and each chart's still drawing (render/poster.py)
   stands in for Plotly's until plotly.js is needed: evaluating it holds a
   phone's main thread for half a second, so the runtime fetches it once the
   page has loaded and runs it only when a chart near the screen must show a
   state its drawing does not (a tap, a deep link), when the reader clicks a
   chart, on a device that hovers once a chart nears the screen (for its hover
   labels), or when a script asks (explainerRuntime.plotly()). Until then a
   drawing that no longer shows its step's state is marked as showing the
   earlier one.

   Events, dispatched on the step's section (they bubble):
   - "explainer:state", detail {key}: a state is shown (controls, readouts,
     prose, tables), at once on every choice;
   - "explainer:drawn", detail {key, chart}: Plotly has drawn chart number
     `chart` of the step in that state. */
(function () {
  "use strict";

  var source = document.getElementById("explainer-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);

  // Arrays shared between states are stored once and referenced as {"$": i}.
  // Every array of plain values is handed out as one shared object per content:
  // Plotly.react compares data arrays by identity, so an array that is the same
  // in two states costs nothing to redraw. Arrays holding objects (traces,
  // shapes) are fresh copies each time, since Plotly annotates those objects.
  var byIndex = [];
  var byText = {};
  function resolve(node) {
    if (Array.isArray(node)) {
      var array = node.map(resolve);
      return holdsObjects(array) ? array : share(array);
    }
    if (node && typeof node === "object") {
      if (isReference(node)) return pooled(node.$);
      var out = {};
      for (var key in node) out[key] = resolve(node[key]);
      return out;
    }
    return node;
  }
  function share(array) {
    var text = JSON.stringify(array);
    return byText[text] || (byText[text] = array);
  }
  function pooled(index) {
    if (byIndex[index]) return byIndex[index];
    var value = resolve(data.pool[index]);
    if (!holdsObjects(value)) byIndex[index] = value;
    return value;
  }
  function holdsObjects(array) {
    for (var i = 0; i < array.length; i++) {
      var item = array[i];
      if (item && typeof item === "object" && !Array.isArray(item)) return true;
    }
    return false;
  }

  // A control on the page, whatever its kind: the index of the value it shows (as
  // State.to counts them), the names of its values (as deep links name them), and
  // how to show another value. Buttons are a group with a roving tab stop, a toggle
  // is one button (off = value 0, on = value 1), a slider a native range input.
  function Control(element) {
    this.element = element;
    this.kind = element.getAttribute("data-kind") || "buttons";
    this.name = element.getAttribute("data-name");
    if (this.kind === "slider") {
      this.input = element.querySelector('input[type="range"]');
      this.names = JSON.parse(this.input.getAttribute("data-values"));
      this.texts = JSON.parse(this.input.getAttribute("data-texts"));
      this.output = element.querySelector("[data-slider-value]");
    } else if (this.kind === "toggle") {
      this.button = element.querySelector("button[data-toggle]");
      this.names = ["false", "true"];
    } else {
      this.buttons = Array.prototype.slice.call(element.querySelectorAll("button[data-index]"));
      this.names = this.buttons.map(function (b) { return b.getAttribute("data-value"); });
    }
    // The default state's choice, as the markup wrote it (a slider's thumb may have moved
    // before the runtime started): deep links return to it.
    this.initial = this.input ? Number(this.input.defaultValue) : this.index();
  }

  Control.prototype.index = function () {
    if (this.input) return Number(this.input.value);
    if (this.button) return this.button.getAttribute("aria-pressed") === "true" ? 1 : 0;
    for (var i = 0; i < this.buttons.length; i++) {
      if (this.buttons[i].getAttribute("aria-pressed") === "true") return i;
    }
    return -1;
  };

  Control.prototype.show = function (index) {
    if (this.input) {
      if (Number(this.input.value) !== index) this.input.value = String(index);
      this.input.setAttribute("aria-valuetext", this.texts[index]);
      if (this.output.textContent !== this.texts[index]) this.output.textContent = this.texts[index];
    } else if (this.button) {
      this.button.setAttribute("aria-pressed", index === 1 ? "true" : "false");
    } else {
      this.buttons.forEach(function (other, i) {
        other.setAttribute("aria-pressed", i === index ? "true" : "false");
        other.tabIndex = i === index ? 0 : -1;
      });
    }
  };

  // One chart of a step, drawn lazily: when it first comes into view.
  function Chart(step, element) {
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
    element.addEventListener("click", function () { plotly.soon(); });
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
    if (stale && this.visible) plotly.soon();
  };

  function sameFigure(spec, index, one, other) {
    if (one === other) return true;
    var a = spec.states[one].charts[index], b = spec.states[other].charts[index];
    return text(a.data) === text(b.data) && text(a.layout) === text(b.layout);
  }

  // Charts drawn as pictures and shapes (matrices, bars, lines) have no trace for Plotly
  // to hover: their layout's meta says how a position maps to the step's data table
  // (charts/common.py, hover_meta), and the label under the pointer is read from that
  // table, in its own strings. The chart is hidden from assistive technology, whose
  // readers have the table itself.
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
      var text = px < 0 || py < 0 || px > x._length || py > y._length ? null
        : hoverText(meta, table, x.p2l(px), y.p2l(py), meta.along === "y" ? y : x);
      if (text === null) return hide();
      if (!label) {
        label = document.createElement("div");
        label.className = "cell-hover";
        element.appendChild(label);
      }
      label.textContent = text;
      label.hidden = false;
      // Below and right of the pointer, or left of it where the chart's edge is near.
      var left = event.clientX - box.left + 14, top = event.clientY - box.top + 14;
      if (left + label.offsetWidth > box.width) left = Math.max(0, left - 28 - label.offsetWidth);
      if (top + label.offsetHeight > box.height) top = Math.max(0, top - 28 - label.offsetHeight);
      label.style.left = left + "px";
      label.style.top = top + "px";
    });
  };

  // The label for the point (x, y) in axis units, or null where there is nothing.
  // "cells": a matrix, a cell per unit, row by row down the y axis. "rows": a row of the
  // table per position along one axis (a bar each, or each x of a line chart). The
  // positions 0, 1, 2… fill that axis's range (a threshold's row comes after them).
  function hoverText(meta, table, x, y, axis) {
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

  // The data table of the state the chart shows (resolved once per state).
  Chart.prototype.table = function () {
    if (this.drawn === null) return null;
    if (!this.cells || this.cells.key !== this.drawn) {
      var state = this.step.spec.states[this.drawn].charts[this.index];
      this.cells = { key: this.drawn, table: state.table ? resolve(state.table) : null };
    }
    return this.cells.table;
  };

  function Step(section) {
    this.section = section;
    this.spec = data.steps[Number(section.getAttribute("data-step"))];
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
        element.addEventListener("keydown", function (event) { self.onKey(control, event); });
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

  // Roving focus: Tab reaches the group, arrow keys move inside it, Enter or Space selects.
  Step.prototype.onKey = function (control, event) {
    var buttons = control.buttons;
    var at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    var next = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
                 Home: 0, End: buttons.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    next = (next + buttons.length) % buttons.length;
    buttons.forEach(function (b, i) { b.tabIndex = i === next ? 0 : -1; });
    buttons[next].focus();
  };

  Step.prototype.show = function () {
    var state = this.spec.states[this.key];
    var section = this.section, shown = this.shown, spec = this.spec;
    var previous = spec.states[shown.key === undefined ? spec.default : shown.key];
    // The charts first: Plotly measures text as it draws, and would otherwise force
    // the browser to lay out the new prose then, and again after the chart changed.
    this.draw();
    state.readouts.forEach(function (text, i) {
      var cell = section.querySelector('[data-readout="' + i + '"]');
      if (cell && cell.textContent !== text) cell.textContent = text;
    });
    // Text that did not change is left alone: rewriting it costs a layout for nothing.
    var prose = section.querySelector("[data-prose]");
    if (prose && shown.prose !== state.prose) {
      prose.innerHTML = state.prose;
      if (window.lensaText) window.lensaText(prose);  // citations' cards, code's Copy (_markup.html)
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

  Chart.prototype.draw = function (key) {
    if (this.drawn === key) return;
    if (!window.Plotly || !this.visible) {
      if (!this.plotted) this.wait(key);
      return;
    }
    var spec = this.step.spec, i = this.index;
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
    });
  };

  // What differs between two states' figures (their stored forms: arrays shared between
  // states are the same {"$": i} reference in both, so the text stays short), as Plotly's
  // update calls take it: {layout: {"shapes": […], "xaxis.range": […]} or null, data:
  // {update: {"marker.color": [one value per trace]}, traces: [indices]} or null}; false
  // where only Plotly.react can draw it (traces added, removed or of another type; a changed
  // annotation, whose relayout has Plotly recompute the whole figure: they can move the
  // autorange). A state's own layout goes over the step's shared one (Chart.draw), key by key.
  function changesBetween(shared, before, after) {
    var layout = {};
    var count = layoutDiff(over(shared, before.layout), over(shared, after.layout), "", layout);
    var data = traceChanges(before.data, after.data);
    if (count < 0 || data === false) return false;
    return { layout: count ? layout : null, data: data };
  }
  function traceChanges(before, after) {
    if (text(before) === text(after)) return null;
    if (before.length !== after.length) return false;
    var diffs = [], traces = [], paths = {};
    for (var i = 0; i < after.length; i++) {
      if (text(before[i]) === text(after[i])) continue;
      if (before[i].type !== after[i].type) return false;
      var diff = {};
      if (layoutDiff(before[i], after[i], "", diff) < 0) return false;
      diffs.push(after[i]);
      traces.push(i);
      for (var path in diff) paths[path] = true;
    }
    var update = {};
    Object.keys(paths).forEach(function (path) {
      update[path] = diffs.map(function (trace) {
        var value = path.split(".").reduce(function (node, part) { return node && node[part]; }, trace);
        return value === undefined ? null : value;
      });
    });
    return { update: update, traces: traces };
  }
  // Whether two states of a chart differ in more than their marks: its scale changed.
  function frameChanged(shared, one, other) {
    var a = over(shared, one.layout), b = over(shared, other.layout), key;
    for (key in a) if (!isMark(key) && text(a[key]) !== text(b[key])) return true;
    for (key in b) if (!isMark(key) && !(key in a)) return true;
    return false;
  }
  // The note under a chart that rescales: said at each change of scale (emptied first when it
  // is already said, so that a screen reader says it again), and taken back at a click that
  // keeps the scale.
  function rescaled(note, changed) {
    var words = changed ? note.getAttribute("data-rescaled-text") : "";
    if (note.textContent === words && !changed) return;
    note.textContent = "";
    if (words) requestAnimationFrame(function () { note.textContent = words; });
  }
  // Shapes and pictures: the marks a click changes. Everything else is the chart's frame.
  function isMark(path) {
    return /^(shapes|images)(\.|$)/.test(path);
  }
  // Shapes as many as Plotly has drawn, the ones past the new list's end hidden: plotly.js
  // 4.1 redraws a whole list of shapes without removing those between the grid and the data
  // past its end (a bar, a line's marker), so a shorter list would leave them standing.
  function keepCount(shapes, drawn) {
    var count = drawn ? drawn.length : 0;
    if (shapes.length >= count) return shapes;
    var kept = shapes.slice();
    while (kept.length < count) kept.push({ visible: false });
    return kept;
  }
  function over(shared, own) {
    var out = {}, key;
    for (key in shared) out[key] = shared[key];
    for (key in own || {}) out[key] = own[key];
    return out;
  }

  // Adds to `changes` the attributes under `path` that differ from `old` to `now`, and
  // returns how many; -1 if one of them is an annotation. Objects are followed down to
  // the values that changed; arrays are replaced whole. An attribute gone is null,
  // which Plotly.relayout sets back to its default.
  function layoutDiff(old, now, path, changes) {
    var count = 0, key, seen = {};
    for (key in old) seen[key] = true;
    for (key in now) seen[key] = true;
    for (key in seen) {
      var a = old[key], b = now[key];
      if (text(a) === text(b)) continue;
      if (!path && key === "annotations") return -1;
      var at = path ? path + "." + key : key;
      if (isRecord(a) && isRecord(b)) {
        var inner = layoutDiff(a, b, at, changes);
        if (inner < 0) return -1;
        count += inner;
      } else {
        changes[at] = b === undefined ? null : b;
        count++;
      }
    }
    return count;
  }
  function isRecord(node) {
    return !!node && typeof node === "object" && !Array.isArray(node) && !isReference(node);
  }
  // {"$": i}: an array of the pool, stored once and referenced.
  function isReference(node) {
    return typeof node.$ === "number" && Object.keys(node).length === 1;
  }
  var texts = typeof WeakMap === "function" ? new WeakMap() : null;
  function text(node) {
    if (!node || typeof node !== "object" || !texts) return JSON.stringify(node);
    var found = texts.get(node);
    if (found === undefined) texts.set(node, found = JSON.stringify(node));
    return found;
  }

  function themed(node, colour) {
    if (typeof node === "string") {
      var match = /^var\((--[\w-]+)\)$/.exec(node);
      return match ? colour(match[1]) : node;
    }
    if (Array.isArray(node)) {
      // An array with nothing to look up is handed on as it is, and one with colours
      // in it is shared like any other array: Plotly.react then sees it unchanged.
      var out = null;
      for (var i = 0; i < node.length; i++) {
        var item = themed(node[i], colour);
        if (item !== node[i] && !out) out = node.slice(0, i);
        if (out) out.push(item);
      }
      return !out ? node : holdsObjects(out) ? out : share(out);
    }
    if (node && typeof node === "object") {
      var out = {};
      for (var key in node) out[key] = themed(node[key], colour);
      return out;
    }
    return node;
  }

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  // Rows are built as text nodes: cell strings never become markup.
  function fillTable(table, spec) {
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

  // plotly.js comes from <template data-plotly> (templates/_plotly.html): a script of the
  // file, or in a single-file copy its text (outputs/offline.py). Nothing in a template is
  // fetched or run, so the page's first view has the network to itself. The file is
  // fetched once the first view is painted or at a first tap (templates/_early_input.html),
  // or, where neither came (a page loaded hidden, whose frames never run), once the page
  // has loaded and the main thread is idle; it is run once, when first needed. A theme may
  // also load it with a script of its own.
  var plotly = (function () {
    var held = document.querySelector("template[data-plotly]");
    var code = held && held.content.querySelector("script");
    var address = code && code.getAttribute("src");
    var loading = null, asked = null;
    if (address && window.lensaFetchPlotly) {
      // Not once a script is fetching it already (a tap or a deep link ran it).
      var fetchEarly = function () { if (!loading) window.lensaFetchPlotly(); };
      var afterLoad = function () {
        if (window.requestIdleCallback) window.requestIdleCallback(fetchEarly, { timeout: 1000 });
        else setTimeout(fetchEarly, 0);
      };
      // Painted already (frames wait behind the parser's long tasks, so the watch may not
      // have seen it yet): now. A hidden page: once it has loaded.
      if (window.lensaPainted && window.lensaPainted()) fetchEarly();
      else if (document.readyState === "complete") afterLoad();
      else window.addEventListener("load", afterLoad);
    }
    function run(resolve, reject) {
      if (window.Plotly) return resolve();
      if (!code) {  // a theme's own script: there once the page has loaded
        var loaded = function () { return window.Plotly ? resolve() : reject(new Error("no plotly.js")); };
        return document.readyState === "complete" ? loaded() : window.addEventListener("load", loaded);
      }
      var script = document.createElement("script");
      if (address) {
        script.onload = function () { resolve(); };
        script.onerror = function () { reject(new Error("plotly.js did not load")); };
        script.src = address;
      } else {
        script.text = code.text;
      }
      document.head.appendChild(script);
      if (!address) resolve();
    }
    function load() {
      if (!loading) {
        loading = new Promise(run).then(function () {
          steps.forEach(function (step) { step.draw(); });
          return window.Plotly;
        });
        loading.catch(function () {});  // the still drawings stay; nothing else to do
      }
      return loading;
    }
    return {
      load: load,
      // Needed now: run once the browser has painted what the reader just did, so a tap's
      // answer shows before the main thread is busy with plotly.js.
      soon: function () {
        if (loading || asked === "soon") return;
        asked = "soon";
        var done = false;
        var go = function () { if (!done) { done = true; load(); } };
        requestAnimationFrame(function () { setTimeout(go, 0); });
        setTimeout(go, 100);  // no frame comes while the page is hidden
      },
      // Wanted, not needed (hover labels): when the main thread is idle.
      idle: function () {
        if (loading || asked) return;
        asked = "idle";
        if (window.requestIdleCallback) window.requestIdleCallback(load, { timeout: 3000 });
        else setTimeout(load, 200);
      }
    };
  })();

  var steps = Array.prototype.slice.call(document.querySelectorAll("section[data-step]")).map(function (s) {
    return new Step(s);
  });

  // What the reader chose before this script ran (runtime.js runs once the page is
  // parsed; a slow phone shows the controls well before): the taps the page's head kept
  // (templates/_early_input.html) in order, and a slider's thumb wherever it now is
  // (moved, or put back by the browser on a reload). None is lost.
  (window.lensaEarlyInput || []).forEach(function (target) {
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

  // Charts below the fold are drawn when they come into view, each on its own
  // (a step's charts stack on a phone).
  var charts = [];
  steps.forEach(function (step) { charts = charts.concat(step.charts); });
  function reveal(chart) {
    chart.visible = true;
    chart.step.draw();
  }
  // A device that hovers shows a chart's labels under the pointer, which Plotly's axes
  // place: it runs plotly.js when idle once a chart is within a screen of the view, so
  // the labels, and the first click's chart, are ready when the reader gets there. A
  // touch screen, where a tap is the first use of a chart, runs it when a tap needs it.
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
  // The scheme toggle and the system setting both announce a change of colours.
  document.addEventListener("explainer:scheme", function () {
    steps.forEach(function (step) { step.redraw(); });
  });

  // Printing shows every step, so every chart is drawn first, in print colours
  // (data-printing turns the dark palette off) and at the printed width.
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

  // `plotly()`: a promise of window.Plotly, running plotly.js now if it has not run (for
  // a script that needs Plotly itself, such as one that exports a chart).
  window.explainerRuntime = { steps: steps, plotly: plotly.load };
})();
