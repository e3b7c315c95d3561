// Checking and keeping answers (themes/default/scripts/questions/answers.js), without a page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isRight, record, takeSaved, tally, validResponse } from "../../themes/default/scripts/questions/answers.js";

const CHOICE = { id: "q1", v: "a", kind: "choice", correct: [0, 2] };
const NUMBER = { id: "q2", v: "b", kind: "number", answer: 0.25, tolerance: 0.01 };
const CHART = { id: "q3", v: "c", kind: "chart", keys: ["1.0", "1.1"], example: [["head", "2"]] };

test("a choice is right with exactly the right options, a number within its tolerance, a chart at a goal", () => {
  assert.ok(isRight(CHOICE, [0, 2]));
  assert.ok(!isRight(CHOICE, [0]));
  assert.ok(!isRight(CHOICE, [0, 1, 2]));
  assert.ok(isRight(NUMBER, 0.26));
  assert.ok(isRight(NUMBER, 0.24));
  assert.ok(!isRight(NUMBER, 0.2601));
  // The tolerance's edge holds against rounding in the number the reader typed.
  assert.ok(isRight({ kind: "number", answer: 0.3, tolerance: 0.1 }, 0.1 + 0.1));
  assert.ok(isRight(CHART, "1.1"));
  assert.ok(!isRight(CHART, "0.0"));
});

test("kept responses are taken only where they fit the question as it is now", () => {
  assert.ok(validResponse(CHOICE, [1], 3));
  assert.ok(!validResponse(CHOICE, [3], 3));
  assert.ok(!validResponse(CHOICE, [], 3));
  assert.ok(!validResponse(CHOICE, [0.5], 3));
  assert.ok(!validResponse(NUMBER, "0.25", 1));
  assert.ok(!validResponse(NUMBER, Infinity, 1));
  assert.ok(validResponse(CHART, "x", 0));
  const questions = [{ spec: CHOICE, options: 3 }, { spec: NUMBER, options: 1 }, { spec: CHART, options: 0 }];
  const saved = { q1: { v: "a", r: [0, 2], extra: 1 }, q2: { v: "old", r: 0.25 }, q3: { v: "c", r: "1.0", p: [] } };
  assert.deepEqual(takeSaved(questions, saved), { q1: { v: "a", r: [0, 2], p: undefined },
                                                  q3: { v: "c", r: "1.0", p: [] } });
  assert.deepEqual(takeSaved(questions, null), {});
});

test("the tally counts the answered and the right", () => {
  const answers = { q1: { r: [0] }, q2: { r: 0.25 } };
  assert.deepEqual(tally([CHOICE, NUMBER, CHART], answers), { right: 1, answered: 2, total: 3 });
  assert.deepEqual(tally([], {}), { right: 0, answered: 0, total: 0 });
});

test("a record says what an LMS is told of each kind of question", () => {
  assert.deepEqual(record(CHOICE, { r: [2] }, "Which?", ["x", "y", "z"]), {
    id: "q1", kind: "choice", text: "Which?", answered: true, right: false,
    chosen: [2], correct: [0, 2], ids: ["x", "y", "z"],
  });
  assert.deepEqual(record(NUMBER, undefined, "How much?", []), {
    id: "q2", kind: "number", text: "How much?", answered: false, right: false,
    value: null, answer: 0.25, tolerance: 0.01,
  });
  assert.deepEqual(record(CHART, { r: "1.0", p: [["head", "1"]] }, "Show it", []), {
    id: "q3", kind: "chart", text: "Show it", answered: true, right: true,
    choice: [["head", "1"]], example: [["head", "2"]],
  });
});
