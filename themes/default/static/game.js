/* The game's runtime: it shows one round at a time and, when a word button is
   pressed, finds the state reached by its place (the build lists a round's states
   in the order of their controls' values) and shows what the build computed for
   it (answer, confidence, stars, top answers). It never computes an answer: which
   words each head reads, the data table and the sentence announced follow from
   the state's place and the build's texts. It also keeps the address fragment
   (#round-4&spotlight=1.2.0), the rounds' best stars (in storage where the
   browser allows it) and the Embed button's code. Classic script (no modules, no
   fetch): pages run from file://. */
(function () {
  "use strict";

  var source = document.getElementById("game-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var slice = Array.prototype.slice;
  var STORAGE = data.storage;

  // The best stars of each round. Storage may be blocked (some file:// pages,
  // sandboxed frames, private modes): the stars then last as long as the page.
  var best = data.rounds.map(function () { return 0; });
  try {
    var saved = JSON.parse(window.localStorage.getItem(STORAGE) || "null");
    if (Array.isArray(saved) && saved.length === best.length) {
      best = saved.map(function (n) {
        n = Math.floor(Number(n)) || 0;
        return Math.max(0, Math.min(n, data.stars.length - 1));
      });
    }
  } catch (blocked) { /* the page works without it */ }
  function remember() {
    try { window.localStorage.setItem(STORAGE, JSON.stringify(best)); } catch (blocked) { /* as above */ }
  }

  function Round(section, index) {
    var self = this, spec = data.rounds[index];
    this.section = section;
    this.index = index;
    this.spec = spec;
    this.place = {};
    spec.keys.forEach(function (key, i) { self.place[key] = i; });
    // Control c's value in the state at place i is digit c of i, base spec.values.
    var controls = spec.one ? spec.heads.length : spec.heads.length * spec.candidates.length;
    this.stride = [];
    for (var c = controls - 1, step = 1; c >= 0; c--, step *= spec.values) this.stride[c] = step;
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
    slice.call(section.querySelectorAll("[role=group][data-head]")).forEach(function (group) {
      group.addEventListener("keydown", function (event) { roving(group, event); });
    });
    var reveal = section.querySelector("[data-reveal]");
    var panel = reveal && document.getElementById(reveal.getAttribute("aria-controls"));
    if (reveal && panel) {
      reveal.addEventListener("click", function () {
        var open = reveal.getAttribute("aria-expanded") !== "true";
        reveal.setAttribute("aria-expanded", open ? "true" : "false");
        panel.hidden = !open;
        changed(section);
      });
    }
    var next = section.querySelector("[data-next]");
    if (next) next.addEventListener("click", function () { show(index + 1, true); });
  }

  Round.prototype.value = function (place, control) {
    return Math.floor(place / this.stride[control]) % this.spec.values;
  };

  // The positions each head reads in the state at `place`.
  Round.prototype.chosen = function (place) {
    var spec = this.spec, n = spec.candidates.length, self = this;
    return spec.heads.map(function (head, h) {
      if (spec.one) {
        var v = self.value(place, h);
        return v ? [spec.candidates[v - 1]] : [];
      }
      return spec.candidates.filter(function (p, j) { return self.value(place, h * n + j) === 1; });
    });
  };

  Round.prototype.toggle = function (button) {
    // A word goes in as its button's value of its control; pressed again, it goes out (value 0).
    var control = Number(button.getAttribute("data-control"));
    var value = button.getAttribute("aria-pressed") === "true" ? 0 : Number(button.getAttribute("data-value"));
    // The pressed button becomes its group's tab stop.
    slice.call(button.parentNode.querySelectorAll("button[data-control]")).forEach(function (other) {
      other.tabIndex = other === button ? 0 : -1;
    });
    var place = this.at + (value - this.value(this.at, control)) * this.stride[control];
    this.set(this.spec.keys[place], true);
  };

  Round.prototype.set = function (key, announce) {
    if (!Object.prototype.hasOwnProperty.call(this.place, key)) return false;
    var place = this.place[key], spec = this.spec, state = spec.states[place], self = this;
    this.key = key;
    this.at = place;
    this.buttons.forEach(function (button) {
      var value = self.value(place, Number(button.getAttribute("data-control")));
      button.setAttribute("aria-pressed", value === Number(button.getAttribute("data-value")) ? "true" : "false");
    });
    var chosen = this.chosen(place), size = 0;
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
    var says = data.says.replace("{answer}", state.answer).replace("{confidence}", state.confidence) +
      data.solved[state.stars] + (state.feedback ? " " + data.feedback[state.feedback] : "") + " " +
      this.looks(chosen);
    if (announce || this.says.textContent !== says) this.says.textContent = says;
    if (state.stars > best[this.index]) {
      best[this.index] = state.stars;
      remember();
    }
    this.showResult();
    showScore();
    if (announce) changed(section);
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

  // Where each head looks, in words (text.py's looks_text).
  Round.prototype.looks = function (chosen) {
    var spec = this.spec;
    return chosen.map(function (words, h) {
      var head = spec.heads[h];
      if (!words.length) return data.looks_blank.replace("{head}", head);
      var names = words.map(function (p) { return spec.names[p]; }), last = names.pop();
      var listed = names.length ? names.join(", ") + " " + data.and + " " + last : last;
      return data.looks.replace("{head}", head).replace("{words}", listed);
    }).join(" ");
  };

  Round.prototype.showResult = function () {
    var stars = best[this.index], total = data.stars.length - 1;
    this.result.hidden = stars === 0;
    if (!stars) return;
    var marks = "";
    for (var i = 1; i <= total; i++) marks += i <= stars ? "★" : "☆";
    this.result.querySelector("[data-star-marks]").textContent = marks;
    this.result.querySelector("[data-best]").textContent = data.best[stars];
  };

  // Roving focus: Tab reaches a group once, arrow keys (and Home, End) move inside it,
  // Enter or Space toggles the focused word.
  function roving(group, event) {
    var buttons = slice.call(group.querySelectorAll("button[data-control]"));
    var at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    var next = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
                 Home: 0, End: buttons.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    next = (next + buttons.length) % buttons.length;
    buttons.forEach(function (b, i) { b.tabIndex = i === next ? 0 : -1; });
    buttons[next].focus();
  }

  var rounds = slice.call(document.querySelectorAll("section[data-round]")).map(function (section, i) {
    return new Round(section, i);
  });
  if (!rounds.length) return;
  var links = slice.call(document.querySelectorAll("a[data-round-link]"));
  var current = 0;

  function showScore() {
    var total = 0;
    best.forEach(function (n) { total += n; });
    slice.call(document.querySelectorAll("[data-score]")).forEach(function (cell) {
      if (cell.textContent !== data.score[total]) cell.textContent = data.score[total];
    });
  }

  // One round at a time; `focus` moves the reader to its heading (Next round).
  function show(index, focus) {
    if (index < 0 || index >= rounds.length) return;
    current = index;
    rounds.forEach(function (round, i) { round.section.hidden = i !== index; });
    links.forEach(function (link, i) {
      if (i === index) link.setAttribute("aria-current", "step");
      else link.removeAttribute("aria-current");
    });
    if (focus) rounds[index].heading.focus();
    changed(rounds[index].section);
  }

  function changed(section) {
    section.dispatchEvent(new CustomEvent("explainer:state", { bubbles: true, detail: { key: rounds[current].key } }));
  }

  /* ---- Deep links: #round-2&spotlight=01000000 (the key of the state shown) ---- */

  function decode(text) {
    try { return decodeURIComponent(text); } catch (err) { return null; }
  }

  function parse(hash) {
    var found = { round: null, spotlight: null };
    hash.replace(/^#/, "").split("&").forEach(function (item) {
      var match = /^round-(\d+)$/.exec(item);
      if (match) found.round = Number(match[1]) - 1;
      else if (item.indexOf("spotlight=") === 0) found.spotlight = decode(item.slice(10));
    });
    return found;
  }

  function apply(hash) {
    var found = parse(hash);
    if (found.round === null || !rounds[found.round]) return false;
    var round = rounds[found.round];
    // A link to a round alone (the list of rounds) keeps the spotlight the reader left there.
    if (found.spotlight !== null) {
      var listed = Object.prototype.hasOwnProperty.call(round.place, found.spotlight);
      round.set(listed ? found.spotlight : round.spec["default"], false);
    }
    show(found.round, false);
    return true;
  }

  function fragment() {
    // The first round, untouched, is the page as it opens: no fragment.
    var round = rounds[current], untouched = round.key === round.spec["default"];
    if (current === 0 && untouched) return "";
    return "round-" + (current + 1) + (untouched ? "" : "&spotlight=" + encodeURIComponent(round.key));
  }

  function withFragment(url, text) { return url.split("#")[0] + (text ? "#" + text : ""); }

  // The address follows the reader once they pause (replaceState, so the Back
  // button is not filled with every click); leaving the page writes it at once.
  var pending = null;
  // The address as this page last read or wrote it. When it differs, the reader (or a
  // link, or Back) changed it and its hashchange is on the way: a write would undo it.
  var known = location.hash;
  function writeSoon() {
    updateLinks();
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(flush, 250);
  }
  function flush() {
    if (pending === null) return;
    clearTimeout(pending);
    pending = null;
    if (location.hash !== known) return;
    var url = withFragment(location.href, fragment());
    if (url === location.href) return;
    try { history.replaceState(history.state, "", url); } catch (err) { /* some sandboxed frames refuse */ }
    known = location.hash;
  }
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", flush);
  document.addEventListener("explainer:state", writeSoon);
  window.addEventListener("hashchange", function () {
    known = location.hash;
    if (location.hash !== "#" + fragment()) apply(location.hash);
  });

  // Links that carry the state along: the embed's link to the full game.
  var stateLinks = slice.call(document.querySelectorAll("a[data-state-link]"));
  function updateLinks() {
    stateLinks.forEach(function (link) { link.href = withFragment(link.href, fragment()); });
    embeds.forEach(function (embed) { embed.refresh(); });
  }

  /* ---- The Embed button (embed-code.js): its code opens at the round shown ---- */

  var embedCode = window.lensaEmbedCode;
  var embeds = embedCode ? slice.call(document.querySelectorAll("textarea[data-embed-code]")).map(function (box) {
    return embedCode.attach(box, fragment);
  }) : [];

  rounds.forEach(function (round) { round.showResult(); });
  showScore();
  if (!apply(location.hash)) show(0, false);
  // Words the reader pressed before this script ran (the page's head kept them,
  // templates/_early_input.html), in order: none is lost.
  (window.lensaEarlyInput || []).forEach(function (target) {
    rounds.forEach(function (round) { if (round.buttons.indexOf(target) >= 0) round.toggle(target); });
  });
  updateLinks();

  // The score as an LMS records it (scorm.js, docs/lms.md): the best stars of every round
  // added up, out of the most there are, and how many rounds are solved (a star or more).
  function score() {
    var raw = 0, solved = 0;
    best.forEach(function (n) { raw += n; if (n) solved++; });
    return { raw: raw, max: (data.stars.length - 1) * best.length, solved: solved, rounds: best.length };
  }

  window.gameRuntime = { rounds: rounds, show: show, fragment: fragment, score: score };
})();
