/* The bridge to an LMS, loaded only by the pages of a SCORM package (`lensa dist
   --scorm`, docs/lms.md), never by the site's own pages. Its <script> names the
   package's SCORM version (data-scorm="1.2" or "2004").

   - It looks for the LMS's API as the SCORM run-time environment says: `API`
     (1.2) or `API_1484_11` (2004) in this window and its parents, then in the
     opener's, within the bounds of the specification's own algorithms (7 parents
     for 1.2, 500 for 2004). With none, it stops there: the page works as it does
     on the site, and nothing is logged.
   - It reports the reader's place, the deep link of the state shown
     (docs/deep-links.md), with the step in view as its target, as the location,
     and on the next launch puts a stored location into the address before the
     page's scripts read it, so the reader resumes there.
   - An explainer is completed once every step has been seen: on screen (half of
     it, or half the screen) for a second, or chosen in. A game reports its stars
     as the score (lensa.game.score()), and is completed, and passed,
     once every round is solved, or passed when the LMS's passing score is met.
     Nothing reported is ever lowered: a later session on another device starts
     from what the LMS holds.
   - An explainer with questions (Check your understanding, questions.js) is
     completed once every step is seen and every question answered. Its score is
     the share of questions answered right, as a percentage (raw 0 to 100, min 0,
     max 100; 2004 also scaled), the best of the learner's attempts; it is passed
     once that share reaches the mastery score (the LMS's, else site.toml's), and
     failed when every question is answered below it. Each question is one
     interaction record (id, type, response, result, correct response), and the
     answers go into the suspend data, so a resumed session shows them again.
   - It commits on progress (and a moment after the place changes), and
     terminates when the page is hidden for good (pagehide).

   It reads the pages only through what their runtimes expose: the
   "explainer:state" events, lensa.share.fragment() (share.js),
   lensa.game (game.js), and lensa.quiz with its "lensa:quiz"
   events (questions.js). Bundled into static/scorm.js by ../bundle.cjs; the data
   model's names and formats are values.js, finding the LMS lms.js. */
import { scrollAtOnce } from "../core/frame.js";
import { findAPI } from "./lms.js";
import { fitted, fourPlaces, interaction, names, sessionTime, timestamp } from "./values.js";
import { lensa } from "../core/lensa.js";

var script = document.currentScript;
start(script && script.getAttribute("data-scorm") === "2004");

