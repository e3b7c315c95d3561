// The delayed address writer (themes/default/scripts/core/address.js), with stand-ins for
// the browser's location and history and Node's mock timers.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { delayedWriter, withFragment, PAUSE } from "../../themes/default/scripts/core/address.js";

function browser(hash) {
  const listeners = {};
  const location = {
    href: "file:///p.html" + hash,
    get hash() { return this.href.includes("#") ? "#" + this.href.split("#")[1] : ""; },
  };
  const writes = [];
  globalThis.location = location;
  globalThis.history = { state: null, replaceState(state, title, url) { writes.push(url); location.href = url; } };
  globalThis.window = { addEventListener(name, f) { listeners[name] = f; } };
  globalThis.document = { addEventListener(name, f) { listeners[name] = f; } };
  return { location, writes, listeners };
}

test("withFragment replaces the fragment, or drops it", () => {
  assert.equal(withFragment("a.html#x", "y"), "a.html#y");
  assert.equal(withFragment("a.html#x", ""), "a.html");
});

test("clicks in a row write the address once, after the pause", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const page = browser("");
    let fragment = "s1=a:1", written = 0;
    const writer = delayedWriter(() => fragment, () => written++);
    writer.soon();
    fragment = "s1=a:2";
    writer.soon();
    mock.timers.tick(PAUSE - 1);
    assert.deepEqual(page.writes, []);
    mock.timers.tick(1);
    assert.deepEqual(page.writes, ["file:///p.html#s1=a:2"]);
    assert.equal(written, 1);
  } finally {
    mock.timers.reset();
  }
});

test("leaving the page writes at once; an address changed under the page is not undone", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const page = browser("#step-1");
    const writer = delayedWriter(() => "s2=b:1");
    writer.soon();
    page.listeners.pagehide();
    assert.deepEqual(page.writes, ["file:///p.html#s2=b:1"]);
    writer.soon();
    page.location.href = "file:///p.html#elsewhere";  // the reader edited it: hashchange is coming
    mock.timers.tick(PAUSE);
    assert.equal(page.writes.length, 1);
    writer.heard();
    writer.soon();
    mock.timers.tick(PAUSE);
    assert.equal(page.writes.length, 2);
  } finally {
    mock.timers.reset();
  }
});
