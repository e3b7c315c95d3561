/* Sharing (bundled into static/share.js by ../bundle.cjs): deep links (the address
   fragment holds the state of the steps, fragment.js) and the Embed button's iframe
   code. Loaded after runtime.js, it works only through lensa.runtime.steps
   (each step's section, spec, key, controls, each with its name, the names of its
   values, index() and initial, and select(control, value)) and the "explainer:state"
   events, so the runtime knows nothing about addresses. On window: lensa.share =
   {fragment(), parse(hash), step(step)} (docs/architecture.md). */
import { delayedWriter, withFragment } from "../core/address.js";
import { framed } from "../core/frame.js";
import { parseFragment } from "./fragment.js";
import { lensa } from "../core/lensa.js";

if (lensa.runtime) start(lensa.runtime);

function start(runtime) {
  var steps = runtime.steps;
  var slice = Array.prototype.slice;
  var scrollTarget = null;   // the step the reader last worked in
  var applying = false;
  // Links that carry the current state along (an embed's link to the full explainer);
  // each keeps its own fragment (#step-3) for when every step is at its default.
  var stateLinks = slice.call(document.querySelectorAll("a[data-state-link]")).map(function (link) {
    return { link: link, fragment: link.getAttribute("href").split("#")[1] || "" };
  });

  function stepNumber(step) {
    var match = /^step-(\d+)$/.exec(step.section.id);
    return match ? match[1] : null;
  }

  /* ---- Deep links: reading ---- */

  // Every step takes the choices the fragment names and its defaults for the rest.
  function applyStates(states) {
    applying = true;
    try {
      steps.forEach(function (step) {
        var wanted = states[stepNumber(step)] || {};
        step.controls.forEach(function (control, index) {
          var choice = -1;
          if (Object.prototype.hasOwnProperty.call(wanted, control.name)) {
            choice = control.names.indexOf(wanted[control.name]);
          }
          if (choice < 0) choice = control.initial;  // a value no longer offered, or garbage
          if (choice >= 0 && choice !== control.index()) step.select(index, choice);
        });
      });
    } finally {
      applying = false;
    }
  }

  function scrollToTarget(target, instant) {
    // In an iframe, scrolling would move the host page under the reader.
    if (!target || framed()) return;
    var element = document.getElementById(target);
    if (!element) return;
    if (!instant) return element.scrollIntoView();
    // An opened link lands on its step at once, as an #anchor would, even where
    // the theme makes in-page scrolling smooth.
    try { element.scrollIntoView({ behavior: "instant", block: "start" }); } catch (err) { element.scrollIntoView(); }
  }

  /* ---- Deep links: writing ---- */

  // "s3=head:2,query:cat" for a step away from its defaults, "" otherwise.
  function stepFragment(step) {
    var number = stepNumber(step);
    if (number === null || step.key === step.spec.default) return "";
    var pairs = step.controls.map(function (control) {
      return control.name + ":" + encodeURIComponent(control.names[control.index()]);
    });
    return "s" + number + "=" + pairs.join(",");
  }

  function pageFragment(target) {
    if (target === undefined) target = scrollTarget;
    var parts = target ? [encodeURIComponent(target)] : [];
    steps.forEach(function (step) {
      var part = stepFragment(step);
      if (part) parts.push(part);
    });
    return parts.join("&");
  }

  function updateStateLinks() {
    stateLinks.forEach(function (entry) {
      entry.link.href = withFragment(entry.link.href, pageFragment(scrollTarget || entry.fragment));
    });
  }

  // The address follows a click once the reader pauses (core/address.js); links that
  // carry the state along are updated at once.
  var address = delayedWriter(function () { return pageFragment(); }, updateStateLinks);
  function writeSoon() {
    updateStateLinks();
    address.soon();
  }

  document.addEventListener("explainer:state", function (event) {
    if (applying) return;
    var section = event.target.closest ? event.target.closest("section[data-step]") : null;
    if (section && section.id) scrollTarget = section.id;
    writeSoon();
  });

  window.addEventListener("hashchange", function () {
    address.heard();
    var parsed = parseFragment(location.hash);
    scrollTarget = parsed.target;
    if (parsed.hasStates) {
      applyStates(parsed.states);
      scrollToTarget(parsed.target);
    } else {
      // A plain #anchor (the step list, the pager): keep the reader's choices in the address.
      address.cancel();
      address.write();
    }
  });

  var initial = parseFragment(location.hash);
  scrollTarget = initial.target;
  if (initial.hasStates) {
    applyStates(initial.states);
    // The browser cannot scroll to "step-3&s3=…" by itself: no element has that id.
    scrollToTarget(initial.target, true);
  }
  updateStateLinks();

  /* ---- The Embed button (embed-code.js): its code follows the state shown ---- */

  var embedCode = lensa.embedCode;
  if (embedCode) {
    slice.call(document.querySelectorAll("textarea[data-embed-code]")).forEach(function (box) {
      var section = box.closest("section[data-step]");
      var step = steps.filter(function (candidate) { return candidate.section === section; })[0] || null;
      var code = embedCode.attach(box, function () { return step ? stepFragment(step) : pageFragment(null); });
      // A step's code follows that step; the whole explainer's follows every step.
      (section || document).addEventListener("explainer:state", function () { code.refresh(); });
    });
  }

  /* ---- Download figure: figure.js (docs/figures.md) is loaded when a button is first pressed ---- */

  var kit = document.getElementById("figure-kit");
  document.addEventListener("click", function (event) {
    var button = kit && event.target.closest && event.target.closest("button[data-figure]");
    if (!button) return;
    function open() { lensa.figure.toggle(button); }
    if (lensa.figure) return open();
    if (kit.busy) return;
    kit.busy = true;
    // The kit's script, by its address, or its text in a single-file copy (which runs at once).
    var code = kit.content.querySelector("script"), script = document.createElement("script");
    if (code.hasAttribute("src")) {
      script.src = code.getAttribute("src");
      script.onload = open;
      script.onerror = function () { kit.busy = false; };
    } else {
      script.text = code.text;
    }
    document.body.appendChild(script);
    if (!script.src) open();
  });

  lensa.share = { fragment: function () { return pageFragment(); }, parse: parseFragment,
                            step: stepFragment };
}
