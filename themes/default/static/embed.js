/* Optional helper for pages that embed explainers and allow scripts:
     <script src="https://…/assets/embed.js" defer></script>
   It sizes each embed's iframe to the height the embed reports, so the figure
   never scrolls inside its frame. Pages that strip scripts (Canvas, Moodle)
   do not need it to keep the figure working; see docs/embedding.md.
   Classic script, no dependencies, safe to include more than once. */
(function () {
  "use strict";

  if (window.lensaEmbedHelper) return;
  window.lensaEmbedHelper = true;

  var MAX_HEIGHT = 20000;   // a runaway frame must not grow the page without bound

  function frameOf(source) {
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === source) return frames[i];
    }
    return null;
  }

  // The origin an http(s) frame's messages must come from; null for any other src (a
  // file: URL, about:blank), whose messages carry the origin "null" and which is matched
  // by its window alone. (new URL("file:///…").origin is "file://", never "null".)
  function originOf(frame) {
    try {
      var url = new URL(frame.src, location.href);
      return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
    } catch (err) { return null; }
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object" || data.type !== "lensa:resize") return;
    // Only the iframe that sent the message is resized, and only when the
    // message comes from the origin that iframe was loaded from. A frame from
    // disk, or a sandboxed one (no allow-same-origin), sends the origin "null":
    // its window must match, which is all that can be checked.
    var frame = frameOf(event.source);
    if (!frame) return;
    var expected = originOf(frame);
    var opaque = event.origin === "null" && (!expected || frame.hasAttribute("sandbox"));
    if (expected && event.origin !== expected && !opaque) return;
    var height = Math.ceil(Number(data.height));
    if (!(height > 0)) return;
    height = Math.min(height, MAX_HEIGHT);
    frame.style.height = height + "px";
    frame.setAttribute("height", String(height));
  });

  // Embeds that loaded before this script have already sent their height: ask again.
  function askAll() {
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      try { frames[i].contentWindow.postMessage({ type: "lensa:measure" }, "*"); } catch (err) { /* detached */ }
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", askAll);
  else askAll();
})();
