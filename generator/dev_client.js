/* The dev server's client, injected into pages only by `serve` (never into a
   build): it reloads the page after a rebuild, and shows a failed rebuild's
   errors over the last good page until the next successful one. */
(function () {
  "use strict";
  var script = document.currentScript;
  var served = script.getAttribute("data-build");
  var events = new EventSource(script.getAttribute("data-events"));
  var overlay = null;

  events.addEventListener("state", function (event) {
    var state = JSON.parse(event.data);
    if (state.error) {
      show(state.error);
    } else if (state.build !== served) {
      location.reload();
    } else {
      hide();
    }
  });

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
      note.textContent = "This page is the last good build. Fix the problem and save: the page reloads by itself.";
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
    if (!overlay.isConnected) document.body.appendChild(overlay);
  }

  function hide() {
    if (overlay && overlay.isConnected) overlay.remove();
  }
})();
