/* Check your understanding (templates/_quiz.html): each question's answer is
   checked against the page data the build computed from the model ("quiz-data":
   the right options, the number and its tolerance, or the keys of the states that
   reach a goal), never computed here. The feedback goes into the question's live
   region with the link to the state that shows why; the answers and the score are
   kept in storage (as the game keeps its stars) and survive a reload; Try again
   clears them for a new attempt. Bundled into static/questions.js by ../bundle.cjs; the
   checking itself is answers.js.

   It reads the explainer only through lensa.runtime (runtime.js): each
   step's section (id "step-N"), its state key, and its controls' names, index()
   and the names of their values, to check a question about the chart.

   It is run by the page (templates/_quiz.html) once the questions come near the
   screen: the page makes lensa.quiz with `ready` false and `load()`, which
   runs this script; this script then completes that one object, the only thing it
   offers other scripts (scorm.js, docs/lms.md), with one event:
   - lensa.quiz.ready: true once the questions answer;
   - lensa.quiz.score(): {right, answered, total} for the questions on this page;
   - lensa.quiz.records(): per question, {id, kind, text (its legend), answered,
     right, and by kind: choice {chosen, correct, ids}, number {value, answer,
     tolerance}, chart {choice, example} (each [[control name, value], ...])};
   - lensa.quiz.mastery: the share of right answers that passes (site.toml);
   - lensa.quiz.saved() and lensa.quiz.restore(saved): the answers as kept, to store
     elsewhere (an LMS's suspend data) and to show again in place of these;
   - "lensa:quiz" on document once the questions answer, and after each answer,
     Try again and restore. */
import { framed, scrollAtOnce } from "../core/frame.js";
import { isRight, record, takeSaved, tally } from "./answers.js";
import { lensa } from "../core/lensa.js";

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

