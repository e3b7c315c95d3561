// Finding the LMS's API as the SCORM run-time environment says: `name` (API for 1.2,
// API_1484_11 for 2004) in window `start` and its parents, then in the opener's, within
// `limit` parents (the specification's own algorithms: 7 for 1.2, 500 for 2004). null
// when there is none. A window of another origin is not the LMS's.

function apiOf(win, name) {
  try { return win && win[name] && typeof win[name] === "object" ? win[name] : null; }
  catch (crossOrigin) { return null; }
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

export function findAPI(start, name, limit) {
  var found = scan(start, name, limit);
  var openers = [];
  try { openers.push(start.opener, start.top && start.top.opener); } catch (err) { /* as above */ }
  for (var i = 0; !found && i < openers.length; i++) {
    if (openers[i]) found = scan(openers[i], name, limit);
  }
  return found;
}
