// The game's arithmetic (themes/default/scripts/game/places.js): places, words, texts, stars
// and its address fragment, without a page.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  chosenWords, controlCount, gameFragment, looksText, parseGameFragment, placeWith, savedBest, saysText,
  score, starMarks, strides, valueAt,
} from "../../themes/default/scripts/game/places.js";

// Two heads over three candidate words (positions 4, 5, 7); a head reads any of them.
const MANY = { one: false, heads: ["A", "B"], candidates: [4, 5, 7], values: 2,
               names: { 4: "cat", 5: "sat", 7: "mat" } };
// Two heads, each reading one word or none: control values 0 (none) to 3.
const ONE = { one: true, heads: ["A", "B"], candidates: [4, 5, 7], values: 4, names: MANY.names };
const TEXTS = { looks: "{head} reads {words}.", looks_blank: "{head} stays on the blank.", and: "and",
                says: "It says {answer} ({confidence}).", solved: ["", " Solved!"], feedback: { near: "Close." } };

test("a control's value is its digit of the place, the last control the lowest", () => {
  assert.deepEqual(strides(3, 2), [4, 2, 1]);
  assert.deepEqual(strides(2, 4), [4, 1]);
  assert.equal(controlCount(MANY), 6);
  assert.equal(controlCount(ONE), 2);
  const stride = strides(2, 4);
  assert.equal(valueAt(9, stride[0], 4), 2);
  assert.equal(valueAt(9, stride[1], 4), 1);
});

test("pressing a word changes only its control's digit; pressing it again takes it out", () => {
  const stride = strides(2, 4);
  assert.equal(placeWith(9, stride, 4, 1, 3), 11);
  assert.equal(placeWith(11, stride, 4, 1, 0), 8);
  assert.equal(placeWith(8, stride, 4, 0, 0), 0);
});

test("the words each head reads follow from the place", () => {
  const many = strides(6, 2);
  // Head A reads cat and mat (controls 0 and 2), head B reads sat (control 4).
  const place = many[0] + many[2] + many[4];
  assert.deepEqual(chosenWords(MANY, many, place), [[4, 7], [5]]);
  assert.deepEqual(chosenWords(MANY, many, 0), [[], []]);
  assert.deepEqual(chosenWords(ONE, strides(2, 4), 3 * 4 + 0), [[7], []]);
});

test("where the heads look, and the sentence announced, read as text.py writes them", () => {
  const looks = looksText(TEXTS, MANY, [[4, 5, 7], []]);
  assert.equal(looks, "A reads cat, sat and mat. B stays on the blank.");
  assert.equal(looksText(TEXTS, MANY, [[5], [7]]), "A reads sat. B reads mat.");
  assert.equal(saysText(TEXTS, { answer: "mat", confidence: "61%", stars: 1, feedback: "near" }, "L."),
               "It says mat (61%). Solved! Close. L.");
  assert.equal(saysText(TEXTS, { answer: "a", confidence: "1%", stars: 0 }, "L."), "It says a (1%). L.");
});

test("saved stars are whole numbers within range, and a list of the wrong length is dropped", () => {
  assert.deepEqual(savedBest([2, "3", 9, -1, 1.7, "x"], 6, 3), [2, 3, 3, 0, 1, 0]);
  assert.deepEqual(savedBest([1, 2], 3, 3), [0, 0, 0]);
  assert.deepEqual(savedBest(null, 2, 3), [0, 0]);
  assert.deepEqual(savedBest({ length: 2 }, 2, 3), [0, 0]);
});

test("stars show as marks, and the score adds the rounds' best", () => {
  assert.equal(starMarks(2, 3), "★★☆");
  assert.equal(starMarks(0, 2), "☆☆");
  assert.deepEqual(score([3, 0, 1], 3), { raw: 4, max: 9, solved: 2, rounds: 3 });
});

test("the fragment names the round and the state, and the page as it opens has none", () => {
  assert.equal(gameFragment(0, "00", "00"), "");
  assert.equal(gameFragment(1, "00", "00"), "round-2");
  assert.equal(gameFragment(0, "1.2", "00"), "round-1&spotlight=1.2");
  assert.deepEqual(parseGameFragment("#round-4&spotlight=1.2.0"), { round: 3, spotlight: "1.2.0" });
  assert.deepEqual(parseGameFragment("#spotlight=%E0%A4&x"), { round: null, spotlight: null });
  assert.deepEqual(parseGameFragment(""), { round: null, spotlight: null });
  const key = "a&b c";
  assert.equal(parseGameFragment("#" + gameFragment(2, key, "0")).spotlight, key);
});
