/* The game's runtime (bundled into static/game.js by ../bundle.cjs): it shows one round
   at a time and, when a word button is pressed, finds the state reached by its place (the
   build lists a round's states in the order of their controls' values, places.js) and
   shows what the build computed for it (answer, confidence, stars, top answers, round.js).
   It never computes an answer: which words each head reads, the data table and the
   sentence announced follow from the state's place and the build's texts. It also keeps
   the address fragment (#round-4&spotlight=1.2.0), the rounds' best stars (in storage
   where the browser allows it) and the Embed button's code. On window: lensa.game =
   {rounds, show, fragment, score}, which scorm.js reads (docs/architecture.md). */
import { delayedWriter, withFragment } from "../core/address.js";
import { gameFragment, parseGameFragment, savedBest, score } from "./places.js";
import { Round } from "./round.js";
import { lensa } from "../core/lensa.js";

var source = document.getElementById("game-data");
if (source) start(JSON.parse(source.textContent));

function start(data) {
  var slice = Array.prototype.slice;
  var STORAGE = data.storage;
  var most = data.stars.length - 1;   // the stars a round can give

  // The best stars of each round. Storage may be blocked (some file:// pages,
  // sandboxed frames, private modes): the stars then last as long as the page.
  var saved = null;
  try {
    saved = JSON.parse(window.localStorage.getItem(STORAGE) || "null");
  } catch (blocked) { /* the page works without it */ }
  var game = {
    data: data,
    best: savedBest(saved, data.rounds.length, most),
    remember: function () {
      try { window.localStorage.setItem(STORAGE, JSON.stringify(game.best)); } catch (blocked) { /* as above */ }
    },
    showScore: showScore,
    show: show,
    changed: changed,
  };

  var rounds = slice.call(document.querySelectorAll("section[data-round]")).map(function (section, i) {
    return new Round(section, i, game);
  });
  if (!rounds.length) return;
  var links = slice.call(document.querySelectorAll("a[data-round-link]"));
  var current = 0;

  function showScore() {
    var total = 0;
    game.best.forEach(function (n) { total += n; });
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

  function apply(hash) {
    var found = parseGameFragment(hash);
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
    var round = rounds[current];
    return gameFragment(current, round.key, round.spec["default"]);
  }

  // The address follows the reader once they pause (core/address.js).
  var address = delayedWriter(fragment);
  document.addEventListener("explainer:state", function () {
    updateLinks();
    address.soon();
  });
  window.addEventListener("hashchange", function () {
    address.heard();
    if (location.hash !== "#" + fragment()) apply(location.hash);
  });

  // Links that carry the state along: the embed's link to the full game.
  var stateLinks = slice.call(document.querySelectorAll("a[data-state-link]"));
  function updateLinks() {
    stateLinks.forEach(function (link) { link.href = withFragment(link.href, fragment()); });
    embeds.forEach(function (embed) { embed.refresh(); });
  }

  /* ---- The Embed button (embed-code.js): its code opens at the round shown ---- */

  var embedCode = lensa.embedCode;
  var embeds = embedCode ? slice.call(document.querySelectorAll("textarea[data-embed-code]")).map(function (box) {
    return embedCode.attach(box, fragment);
  }) : [];

  rounds.forEach(function (round) { round.showResult(); });
  showScore();
  if (!apply(location.hash)) show(0, false);
  // Words the reader pressed before this script ran (the page's head kept them,
  // templates/_early_input.html), in order: none is lost.
  ((lensa.early && lensa.early.input) || []).forEach(function (target) {
    rounds.forEach(function (round) { if (round.buttons.indexOf(target) >= 0) round.toggle(target); });
  });
  updateLinks();

  lensa.game = { rounds: rounds, show: show, fragment: fragment,
                 score: function () { return score(game.best, most); } };
}
