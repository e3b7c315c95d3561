/* The Embed panel's iframe code (bundled into static/embed-code.js by ../bundle.cjs),
   shared by explainers (share.js) and games (game.js): the code box, the "open in the
   state shown" option, the preview link and the Copy button. The page's own script says
   what state to carry; this file knows nothing of steps or rounds. On window:
   lensa.embedCode = {attach(box, state)} (docs/architecture.md). */
import { withFragment } from "../core/address.js";
import { absoluteSource, codeWith } from "./code.js";
import { lensa } from "../core/lensa.js";

function EmbedCode(box, state) {
  this.box = box;
  this.state = state;
  this.original = box.value;
  this.src = box.getAttribute("data-embed-src");
  var panel = box.closest("details") || box.parentNode;
  this.option = panel.querySelector("[data-embed-state]");
  this.status = panel.querySelector("[data-embed-status]");
  this.preview = panel.querySelector("[data-embed-preview]");
  this.previewHref = this.preview ? this.preview.getAttribute("href") : "";
  var actions = panel.querySelector(".embed-actions");
  if (actions) actions.hidden = false;
  // Without a base_url the build wrote a relative address; a page served over
  // http(s) knows its own address, so the code can still work anywhere.
  this.absolute = absoluteSource(this.src, location.href);
  var note = panel.querySelector("[data-embed-relative]");
  if (note && this.absolute) note.hidden = true;
  var self = this;
  if (this.option) this.option.addEventListener("change", function () { self.refresh(); });
  var copy = panel.querySelector("[data-embed-copy]");
  if (copy) copy.addEventListener("click", function () { self.copy(); });
  this.refresh();
}

EmbedCode.prototype.refresh = function () {
  var state = !this.option || this.option.checked ? this.state() : "";
  if (this.preview) this.preview.setAttribute("href", withFragment(this.previewHref, state));
  this.box.value = codeWith(this.original, this.src, withFragment(this.absolute || this.src, state));
  if (this.status) this.status.textContent = "";
};

EmbedCode.prototype.copy = function () {
  var box = this.box, status = this.status;
  box.focus();
  box.select();
  function report(copied) {
    if (status) status.textContent = status.getAttribute(copied ? "data-copied" : "data-failed");
  }
  function legacyCopy() {
    try { return document.execCommand("copy"); } catch (err) { return false; }
  }
  // The Clipboard API needs a secure context and may still refuse (file://, a
  // frame without permission); the old command is the fallback, and the text
  // stays selected for Ctrl+C when both fail.
  if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
    try {
      navigator.clipboard.writeText(box.value).then(function () { report(true); },
                                                    function () { report(legacyCopy()); });
      return;
    } catch (err) { /* fall through */ }
  }
  report(legacyCopy());
};

/* attach(box, state): the code of one <textarea data-embed-code>, where state()
   gives the fragment (without "#") that the code opens at; call refresh() on the
   result whenever that state changes. */
lensa.embedCode = {
  attach: function (box, state) { return new EmbedCode(box, state); },
};
