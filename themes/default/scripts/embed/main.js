/* Optional helper for pages that embed explainers and allow scripts (bundled into
   static/embed.js by ../bundle.cjs):
     <script src="https://…/assets/embed.js" defer></script>
   It sizes each embed's iframe to the height the embed reports, so the figure
   never scrolls inside its frame. Pages that strip scripts (Canvas, Moodle)
   do not need it to keep the figure working; see docs/embedding.md.
   No dependencies, safe to include more than once: it runs on a page that is not
   Lensa's, so its one name on window, lensaEmbedHelper, only marks that it runs. */
import { askedHeight, originOf, trusted } from "./sizing.js";

if (!window.lensaEmbedHelper) {
  window.lensaEmbedHelper = true;
  start();
}

function frameOf(source) {
  var frames = document.getElementsByTagName("iframe");
  for (var i = 0; i < frames.length; i++) {
    if (frames[i].contentWindow === source) return frames[i];
  }
  return null;
}

function start() {
  window.addEventListener("message", function (event) {
    var height = askedHeight(event.data);
    if (height === null) return;
    // Only the iframe that sent the message is resized, and only when the
    // message comes from the origin that iframe was loaded from (sizing.js).
    var frame = frameOf(event.source);
    if (!frame || !trusted(event.origin, originOf(frame.src, location.href), frame.hasAttribute("sandbox"))) return;
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
}