function start(v2004) {
  var api = findAPI(window, v2004 ? "API_1484_11" : "API", v2004 ? 500 : 7);
  if (!api) return;

  var model = names(v2004), call = model.call, cmi = model.cmi;
  var DWELL = 1000;                          // ms a step is on screen before it counts as seen
  var COMMIT_DELAY = 2000;                   // ms after the last change of place, before it is committed

  if (!ok(invoke(call.start))) return;
  var started = Date.now();
  var begun = false;     // the page's scripts have run, and the bridge knows its steps
  var finished = false;
  var written = {};  // element -> the value last set, so that only changes are set and committed

  /* ---- Talking to it: failures are the LMS's to report, never the page's ---- */

  function invoke(method) {
    var args = Array.prototype.slice.call(arguments, 1);
    try { return api[method].apply(api, args.length ? args : [""]); } catch (err) { return ""; }
  }
  function ok(result) { return result === true || result === "true"; }
  function get(element) { var value = invoke(call.get, element); return value == null ? "" : String(value); }
  function set(element, value) {
    value = String(value);
    if (written[element] === value) return false;
    written[element] = value;
    invoke(call.set, element, value);
    return true;
  }

  /* ---- The reader's place ---- */

  // The address of the state shown; an explainer's target becomes the step in view.
  function address() {
    var share = lensa.share, game = lensa.game;
    var fragment = game ? game.fragment() : share ? share.fragment() : location.hash.replace(/^#/, "");
    if (game || !steps.length) return fragment;
    var items = fragment.split("&").filter(function (item) { return item.indexOf("=") >= 0; });
    var current = stepWorkedIn();
    return (current ? [encodeURIComponent(current.id)] : []).concat(items).join("&");
  }

  // A launch without an address of its own resumes at the stored one: put there now,
  // before share.js or game.js read the address, it opens like any deep link.
  var stored = get(cmi.location);
  var resumeTarget = null;
  if (stored && !location.hash) {
    try {
      history.replaceState(history.state, "", location.href.split("#")[0] + "#" + stored);
      resumeTarget = stored.split("&").filter(function (item) { return item && item.indexOf("=") < 0; })[0] || null;
    } catch (refused) { /* some frames refuse address changes; the page opens at its start */ }
  }

  /* ---- Progress ---- */

  var steps = [];
  var seen = {};
  var suspended = {};
  try {
    suspended = JSON.parse(get(cmi.suspend) || "{}") || {};
    (suspended.seen || []).forEach(function (n) { seen[n] = true; });
  } catch (garbage) { suspended = {}; /* another package's data: start afresh */ }

  function stepNumber(section) {
    var match = /^step-(\d+)$/.exec(section.id);
    return match ? Number(match[1]) : null;
  }

  // The step the reader is in: the one they last made a choice in while it is on screen,
  // else the last one whose top is above the upper third of the screen.
  var chosenIn = null;
  function stepWorkedIn() {
    if (chosenIn) {
      var box = chosenIn.getBoundingClientRect();
      if (box.bottom > 0 && box.top < window.innerHeight) return chosenIn;
      chosenIn = null;
    }
    return stepInView();
  }

  function stepInView() {
    var line = window.innerHeight / 3, current = null;
    steps.forEach(function (section) {
      if (section.getBoundingClientRect().top <= line) current = section;
    });
    return current;
  }

  function markSeen(section) {
    var n = stepNumber(section);
    if (n === null || seen[n]) return;
    seen[n] = true;
    report();
  }

  function watchSteps() {
    if (!window.IntersectionObserver) return;  // choices still count
    var thresholds = [];
    for (var i = 0; i <= 20; i++) thresholds.push(i / 20);
    var timers = {};
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var section = entry.target, n = stepNumber(section);
        var screen = entry.rootBounds ? entry.rootBounds.height : window.innerHeight;
        var enough = entry.isIntersecting &&
          entry.intersectionRect.height >= 0.5 * Math.min(entry.boundingClientRect.height, screen);
        if (enough && !timers[n] && !seen[n]) {
          timers[n] = setTimeout(function () { markSeen(section); }, DWELL);
        } else if (!enough && timers[n]) {
          clearTimeout(timers[n]);
          timers[n] = null;
        }
      });
    }, { threshold: thresholds });
    steps.forEach(function (section) { observer.observe(section); });
  }

  var storedProgress = parseFloat(v2004 ? get("cmi.progress_measure") : "") || 0;
  var storedStatus = get(v2004 ? "cmi.completion_status" : "cmi.core.lesson_status");
  var storedRaw = parseFloat(get(cmi.raw));
  var passing = parseFloat(get(v2004 ? "cmi.scaled_passing_score" : "cmi.student_data.mastery_score"));

  // Opened is attempted, even by a learner who leaves before the page has loaded.
  if (v2004 ? storedStatus !== "completed" : ["completed", "passed", "failed"].indexOf(storedStatus) < 0) {
    set(v2004 ? "cmi.completion_status" : "cmi.core.lesson_status", "incomplete");
  }

  // Everything the LMS is told, set where it changed; a change of progress is committed at once.
  function report() {
    if (finished || !begun) return;
    var game = lensa.game, score = game && game.score ? game.score() : null;
    var done, total, progressed = false;
    if (score) {
      done = score.solved;
      total = score.rounds;
    } else {
      total = steps.length;
      done = steps.filter(function (section) { return seen[stepNumber(section)]; }).length;
      var kept = { seen: Object.keys(seen).map(Number).sort(function (a, b) { return a - b; }) };
      var asked = quiz ? quiz.score() : null;
      if (asked && asked.total) {
        total += asked.total;
        done += asked.answered;
        kept.quiz = quiz.saved();
        progressed = reportInteractions() || progressed;
        kept.order = order;
      }
      progressed = set(cmi.suspend, JSON.stringify(kept)) || progressed;
    }
    var previously = v2004 ? storedStatus === "completed" : storedStatus === "completed" || storedStatus === "passed";
    var complete = previously || done >= total;
    if (score && score.max > 0) {
      var raw = isFinite(storedRaw) ? Math.max(storedRaw, score.raw) : score.raw;
      progressed = set(cmi.min, 0) || progressed;
      progressed = set(cmi.max, score.max) || progressed;
      progressed = set(cmi.raw, raw) || progressed;
      var scaled = raw / score.max;
      var passed = isFinite(passing) ? (v2004 ? scaled >= passing : raw >= passing) : complete;
      if (v2004) {
        progressed = set("cmi.score.scaled", fourPlaces(scaled)) || progressed;
        var success = passed ? "passed" : isFinite(passing) ? "failed" : "unknown";
        progressed = set("cmi.success_status", success) || progressed;
      } else {
        var status = passed || storedStatus === "passed" ? "passed"
          : complete && isFinite(passing) ? "failed" : "incomplete";
        progressed = set("cmi.core.lesson_status", status) || progressed;
      }
    } else if (asked && asked.total) {
      progressed = reportQuizScore(asked, complete) || progressed;
    } else if (!v2004) {
      var lesson = complete ? (storedStatus === "passed" ? "passed" : "completed") : "incomplete";
      progressed = set("cmi.core.lesson_status", lesson) || progressed;
    }
    if (v2004) {
      progressed = set("cmi.completion_status", complete ? "completed" : "incomplete") || progressed;
      var measure = total ? Math.max(storedProgress, done / total) : 1;
      progressed = set("cmi.progress_measure", fourPlaces(complete ? 1 : measure)) || progressed;
    }
    var moved = set(cmi.location, fitted(address(), model.locationLimit));
    if (progressed) commit();
    else if (moved) commitSoon();
  }

  /* ---- Questions (questions.js): the score, success, and one interaction per question ---- */

  var quiz = null;
  var order = [];     // question ids in the order their interactions were first written (their index)
  var sent = {};      // question id -> what its interaction last said, so an unchanged one is not sent again
  var storedSuccess = v2004 ? get("cmi.success_status") : "";

  // The best share of right answers, in percent; passed at the mastery score, failed once
  // every question is answered below it; never lowered from what the LMS holds.
  function reportQuizScore(asked, complete) {
    var progressed = false;
    var raw = Math.round(100 * asked.right / asked.total);
    if (isFinite(storedRaw)) raw = Math.max(storedRaw, raw);
    progressed = set(cmi.min, 0) || progressed;
    progressed = set(cmi.max, 100) || progressed;
    progressed = set(cmi.raw, raw) || progressed;
    var mastery = isFinite(passing) ? (v2004 ? passing : passing / 100) : quiz.mastery;
    var passed = raw / 100 >= mastery - 1e-9;
    var failed = !passed && asked.answered === asked.total;
    if (v2004) {
      progressed = set("cmi.score.scaled", fourPlaces(raw / 100)) || progressed;
      var success = passed || storedSuccess === "passed" ? "passed" : failed ? "failed" : "unknown";
      progressed = set("cmi.success_status", success) || progressed;
    } else {
      var status = passed || storedStatus === "passed" ? "passed" : failed ? "failed"
        : complete ? "completed" : "incomplete";
      progressed = set("cmi.core.lesson_status", status) || progressed;
    }
    return progressed;
  }

  // An interaction for each answered question whose answer is new: at the index its
  // question first took, so each question keeps one record, updated by a new attempt.
  function reportInteractions() {
    var progressed = false;
    quiz.records().forEach(function (record) {
      if (!record.answered) return;
      var fields = interaction(record, v2004);
      var signature = JSON.stringify(fields);
      if (sent[record.id] === signature) return;
      sent[record.id] = signature;
      var index = order.indexOf(record.id);
      if (index < 0) index = order.push(record.id) - 1;
      var prefix = "cmi.interactions." + index + ".";
      // The id first and the type before the responses: the data model checks them against it.
      set(prefix + "id", record.id);
      fields.forEach(function (pair) { set(prefix + pair[0], pair[1]); });
      set(prefix + (v2004 ? "timestamp" : "time"), timestamp(new Date(), v2004));
      progressed = true;
    });
    return progressed;
  }

  var pending = null;
  function commitSoon() {
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(commit, COMMIT_DELAY);
  }
  function commit() {
    if (pending !== null) clearTimeout(pending);
    pending = null;
    if (!finished) invoke(call.commit);
  }

  function finish() {
    if (finished) return;
    report();
    set(cmi.time, sessionTime((Date.now() - started) / 1000, v2004));
    // "suspend": the LMS keeps the place and what was seen for the next launch.
    set(cmi.exit, "suspend");
    commit();
    finished = true;
    invoke(call.end);
  }

  /* ---- Start: once the page's scripts have run ---- */

  function begin() {
    // A page with questions runs them when they near the screen: here at once, and the
    // bridge starts once they answer, so that progress counts them from the start.
    var asking = lensa.quiz;
    if (asking && !asking.ready) {
      document.addEventListener("lensa:quiz", function ready() {
        document.removeEventListener("lensa:quiz", ready);
        begin();
      });
      return asking.load();
    }
    steps = Array.prototype.slice.call(document.querySelectorAll("section[data-step]")).filter(function (section) {
      return stepNumber(section) !== null;
    });
    if (resumeTarget && !lensa.game) {
      // In a frame share.js does not scroll (it would move a host page); here the frame is the LMS's.
      var target = null;
      try { target = document.getElementById(decodeURIComponent(resumeTarget)); } catch (malformed) { /* no target */ }
      var top = target ? target.getBoundingClientRect().top + window.pageYOffset : null;
      // At once, as an opened link lands (the theme makes in-page scrolling smooth).
      if (top !== null) {
        scrollAtOnce(top);
      }
    }
    watchSteps();
    quiz = lensa.quiz || null;
    if (quiz) {
      // The LMS's answers are the learner's, on any device: shown in place of this browser's.
      quiz.restore(suspended.quiz || {});
      order = (suspended.order || []).filter(function (id) { return typeof id === "string"; });
      quiz.records().forEach(function (record) {
        if (record.answered && order.indexOf(record.id) >= 0) {
          sent[record.id] = JSON.stringify(interaction(record, v2004));
        }
      });
      document.addEventListener("lensa:quiz", report);
    }
    document.addEventListener("explainer:state", function (event) {
      var section = event.target.closest ? event.target.closest("section[data-step]") : null;
      if (section && steps.indexOf(section) >= 0) {
        chosenIn = section;
        seen[stepNumber(section)] = true;
      }
      report();
    });
    window.addEventListener("hashchange", report);
    var scrolled = null;
    window.addEventListener("scroll", function () {
      if (scrolled === null) scrolled = setTimeout(function () { scrolled = null; report(); }, 500);
    }, { passive: true });
    begun = true;
    report();
  }

  // From the start: a learner may leave before the page has finished loading.
  window.addEventListener("pagehide", finish);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { report(); commit(); }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
  else begin();
}
