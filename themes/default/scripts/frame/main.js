/* Auto height for embeds (bundled into static/frame.js by ../bundle.cjs): an embed
   tells the page around it how tall its content is, on load, whenever its size changes
   and on every state change, so the host can size the iframe to fit (docs/embedding.md).

   Two messages go to window.parent each time (messages.js):
   - {type: "lensa:resize", version: 1, height, slug, step}: the documented
     generic one, read by assets/embed.js or any host script;
   - '{"subject":"lti.frameResize","height":…}': Canvas's resize request.
   A parent may send {type: "lensa:measure"} to ask for the height again
   (a host script that loads after the embed has missed the first message). */
import { resizeMessages } from "./messages.js";

var parent = window.parent;
if (parent && parent !== window) start();

function start() {
  var marker = document.querySelector("[data-embed]");
  var slug = marker ? marker.getAttribute("data-embed") : "";
  var step = marker ? marker.getAttribute("data-embed-step") : null;
  var lastHeight = -1;

  // The document's own height, not the viewport's, so that resizing the iframe
  // to fit does not change what is measured (no feedback loop).
  function contentHeight() {
    return Math.ceil(document.documentElement.getBoundingClientRect().height);
  }

  function post(always) {
    var height = contentHeight();
    if (!always && height === lastHeight) return;
    lastHeight = height;
    try {
      // The height is not secret and the host's origin is unknown, hence "*".
      resizeMessages(height, slug, step).forEach(function (message) { parent.postMessage(message, "*"); });
    } catch (err) {
      // A parent that went away (page closing) cannot be told; nothing to do.
    }
  }

  document.addEventListener("explainer:state", function () { post(true); });
  window.addEventListener("load", function () { post(true); });
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.source === parent && data && data.type === "lensa:measure") post(true);
  });
  if ("ResizeObserver" in window) {
    new ResizeObserver(function () { post(false); }).observe(document.documentElement);
  } else {
    window.addEventListener("resize", function () { post(false); });
  }
  post(true);
}
