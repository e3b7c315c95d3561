// The SCORM bridge's names and formats (themes/default/scripts/scorm/values.js) and its
// search for the LMS's API (scorm/lms.js), without a page or an LMS.
import { test } from "node:test";
import assert from "node:assert/strict";
import { findAPI } from "../../themes/default/scripts/scorm/lms.js";
import {
  decimal, fitted, fourPlaces, interaction, names, sessionTime, timestamp,
} from "../../themes/default/scripts/scorm/values.js";

test("each version has its own method and element names, and location limit", () => {
  assert.equal(names(true).call.start, "Initialize");
  assert.equal(names(false).call.start, "LMSInitialize");
  assert.equal(names(true).cmi.location, "cmi.location");
  assert.equal(names(false).cmi.raw, "cmi.core.score.raw");
  assert.equal(names(true).locationLimit, 1000);
  assert.equal(names(false).locationLimit, 255);
});

test("a location keeps whole items of the fragment, as many as fit", () => {
  assert.equal(fitted("step-2&s1=a:b&s2=c:d", 13), "step-2&s1=a:b");
  assert.equal(fitted("step-2&s1=a:b&s2=c:d", 100), "step-2&s1=a:b&s2=c:d");
  assert.equal(fitted("&&x", 5), "x");
  assert.equal(fitted("toolong", 3), "");
});

test("numbers are written without exponents, shares to four places", () => {
  assert.equal(fourPlaces(2 / 3), "0.6667");
  assert.equal(fourPlaces(1), "1");
  assert.equal(decimal(0.1 + 0.2), "0.3");
  assert.equal(decimal(1e-7), "0.0000001");
  assert.equal(decimal(-2.5), "-2.5");
  assert.equal(decimal(1e21), "1000000000000000000000");
  assert.equal(decimal(-2.5e22), "-25000000000000000000000");
  assert.doesNotMatch(decimal(1.7976931348623157e308), /e/i);
});

const CHOICE = { id: "q1", kind: "choice", text: "Which?", right: false, chosen: [1], correct: [0, 2],
                 ids: ["one", "two", "three"] };
const NUMBER = { id: "q2", kind: "number", text: "How much?", right: true, value: 0.26, answer: 0.25,
                 tolerance: 0.01 };
const CHART = { id: "q3", kind: "chart", text: "x".repeat(300), right: true, choice: [["head", "2"], ["q", "cat"]],
                example: [["head", "1"]] };

test("a choice's interaction names options by id (2004) or by letter (1.2)", () => {
  assert.deepEqual(interaction(CHOICE, true), [
    ["type", "choice"], ["learner_response", "two"], ["result", "incorrect"],
    ["correct_responses.0.pattern", "one[,]three"], ["weighting", "1"], ["description", "Which?"]]);
  assert.deepEqual(interaction(CHOICE, false), [
    ["type", "choice"], ["student_response", "b"], ["result", "wrong"],
    ["correct_responses.0.pattern", "a,c"], ["weighting", "1"]]);
});

test("a number's interaction gives the range (2004) or the answer (1.2); a chart's, its choices", () => {
  assert.deepEqual(interaction(NUMBER, true).slice(1, 4), [
    ["learner_response", "0.26"], ["result", "correct"], ["correct_responses.0.pattern", "0.24[:]0.26"]]);
  assert.deepEqual(interaction(NUMBER, false)[3], ["correct_responses.0.pattern", "0.25"]);
  const chart = interaction(CHART, true);
  assert.deepEqual(chart.slice(0, 2), [["type", "performance"], ["learner_response", "head[.]2[,]q[.]cat"]]);
  assert.equal(chart[5][1].length, 250);
  assert.deepEqual(interaction(CHART, false)[1], ["student_response", "head:2,q:cat"]);
});

test("times are written in each version's format", () => {
  const now = new Date(2026, 0, 5, 9, 4, 3);
  assert.equal(timestamp(now, true), "2026-01-05T09:04:03");
  assert.equal(timestamp(now, false), "09:04:03");
  assert.equal(sessionTime(75.256, true), "PT75.26S");
  assert.equal(sessionTime(3725.5, false), "01:02:05.50");
  assert.equal(sessionTime(4.25, false), "00:00:04.25");
});

test("the API is found in a parent or in the opener's, within the limit, never across origins", () => {
  const api = { LMSInitialize() {} };
  const top = { API: api };
  top.parent = top;
  const middle = { parent: top };
  const page = { parent: middle };
  assert.equal(findAPI(page, "API", 7), api);
  assert.equal(findAPI(page, "API", 1), null);
  assert.equal(findAPI(page, "API_1484_11", 500), null);
  const opener = { API: api };
  opener.parent = opener;
  const alone = { opener: opener };
  alone.parent = alone;
  alone.top = alone;
  assert.equal(findAPI(alone, "API", 7), api);
  const foreign = {};
  Object.defineProperty(foreign, "API", { get() { throw new Error("SecurityError"); } });
  foreign.parent = foreign;
  assert.equal(findAPI({ parent: foreign }, "API", 7), null);
});
