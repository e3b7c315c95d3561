// The game's arithmetic, without a page (unit-tested in tests/scripts/game.test.mjs).
// The build lists a round's states in the order of their controls' values: control c's
// value in the state at place i is digit c of i, base spec.values (kinds/game).

// The place value of each control: the last control is the lowest digit.
export function strides(controls, values) {
  var stride = [];
  for (var c = controls - 1, step = 1; c >= 0; c--, step *= values) stride[c] = step;
  return stride;
}

// How many controls a round has: one per head (a head reads one word), or one per head and
// candidate word (a head reads any of them).
export function controlCount(spec) {
  return spec.one ? spec.heads.length : spec.heads.length * spec.candidates.length;
}

export function valueAt(place, stride, values) {
  return Math.floor(place / stride) % values;
}

// The place reached from `place` when control `control` takes `value`.
export function placeWith(place, stride, values, control, value) {
  return place + (value - valueAt(place, stride[control], values)) * stride[control];
}

// The positions each head reads in the state at `place`.
export function chosenWords(spec, stride, place) {
  var n = spec.candidates.length;
  function value(control) { return valueAt(place, stride[control], spec.values); }
  return spec.heads.map(function (head, h) {
    if (spec.one) {
      var v = value(h);
      return v ? [spec.candidates[v - 1]] : [];
    }
    return spec.candidates.filter(function (p, j) { return value(h * n + j) === 1; });
  });
}

// Where each head looks, in words (text.py's looks_text); `texts` is the page's data.
export function looksText(texts, spec, chosen) {
  return chosen.map(function (words, h) {
    var head = spec.heads[h];
    if (!words.length) return texts.looks_blank.replace("{head}", head);
    var names = words.map(function (p) { return spec.names[p]; }), last = names.pop();
    var listed = names.length ? names.join(", ") + " " + texts.and + " " + last : last;
    return texts.looks.replace("{head}", head).replace("{words}", listed);
  }).join(" ");
}

// The sentence announced for a state (text.py's), with where the heads look.
export function saysText(texts, state, looks) {
  return texts.says.replace("{answer}", state.answer).replace("{confidence}", state.confidence) +
    texts.solved[state.stars] + (state.feedback ? " " + texts.feedback[state.feedback] : "") + " " + looks;
}

// The best stars of each of `rounds` rounds as storage kept them (`saved`, parsed), whole
// numbers from 0 to `most`; anything else (none saved, another game's) starts at 0.
export function savedBest(saved, rounds, most) {
  if (!Array.isArray(saved) || saved.length !== rounds) {
    var none = [];
    for (var i = 0; i < rounds; i++) none.push(0);
    return none;
  }
  return saved.map(function (n) {
    n = Math.floor(Number(n)) || 0;
    return Math.max(0, Math.min(n, most));
  });
}

// ★ for each star won, ☆ for each of the `total` still to win.
export function starMarks(stars, total) {
  var marks = "";
  for (var i = 1; i <= total; i++) marks += i <= stars ? "★" : "☆";
  return marks;
}

// The score as an LMS records it (scorm.js, docs/lms.md): the best stars of every round
// added up, out of the most there are (`most` a round), and how many rounds are solved.
export function score(best, most) {
  var raw = 0, solved = 0;
  best.forEach(function (n) { raw += n; if (n) solved++; });
  return { raw: raw, max: most * best.length, solved: solved, rounds: best.length };
}

/* ---- Deep links: #round-2&spotlight=01000000 (the key of the state shown) ---- */

function decode(text) {
  try { return decodeURIComponent(text); } catch (err) { return null; }
}

// {round (from 0), spotlight (a state's key)}, each null when the fragment has none.
export function parseGameFragment(hash) {
  var found = { round: null, spotlight: null };
  hash.replace(/^#/, "").split("&").forEach(function (item) {
    var match = /^round-(\d+)$/.exec(item);
    if (match) found.round = Number(match[1]) - 1;
    else if (item.indexOf("spotlight=") === 0) found.spotlight = decode(item.slice(10));
  });
  return found;
}

// The fragment of round `current` (from 0) showing state `key`; the first round, untouched,
// is the page as it opens: no fragment.
export function gameFragment(current, key, initial) {
  var untouched = key === initial;
  if (current === 0 && untouched) return "";
  return "round-" + (current + 1) + (untouched ? "" : "&spotlight=" + encodeURIComponent(key));
}
