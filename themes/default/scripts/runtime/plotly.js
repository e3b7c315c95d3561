/* The plotly.js loader. The contract of loading plotly.js, in one place (also in
   docs/architecture.md, "The browser runtime"):

   1. The page holds plotly.js in <template data-plotly> (templates/_plotly.html): a
      <script src> of the file. Nothing in a template is fetched or run, so the page's
      first view has the network to itself.
   2. The page's head (templates/_early_input.html) defines lensa.early.fetchPlotly(),
      which fetches the file without running it (a low-priority <link rel="preload">
      marked data-plotly-fetch), and lensa.early.painted(), whether the first view is
      painted. It fetches once that paint comes, or at a first tap before it (the tap
      itself is kept in lensa.early.input for the runtime to replay).
   3. This loader fetches it, where neither came (a page loaded hidden, whose frames
      never run), once the page has loaded and the main thread is idle; and it RUNS it
      once, when first needed: load() (a chart in view must show a state its still
      drawing does not, a tap on a chart: soon(); a hovering device nearing a chart:
      idle(); a script asking: lensa.runtime.plotly()).
   4. The single-file copy (outputs/offline.py) inlines the template's script, so the
      template holds plotly.js's text rather than an address: load() runs that text.
   5. A theme may leave the template out and load plotly.js with a script of its own:
      load() then waits for window.Plotly once the page has loaded.

   createLoader(loaded): {load, soon, idle}; `loaded` is called once plotly.js has run. */
import { lensa } from "../core/lensa.js";

export function createLoader(loaded) {
  var held = document.querySelector("template[data-plotly]");
  var code = held && held.content.querySelector("script");
  var address = code && code.getAttribute("src");
  var loading = null, asked = null;
  var early = lensa.early;
  if (address && early && early.fetchPlotly) {
    // Not once a script is fetching it already (a tap or a deep link ran it).
    var fetchEarly = function () { if (!loading) early.fetchPlotly(); };
    var afterLoad = function () {
      if (window.requestIdleCallback) window.requestIdleCallback(fetchEarly, { timeout: 1000 });
      else setTimeout(fetchEarly, 0);
    };
    // Painted already (frames wait behind the parser's long tasks, so the watch may not
    // have seen it yet): now. A hidden page: once it has loaded.
    if (early.painted && early.painted()) fetchEarly();
    else if (document.readyState === "complete") afterLoad();
    else window.addEventListener("load", afterLoad);
  }
  function run(resolve, reject) {
    if (window.Plotly) return resolve();
    if (!code) {  // a theme's own script: there once the page has loaded
      var ready = function () { return window.Plotly ? resolve() : reject(new Error("no plotly.js")); };
      return document.readyState === "complete" ? ready() : window.addEventListener("load", ready);
    }
    var script = document.createElement("script");
    if (address) {
      script.onload = function () { resolve(); };
      script.onerror = function () { reject(new Error("plotly.js did not load")); };
      script.src = address;
    } else {
      script.text = code.text;
    }
    document.head.appendChild(script);
    if (!address) resolve();
  }
  function load() {
    if (!loading) {
      loading = new Promise(run).then(function () {
        loaded();
        return window.Plotly;
      });
      loading.catch(function () {});  // the still drawings stay; nothing else to do
    }
    return loading;
  }
  return {
    load: load,
    // Needed now: run once the browser has painted what the reader just did, so a tap's
    // answer shows before the main thread is busy with plotly.js.
    soon: function () {
      if (loading || asked === "soon") return;
      asked = "soon";
      var done = false;
      var go = function () { if (!done) { done = true; load(); } };
      requestAnimationFrame(function () { setTimeout(go, 0); });
      setTimeout(go, 100);  // no frame comes while the page is hidden
    },
    // Wanted, not needed (hover labels): when the main thread is idle.
    idle: function () {
      if (loading || asked) return;
      asked = "idle";
      if (window.requestIdleCallback) window.requestIdleCallback(load, { timeout: 3000 });
      else setTimeout(load, 200);
    }
  };
}
