/* The dev server's client, added to pages only by `serve` (never to a build).
   livereload.js reloads the page after a good rebuild; this plugin of it shows
   a failed rebuild's errors over the last good page until the next good one.
   It runs in the head, before livereload.js, which adds every
   window.LiveReloadPlugin* it finds when it starts. */
(function () {
  "use strict";
  var script = document.currentScript;
  var served = script.getAttribute("data-build");
  var stateUrl = script.getAttribute("data-state");
  var failedPath = script.getAttribute("data-failed");
  var overlay = null;

  function ErrorOverlay() {}
  ErrorOverlay.identifier = "lensa-error-overlay";
  ErrorOverlay.version = "1";
  // Every reload message passes here first: true means "handled, do not reload".
  ErrorOverlay.prototype.reload = function (path) {
    if (path !== failedPath) return false;
    sync();
    return true;
  };
  window.LiveReloadPluginLensaErrorOverlay = ErrorOverlay;

  // On (re)connecting, catch up: an error that stands, or a rebuild (or a restarted
  // server) whose reload came before this page was listening. The timeout lets
  // livereload.js register the page first.
  document.addEventListener("LiveReloadConnect", function () { setTimeout(sync, 0); });

  function sync() {
    fetch(stateUrl, { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (state) {
        if (state.error) {
          show(state.error);
        } else if (state.build !== served) {
          location.reload();
        } else {
          hide();
        }
      })
      .catch(function () {});  // the server is gone; livereload.js reconnects when it is back
  }

  function show(text) {
    if (!overlay) {
      overlay = document.createElement("section");
      overlay.setAttribute("role", "alert");
      overlay.setAttribute("aria-labelledby", "dev-server-error-title");
      overlay.style.cssText = "position:fixed;inset:auto 1rem 1rem 1rem;z-index:2147483647;max-height:60vh;" +
        "overflow:auto;padding:1rem 1.25rem;border:3px solid #b00020;border-radius:8px;background:#fff;" +
        "color:#1a1a1a;font:14px/1.5 system-ui,sans-serif;box-shadow:0 8px 32px rgba(0,0,0,.35)";
      var title = document.createElement("h2");
      title.id = "dev-server-error-title";
      title.textContent = "Build failed";
      title.style.cssText = "margin:0 0 .5rem;font-size:18px;color:#b00020";
      var note = document.createElement("p");
      note.textContent = (served === "none" ? "Nothing has built yet." : "This page is the last good build.") +
        " Fix the problem and save: the page reloads by itself.";
      note.style.margin = "0 0 .5rem";
      var details = document.createElement("pre");
      details.style.cssText = "margin:0 0 .75rem;white-space:pre-wrap;font:13px/1.45 ui-monospace,monospace";
      var close = document.createElement("button");
      close.type = "button";
      close.textContent = "Dismiss";
      close.addEventListener("click", hide);
      overlay.appendChild(title);
      overlay.appendChild(note);
      overlay.appendChild(details);
      overlay.appendChild(close);
    }
    overlay.querySelector("pre").textContent = text;
    if (document.body) {
      if (!overlay.isConnected) document.body.appendChild(overlay);
    } else {
      document.addEventListener("DOMContentLoaded", function () { show(text); });
    }
  }

  function hide() {
    if (overlay && overlay.isConnected) overlay.remove();
  }
})();
