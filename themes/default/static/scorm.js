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
     as the score (window.gameRuntime.score()), and is completed, and passed,
     once every round is solved, or passed when the LMS's passing score is met.
     Nothing reported is ever lowered: a later session on another device starts
     from what the LMS holds.
   - It commits on progress (and a moment after the place changes), and
     terminates when the page is hidden for good (pagehide).

   It reads the pages only through what their runtimes expose: the
   "explainer:state" events, window.explainerShare.fragment() (share.js) and
   window.gameRuntime (game.js). Classic script (pages run from file://). */
(function () {
  "use strict";

  var script = document.currentScript;
  var v2004 = (script && script.getAttribute("data-scorm")) === "2004";
  var api = findAPI(v2004 ? "API_1484_11" : "API", v2004 ? 500 : 7);
  if (!api) return;

  var call = v2004
    ? { start: "Initialize", get: "GetValue", set: "SetValue", commit: "Commit", end: "Terminate" }
    : { start: "LMSInitialize", get: "LMSGetValue", set: "LMSSetValue", commit: "LMSCommit", end: "LMSFinish" };
  var cmi = v2004
    ? { location: "cmi.location", suspend: "cmi.suspend_data", exit: "cmi.exit", time: "cmi.session_time",
        raw: "cmi.score.raw", min: "cmi.score.min", max: "cmi.score.max" }
    : { location: "cmi.core.lesson_location", suspend: "cmi.suspend_data", exit: "cmi.core.exit",
        time: "cmi.core.session_time", raw: "cmi.core.score.raw", min: "cmi.core.score.min",
        max: "cmi.core.score.max" };
  var LOCATION_LIMIT = v2004 ? 1000 : 255;   // characters, as the data models allow
  var DWELL = 1000;                          // ms a step is on screen before it counts as seen
  var COMMIT_DELAY = 2000;                   // ms after the last change of place, before it is committed

  if (!ok(invoke(call.start))) return;
  var started = Date.now();
  var begun = false;     // the page's scripts have run, and the bridge knows its steps
  var finished = false;
  var written = {};  // element -> the value last set, so that only changes are set and committed

  /* ---- Finding the LMS ---- */

  function apiOf(win, name) {
    try { return win && win[name] && typeof win[name] === "object" ? win[name] : null; }
    catch (crossOrigin) { return null; }  // a window of another origin: not the LMS's
  }

  function scan(win, name, limit) {
    for (var tries = 0; win && tries <= limit; tries++) {
      var found = apiOf(win, name);
      if (found) return found;
      var parent = null;
      try { parent = win.parent; } catch (err) { return null; }
      if (!parent || parent === win) return null;
      win = parent;
    }
    return null;
  }

  function findAPI(name, limit) {
    var found = scan(window, name, limit);
    var openers = [];
    try { openers.push(window.opener, window.top && window.top.opener); } catch (err) { /* as above */ }
    for (var i = 0; !found && i < openers.length; i++) {
      if (openers[i]) found = scan(openers[i], name, limit);
    }
    return found;
  }

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
    var share = window.explainerShare, game = window.gameRuntime;
    var fragment = game ? game.fragment() : share ? share.fragment() : location.hash.replace(/^#/, "");
    if (game || !steps.length) return fragment;
    var items = fragment.split("&").filter(function (item) { return item.indexOf("=") >= 0; });
    var current = stepWorkedIn();
    return (current ? [encodeURIComponent(current.id)] : []).concat(items).join("&");
  }

  // Whole items of the fragment, as many as the data model holds.
  function fitted(fragment) {
    var kept = "";
    fragment.split("&").forEach(function (item) {
      var longer = kept ? kept + "&" + item : item;
      if (item && longer.length <= LOCATION_LIMIT) kept = longer;
    });
    return kept;
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
  try {
    (JSON.parse(get(cmi.suspend) || "{}").seen || []).forEach(function (n) { seen[n] = true; });
  } catch (garbage) { /* another package's data: start afresh */ }

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

  function round(x) { return String(Math.round(x * 10000) / 10000); }

  // Everything the LMS is told, set where it changed; a change of progress is committed at once.
  function report() {
    if (finished || !begun) return;
    var game = window.gameRuntime, score = game && game.score ? game.score() : null;
    var done, total, progressed = false;
    if (score) {
      done = score.solved;
      total = score.rounds;
    } else {
      total = steps.length;
      done = steps.filter(function (section) { return seen[stepNumber(section)]; }).length;
      progressed = set(cmi.suspend, JSON.stringify({ seen: Object.keys(seen).map(Number).sort(function (a, b) { return a - b; }) })) || progressed;
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
        progressed = set("cmi.score.scaled", round(scaled)) || progressed;
        progressed = set("cmi.success_status", passed ? "passed" : isFinite(passing) ? "failed" : "unknown") || progressed;
      } else {
        var status = passed || storedStatus === "passed" ? "passed" : complete && isFinite(passing) ? "failed" : "incomplete";
        progressed = set("cmi.core.lesson_status", status) || progressed;
      }
    } else if (!v2004) {
      progressed = set("cmi.core.lesson_status", complete ? (storedStatus === "passed" ? "passed" : "completed") : "incomplete") || progressed;
    }
    if (v2004) {
      progressed = set("cmi.completion_status", complete ? "completed" : "incomplete") || progressed;
      var measure = total ? Math.max(storedProgress, done / total) : 1;
      progressed = set("cmi.progress_measure", round(complete ? 1 : measure)) || progressed;
    }
    var moved = set(cmi.location, fitted(address()));
    if (progressed) commit();
    else if (moved) commitSoon();
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

  // "HHHH:MM:SS.SS" for 1.2, an ISO 8601 duration ("PT75.25S") for 2004.
  function sessionTime() {
    var seconds = (Date.now() - started) / 1000;
    if (v2004) return "PT" + seconds.toFixed(2) + "S";
    var hours = Math.min(Math.floor(seconds / 3600), 9999), minutes = Math.floor(seconds / 60) % 60;
    var rest = Math.floor((seconds % 60) * 100) / 100;
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return two(hours) + ":" + two(minutes) + ":" + (rest < 10 ? "0" : "") + rest.toFixed(2);
  }

  function finish() {
    if (finished) return;
    report();
    set(cmi.time, sessionTime());
    // "suspend": the LMS keeps the place and what was seen for the next launch.
    set(cmi.exit, "suspend");
    commit();
    finished = true;
    invoke(call.end);
  }

  /* ---- Start: once the page's scripts have run ---- */

  function begin() {
    steps = Array.prototype.slice.call(document.querySelectorAll("section[data-step]")).filter(function (section) {
      return stepNumber(section) !== null;
    });
    if (resumeTarget && !window.gameRuntime) {
      // In a frame share.js does not scroll (it would move a host page); here the frame is the LMS's.
      var target = null;
      try { target = document.getElementById(decodeURIComponent(resumeTarget)); } catch (malformed) { /* no target */ }
      var top = target ? target.getBoundingClientRect().top + window.pageYOffset : null;
      // At once, as an opened link lands (the theme makes in-page scrolling smooth).
      if (top !== null) {
        try { window.scrollTo({ top: top, behavior: "instant" }); } catch (old) { window.scrollTo(0, top); }
      }
    }
    watchSteps();
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
})();
