// Embedding, without a page: the Embed panel's code (themes/default/scripts/embed-code/code.js),
// the height an embed reports (frame/messages.js) and what the host's helper trusts
// (embed/sizing.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { absoluteSource, codeWith, escapeAttribute } from "../../themes/default/scripts/embed-code/code.js";
import { resizeMessages } from "../../themes/default/scripts/frame/messages.js";
import { MAX_HEIGHT, askedHeight, originOf, trusted } from "../../themes/default/scripts/embed/sizing.js";

test("the code escapes its address as the build did, and loads the new one", () => {
  assert.equal(escapeAttribute(`a&b<c>"d'`), "a&amp;b&lt;c&gt;&quot;d&#x27;");
  const original = '<iframe src="embed/x/?a=1&amp;b=2" title="X"></iframe>';
  assert.equal(codeWith(original, "embed/x/?a=1&b=2", "embed/x/?a=1&b=2#s1=q:it's"),
               '<iframe src="embed/x/?a=1&amp;b=2#s1=q:it&#x27;s" title="X"></iframe>');
});

test("a relative address is made whole only on a page served over http(s)", () => {
  assert.equal(absoluteSource("../embed/x/", "https://example.org/s/page/"), "https://example.org/s/embed/x/");
  assert.equal(absoluteSource("https://other.org/e/", "https://example.org/"), null);
  assert.equal(absoluteSource("../embed/x/", "file:///home/a/page/index.html"), null);
});

test("an embed sends its height in the generic message and in Canvas's", () => {
  const [generic, canvas] = resizeMessages(640, "self-attention", "3");
  assert.deepEqual(generic, { type: "lensa:resize", version: 1, height: 640, slug: "self-attention", step: 3 });
  assert.deepEqual(JSON.parse(canvas), { subject: "lti.frameResize", height: 640 });
  assert.equal(resizeMessages(10, "", null)[0].step, null);
});

test("the host's helper takes a positive height, whole and bounded, from a resize message alone", () => {
  assert.equal(askedHeight({ type: "lensa:resize", height: 300.2 }), 301);
  assert.equal(askedHeight({ type: "lensa:resize", height: 1e9 }), MAX_HEIGHT);
  assert.equal(askedHeight({ type: "lensa:resize", height: "x" }), null);
  assert.equal(askedHeight({ type: "lensa:resize", height: 0 }), null);
  assert.equal(askedHeight({ type: "other", height: 300 }), null);
  assert.equal(askedHeight('{"subject":"lti.frameResize","height":300}'), null);
});

test("a frame's message is trusted from its own origin, or from an opaque one it may send", () => {
  assert.equal(originOf("https://example.org/embed/x/", "https://host.org/"), "https://example.org");
  assert.equal(originOf("file:///a/embed.html", "https://host.org/"), null);
  assert.equal(originOf("about:blank", "https://host.org/"), null);
  assert.ok(trusted("https://example.org", "https://example.org", false));
  assert.ok(!trusted("https://evil.org", "https://example.org", false));
  assert.ok(!trusted("null", "https://example.org", false));
  assert.ok(trusted("null", "https://example.org", true));
  assert.ok(trusted("null", null, false));
  assert.ok(trusted("https://any.org", null, false));
});