function start() {
  var source = document.getElementById("quiz-data");
  var section = document.getElementById("quiz");
  if (!source || !section) return;
  var data = JSON.parse(source.textContent);
  var labels = data.labels;
  var slice = Array.prototype.slice;
  var answers = {};  // question id -> {v: its version, r: the response, p: a chart's [[name, value]...]}

  function Question(fieldset) {
    var self = this;
    this.fieldset = fieldset;
    this.spec = data.questions[Number(fieldset.getAttribute("data-question"))];
    this.inputs = slice.call(fieldset.querySelectorAll("input"));
    // A choice's options are named by their inputs' values (for an LMS's records).
    this.ids = this.inputs.map(function (input) { return input.value; });
    this.button = fieldset.querySelector("[data-quiz-check]");
    this.feedback = fieldset.querySelector("[data-quiz-feedback]");
    this.right = fieldset.querySelector("[data-quiz-right]");
    this.wrong = fieldset.querySelector("template[data-quiz-wrong]");
    this.explain = fieldset.querySelector("[data-quiz-explain]");
    this.text = fieldset.querySelector("legend .question-text");
    // The disclosure holds the answer for readers without scripts; here Check does.
    fieldset.querySelector("[data-quiz-answer]").hidden = true;
    this.button.addEventListener("click", function () { self.check(); });
    this.inputs.forEach(function (input) {
      if (input.type !== "number") return;
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") { event.preventDefault(); self.check(); }
      });
    });
  }

  // The reader's answer as it stands: a response to keep, or a message saying what is missing.
  Question.prototype.read = function () {
    var spec = this.spec;
    if (spec.kind === "choice") {
      var chosen = [];
      this.inputs.forEach(function (input, i) { if (input.checked) chosen.push(i); });
      return chosen.length ? { r: chosen } : { message: labels.choose };
    }
    if (spec.kind === "number") {
      var value = this.inputs[0].valueAsNumber;
      return isFinite(value) ? { r: value } : { message: labels.number };
    }
    var step = stepOf(spec.step);
    if (!step) return { message: "" };
    return { r: step.key, p: step.controls.map(function (control) {
      return [control.name, control.names[control.index()]];
    }) };
  };

  Question.prototype.check = function () {
    if (answers[this.spec.id]) return;  // answered in this attempt: Try again starts another
    var found = this.read();
    if (found.message !== undefined) {
      this.feedback.textContent = found.message;
      return;
    }
    answers[this.spec.id] = { v: this.spec.v, r: found.r, p: found.p };
    keep();
    this.show();
    update();
  };

  // The question as its kept answer leaves it: open to an answer, or answered with its feedback.
  // `clear` empties an open question (Try again); else what the reader chose before this
  // script ran stays.
  Question.prototype.show = function (clear) {
    var answer = answers[this.spec.id], spec = this.spec;
    this.inputs.forEach(function (input, i) {
      input.disabled = !!answer;
      if (!answer && !clear) return;
      if (input.type === "number") input.value = answer ? String(answer.r) : "";
      else input.checked = !!answer && answer.r.indexOf(i) >= 0;
    });
    if (answer) this.button.setAttribute("aria-disabled", "true");
    else this.button.removeAttribute("aria-disabled");
    if (!answer) {
      this.fieldset.removeAttribute("data-result");
      this.feedback.replaceChildren();
      return;
    }
    var right = isRight(spec, answer.r);
    this.fieldset.setAttribute("data-result", right ? "right" : "wrong");
    var verdict = document.createElement("p"), strong = document.createElement("strong");
    strong.textContent = right ? labels.right : labels.wrong;
    verdict.appendChild(strong);
    var body = document.createDocumentFragment();
    slice.call(right ? this.right.childNodes : this.wrong.content.childNodes).forEach(function (node) {
      body.appendChild(node.cloneNode(true));
    });
    var link = this.explain.parentNode.cloneNode(true);
    link.querySelector("a").removeAttribute("data-quiz-explain");
    this.feedback.replaceChildren(verdict, body, link);
  };

  Question.prototype.record = function () {
    return record(this.spec, answers[this.spec.id], this.text.textContent.replace(/\s+/g, " ").trim(), this.ids);
  };

  function stepOf(number) {
    var runtime = lensa.runtime;
    var steps = runtime ? runtime.steps : [];
    for (var i = 0; i < steps.length; i++) {
      if (steps[i].section.id === "step-" + number) return steps[i];
    }
    return null;
  }

  var questions = slice.call(section.querySelectorAll("fieldset[data-question]")).map(function (fieldset) {
    return new Question(fieldset);
  });
  var scoreLine = section.querySelector("[data-quiz-score]");
  var retry = section.querySelector("[data-quiz-retry]");

  /* ---- Kept answers: storage may be blocked (file:// in some browsers, sandboxed
     frames); the answers then last as long as the page. The page and its embeds
     share the entry, each writing only its own questions. ---- */

  function stored() {
    try {
      var found = JSON.parse(window.localStorage.getItem(data.storage) || "{}");
      return found && typeof found === "object" && !Array.isArray(found) ? found : {};
    } catch (blocked) { return {}; }
  }

  function keep() {
    var all = stored();
    questions.forEach(function (question) {
      var id = question.spec.id;
      if (answers[id]) all[id] = answers[id];
      else delete all[id];
    });
    try { window.localStorage.setItem(data.storage, JSON.stringify(all)); } catch (blocked) { /* as above */ }
  }

  // The answers of `saved` that still fit their questions (a changed question drops its answer).
  function take(saved) {
    answers = takeSaved(questions.map(function (question) {
      return { spec: question.spec, options: question.inputs.length };
    }), saved);
  }

  function score() {
    return tally(questions.map(function (question) { return question.spec; }), answers);
  }

  function update() {
    var now = score();
    scoreLine.hidden = retry.parentNode.hidden = now.answered === 0;
    scoreLine.textContent = labels.score.replace("{right}", String(now.right)).replace("{total}", String(now.total));
    document.dispatchEvent(new CustomEvent("lensa:quiz", { detail: now }));
  }

  function showAll(clear) {
    questions.forEach(function (question) { question.show(clear); });
    update();
  }

  retry.addEventListener("click", function () {
    answers = {};
    keep();
    showAll(true);
    var first = questions[0] && questions[0].fieldset.querySelector("input, a[href], button");
    if (first) first.focus();
  });

  /* ---- The links to a step: share.js applies a deep link and scrolls to its step,
     except in a frame (where scrolling would move the host page). In a frame that
     scrolls (an LMS's), the frame's own window is scrolled; and a link to the address
     already shown, which changes nothing, scrolls as well. ---- */

  function scrollToStep(hash) {
    var match = /^#(step-\d+)/.exec(hash), element = match && document.getElementById(match[1]);
    if (!element) return;
    scrollAtOnce(element.getBoundingClientRect().top + window.pageYOffset);
  }
  var pending = null;
  section.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#step-"]');
    if (!link) return;
    if (link.hash === location.hash) scrollToStep(link.hash);
    else if (framed()) pending = link.hash;
  });
  window.addEventListener("hashchange", function () {
    if (pending !== null) setTimeout(function () { scrollToStep(pending); pending = null; }, 0);
  });

  var api = lensa.quiz = lensa.quiz || {};
  api.mastery = data.mastery;
  api.score = score;
  api.records = function () { return questions.map(function (question) { return question.record(); }); };
  api.saved = function () { return JSON.parse(JSON.stringify(answers)); };
  api.restore = function (saved) {
    take(saved);
    keep();
    showAll(true);
  };
  api.load = api.load || function () {};
  api.ready = true;
  take(stored());
  questions.forEach(function (question) { question.button.parentNode.hidden = false; });
  showAll(false);
}
