// Checking and keeping the answers to Check your understanding, without a page (unit-tested
// in tests/scripts/questions.test.mjs). A question's spec is the build's ("quiz-data":
// kind, id, v its version, and by kind correct, answer and tolerance, or keys); a response
// is a choice's indices, a number, or the key of a chart's state.

// Whether a kept response is right, by the build's own answer.
export function isRight(spec, response) {
  if (spec.kind === "choice") {
    return response.length === spec.correct.length &&
      response.every(function (index, i) { return index === spec.correct[i]; });
  }
  if (spec.kind === "number") {
    return Math.abs(response - spec.answer) <= spec.tolerance + 1e-9 * Math.max(1, Math.abs(spec.answer));
  }
  return spec.keys.indexOf(response) >= 0;
}

// Whether a response kept in storage (or an LMS's) can be one to this question, which
// has `options` inputs.
export function validResponse(spec, response, options) {
  if (spec.kind === "choice") {
    return Array.isArray(response) && response.length > 0 && response.every(function (i) {
      return i === Math.floor(i) && i >= 0 && i < options;
    });
  }
  if (spec.kind === "number") return typeof response === "number" && isFinite(response);
  return typeof response === "string";
}

// The answers of `saved` that still fit their questions (a changed question drops its
// answer). `questions`: each {spec, options}.
export function takeSaved(questions, saved) {
  var answers = {};
  questions.forEach(function (question) {
    var spec = question.spec, answer = saved && saved[spec.id];
    if (!answer || answer.v !== spec.v || !validResponse(spec, answer.r, question.options)) return;
    answers[spec.id] = { v: answer.v, r: answer.r, p: answer.p };
  });
  return answers;
}

// {right, answered, total} of `specs` with `answers` (question id -> {r}).
export function tally(specs, answers) {
  var right = 0, answered = 0;
  specs.forEach(function (spec) {
    var answer = answers[spec.id];
    if (!answer) return;
    answered++;
    if (isRight(spec, answer.r)) right++;
  });
  return { right: right, answered: answered, total: specs.length };
}

// A question's record for an LMS (scorm.js): {id, kind, text, answered, right}, and by
// kind choice {chosen, correct, ids}, number {value, answer, tolerance}, chart {choice, example}.
export function record(spec, answer, text, ids) {
  var out = { id: spec.id, kind: spec.kind, text: text, answered: !!answer,
              right: !!answer && isRight(spec, answer.r) };
  if (spec.kind === "choice") {
    out.chosen = answer ? answer.r.slice() : [];
    out.correct = spec.correct.slice();
    out.ids = ids.slice();
  } else if (spec.kind === "number") {
    out.value = answer ? answer.r : null;
    out.answer = spec.answer;
    out.tolerance = spec.tolerance;
  } else {
    out.choice = answer ? answer.p : [];
    out.example = spec.example;
  }
  return out;
}
