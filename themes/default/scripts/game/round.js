// One round of the game on the page: its word buttons, readouts, table, arcs and top
// answers, set to the state the build computed for the words pressed. `game` is what the
// rounds share (main.js): the page's data, the best stars, and remember(), showScore(),
// show(index, focus) and changed(section).
import { rove } from "../core/roving.js";
import { chosenWords, controlCount, looksText, placeWith, saysText, starMarks, strides, valueAt } from "./places.js";

var slice = Array.prototype.slice;

export function Round(section, index, game) {
  var self = this, spec = game.data.rounds[index];
  this.game = game;
  this.section = section;
  this.index = index;
  this.spec = spec;
  this.place = {};
  spec.keys.forEach(function (key, i) { self.place[key] = i; });
  this.stride = strides(controlCount(spec), spec.values);
  this.at = this.place[spec["default"]];
  this.key = spec["default"];
  this.buttons = slice.call(section.querySelectorAll("button[data-control]"));
  this.heading = section.querySelector("h2");
  this.says = section.querySelector("[data-says]");
  this.result = section.querySelector("[data-result]");
  this.cells = slice.call(section.querySelectorAll("[data-table] tbody tr")).map(function (row) {
    return slice.call(row.querySelectorAll("td"));
  });
  this.arcs = {};
  slice.call(section.querySelectorAll("path[data-arc]")).forEach(function (arc) {
    self.arcs[arc.getAttribute("data-arc")] = arc;
  });
  this.shown = slice.call(section.querySelectorAll("path[data-arc]:not([display])"));
  this.top = slice.call(section.querySelectorAll("[data-top] li")).map(function (item) {
    return [item.querySelector(".top-word"), item.querySelector(".top-bar > span"), item.querySelector(".top-value")];
  });
  this.buttons.forEach(function (button) {
    button.addEventListener("click", function () { self.toggle(button); });
  });
  // Roving focus: Tab reaches a group once, arrow keys (and Home, End) move inside it,
  // Enter or Space toggles the focused word.
  slice.call(section.querySelectorAll("[role=group][data-head]")).forEach(function (group) {
    group.addEventListener("keydown", function (event) {
      rove(slice.call(group.querySelectorAll("button[data-control]")), event);
    });
  });
  var reveal = section.querySelector("[data-reveal]");
  var panel = reveal && document.getElementById(reveal.getAttribute("aria-controls"));
  if (reveal && panel) {
    reveal.addEventListener("click", function () {
      var open = reveal.getAttribute("aria-expanded") !== "true";
      reveal.setAttribute("aria-expanded", open ? "true" : "false");
      panel.hidden = !open;
      game.changed(section);
    });
  }
  var next = section.querySelector("[data-next]");
  if (next) next.addEventListener("click", function () { game.show(index + 1, true); });
}

Round.prototype.value = function (place, control) {
  return valueAt(place, this.stride[control], this.spec.values);
};

Round.prototype.toggle = function (button) {
  // A word goes in as its button's value of its control; pressed again, it goes out (value 0).
  var control = Number(button.getAttribute("data-control"));
  var value = button.getAttribute("aria-pressed") === "true" ? 0 : Number(button.getAttribute("data-value"));
  // The pressed button becomes its group's tab stop.
  slice.call(button.parentNode.querySelectorAll("button[data-control]")).forEach(function (other) {
    other.tabIndex = other === button ? 0 : -1;
  });
  this.set(this.spec.keys[placeWith(this.at, this.stride, this.spec.values, control, value)], true);
};

Round.prototype.set = function (key, announce) {
  if (!Object.prototype.hasOwnProperty.call(this.place, key)) return false;
  var place = this.place[key], spec = this.spec, state = spec.states[place], self = this, game = this.game;
  this.key = key;
  this.at = place;
  this.buttons.forEach(function (button) {
    var value = self.value(place, Number(button.getAttribute("data-control")));
    button.setAttribute("aria-pressed", value === Number(button.getAttribute("data-value")) ? "true" : "false");
  });
  var chosen = chosenWords(spec, this.stride, place), size = 0;
  chosen.forEach(function (words) { size += words.length; });
  var section = this.section, readouts = { answer: state.answer, confidence: state.confidence,
                                           words: spec.counts[size] };
  ["answer", "confidence", "words"].forEach(function (name) {
    slice.call(section.querySelectorAll('[data-readout="' + name + '"]')).forEach(function (cell) {
      if (cell.textContent !== readouts[name]) cell.textContent = readouts[name];
    });
  });
  // The blank's attention: a head's chosen words share it equally, an empty spotlight leaves it on the blank.
  this.cells.forEach(function (cells, row) {
    cells.forEach(function (cell, h) {
      var words = chosen[h].length ? chosen[h] : [spec.blank];
      var text = spec.shares[words.indexOf(row) >= 0 ? words.length : 0];
      if (cell.textContent !== text) cell.textContent = text;
    });
  });
  this.draw(chosen);
  (state.top || []).forEach(function (answer, i) {
    var parts = self.top[i];
    if (!parts) return;
    if (parts[0].textContent !== answer[0]) parts[0].textContent = answer[0];
    if (parts[2].textContent !== answer[1]) parts[2].textContent = answer[1];
    parts[1].style.width = parseFloat(answer[1]) + "%";
  });
  // The sentence of text.py, with this state's words: only a change the reader made is announced.
  var says = saysText(game.data, state, looksText(game.data, spec, chosen));
  if (announce || this.says.textContent !== says) this.says.textContent = says;
  if (state.stars > game.best[this.index]) {
    game.best[this.index] = state.stars;
    game.remember();
  }
  this.showResult();
  game.showScore();
  if (announce) game.changed(section);
  return true;
};

// The arcs of this spotlight: one per head and word it reads, as wide as its share; a loop on the blank for none.
Round.prototype.draw = function (chosen) {
  var self = this, shown = [];
  chosen.forEach(function (words, h) {
    var width = String(self.spec.strokes[words.length]);
    (words.length ? words : ["b"]).forEach(function (word) {
      var arc = self.arcs[h + "-" + word];
      if (!arc) return;
      if (arc.getAttribute("stroke-width") !== width) arc.setAttribute("stroke-width", width);
      arc.removeAttribute("display");
      shown.push(arc);
    });
  });
  this.shown.forEach(function (arc) { if (shown.indexOf(arc) < 0) arc.setAttribute("display", "none"); });
  this.shown = shown;
};

Round.prototype.showResult = function () {
  var data = this.game.data, stars = this.game.best[this.index];
  this.result.hidden = stars === 0;
  if (!stars) return;
  this.result.querySelector("[data-star-marks]").textContent = starMarks(stars, data.stars.length - 1);
  this.result.querySelector("[data-best]").textContent = data.best[stars];
};
