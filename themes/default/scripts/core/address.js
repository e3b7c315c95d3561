// The address fragment, written once the reader pauses. Each replaceState is a
// same-document navigation that costs the browser a few milliseconds (and Chrome
// throttles a flood of them), so clicking through states writes it once, not per click;
// replaceState, not pushState, so the Back button is not filled with every click.
// Leaving, hiding or reloading the page writes the last choice at once.
// (share/main.js and game/main.js write the address with it.)

export var PAUSE = 250;  // ms without a click before the address is written

export function withFragment(url, fragment) {
  return url.split("#")[0] + (fragment ? "#" + fragment : "");
}

// fragment(): the fragment to write; written(): called after each write.
// soon(): write after the pause; flush(): write now if a write is waiting; write(): write
// now; cancel(): forget a waiting write; heard(): the address changed under the page
// (a hashchange), so it is the one the page knows.
export function delayedWriter(fragment, written) {
  var pending = null;
  // The address as this page last read or wrote it. When it differs, the reader (or a
  // link, or Back) changed it and its hashchange is on the way: a write would undo it.
  var known = location.hash;
  function write() {
    var url = withFragment(location.href, fragment());
    if (url !== location.href) {
      try {
        history.replaceState(history.state, "", url);
      } catch (err) {
        // Some sandboxed frames refuse address changes; the page works on without them.
      }
    }
    known = location.hash;
    if (written) written();
  }
  function cancel() {
    if (pending !== null) clearTimeout(pending);
    pending = null;
  }
  function flush() {
    if (pending === null) return;
    cancel();
    if (location.hash !== known) return;
    write();
  }
  function soon() {
    cancel();
    pending = setTimeout(flush, PAUSE);
  }
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", flush);
  return { soon: soon, flush: flush, write: write, cancel: cancel,
           heard: function () { known = location.hash; } };
}
