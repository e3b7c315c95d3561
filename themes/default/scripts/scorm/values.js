// What the bridge tells an LMS, in each SCORM version's own names and formats, without a
// page (unit-tested in tests/scripts/scorm.test.mjs). `v2004`: SCORM 2004, else 1.2.

// The API's methods and the data model's elements the bridge uses.
export function names(v2004) {
  return {
    call: v2004
      ? { start: "Initialize", get: "GetValue", set: "SetValue", commit: "Commit", end: "Terminate" }
      : { start: "LMSInitialize", get: "LMSGetValue", set: "LMSSetValue", commit: "LMSCommit", end: "LMSFinish" },
    cmi: v2004
      ? { location: "cmi.location", suspend: "cmi.suspend_data", exit: "cmi.exit", time: "cmi.session_time",
          raw: "cmi.score.raw", min: "cmi.score.min", max: "cmi.score.max" }
      : { location: "cmi.core.lesson_location", suspend: "cmi.suspend_data", exit: "cmi.core.exit",
          time: "cmi.core.session_time", raw: "cmi.core.score.raw", min: "cmi.core.score.min",
          max: "cmi.core.score.max" },
    locationLimit: v2004 ? 1000 : 255,   // characters, as the data models allow
  };
}

// Whole items of the fragment, as many as `limit` characters hold.
export function fitted(fragment, limit) {
  var kept = "";
  fragment.split("&").forEach(function (item) {
    var longer = kept ? kept + "&" + item : item;
    if (item && longer.length <= limit) kept = longer;
  });
  return kept;
}

// A share (progress, a scaled score) to four decimals.
export function fourPlaces(x) { return String(Math.round(x * 10000) / 10000); }

// A number as the data models write decimals: no exponent, at most 10 decimals.
export function decimal(x) {
  // From 1e21 up String and toFixed both write an exponent: move its shortest digits' point instead.
  var large = /^(-?)(\d)(?:\.(\d+))?e\+(\d+)$/.exec(String(x));
  if (large) return large[1] + large[2] + (large[3] || "") + "0".repeat(+large[4] - (large[3] || "").length);
  var text = String(Math.round(x * 1e10) / 1e10);
  return /e/i.test(text) ? x.toFixed(10).replace(/\.?0+$/, "") : text;
}

// [element, value] pairs of an answered question's interaction (a record of questions.js),
// under "cmi.interactions.n.", in order: the type before the responses, since the data
// model checks them against it.
export function interaction(record, v2004) {
  var response, correct, type;
  if (record.kind === "choice") {
    type = "choice";
    var name = function (i) { return v2004 ? record.ids[i] : "abcdefghijklmnopqrstuvwxyz0123456789".charAt(i); };
    response = record.chosen.map(name).join(v2004 ? "[,]" : ",");
    correct = record.correct.map(name).join(v2004 ? "[,]" : ",");
  } else if (record.kind === "number") {
    type = "numeric";
    response = decimal(record.value);
    correct = v2004 ? decimal(record.answer - record.tolerance) + "[:]" + decimal(record.answer + record.tolerance)
      : decimal(record.answer);
  } else {
    type = "performance";
    var steps = function (pairs) {
      return pairs.map(function (pair) { return pair[0] + (v2004 ? "[.]" : ":") + pair[1]; }).join(v2004 ? "[,]" : ",");
    };
    response = steps(record.choice);
    correct = steps(record.example);
  }
  var fields = [["type", type], [v2004 ? "learner_response" : "student_response", response],
                ["result", record.right ? "correct" : v2004 ? "incorrect" : "wrong"],
                ["correct_responses.0.pattern", correct], ["weighting", "1"]];
  if (v2004) fields.push(["description", record.text.slice(0, 250)]);
  return fields;
}

function two(n) { return (n < 10 ? "0" : "") + n; }

// `now` (a Date) as 2004's timestamp (local time, to the second) or 1.2's time of day.
export function timestamp(now, v2004) {
  var time = two(now.getHours()) + ":" + two(now.getMinutes()) + ":" + two(now.getSeconds());
  return v2004 ? now.getFullYear() + "-" + two(now.getMonth() + 1) + "-" + two(now.getDate()) + "T" + time : time;
}

// A session of `seconds`: "HHHH:MM:SS.SS" for 1.2, an ISO 8601 duration ("PT75.25S") for 2004.
export function sessionTime(seconds, v2004) {
  if (v2004) return "PT" + seconds.toFixed(2) + "S";
  var hours = Math.min(Math.floor(seconds / 3600), 9999), minutes = Math.floor(seconds / 60) % 60;
  var rest = Math.floor((seconds % 60) * 100) / 100;
  return two(hours) + ":" + two(minutes) + ":" + (rest < 10 ? "0" : "") + rest.toFixed(2);
}
