/* Download figure (docs/figures.md; bundled into static/figure.js by ../bundle.cjs): a
   chart, in the state the page shows, as an SVG
   or a PNG at twice its size, holding the chart's title, the chart, the state's caption
   and a source line (the page, the site and the address of this very state), and the
   site's licence when it sets one. Colours are the scheme shown, or light on white for
   print. The SVG keeps its text as text.

   share.js runs this file when a reader first presses Download figure: the page's
   <template id="figure-kit"> holds it, by its address or, in the single-file copy, as
   its text, neither fetched nor run until then, so it costs a page nothing before. It
   reads the page's data itself, as the runtime does, and draws the state with
   Plotly.toImage; the layout of the figure around the chart is the one render/figures.py
   gives the figure files of the build. In a frame that may not allow downloads (a
   sandboxed iframe, as LMS frames often are) the figure also opens in the page, to be
   saved from there.
   On window: lensa.figure = {toggle(button)}, which share.js calls. */
import { createPool } from "../core/pool.js";
import { themed } from "../core/theme.js";
import { lensa } from "../core/lensa.js";

if (lensa.runtime && document.getElementById("figure-kit") && !lensa.figure) start();

function start() {
  var runtime = lensa.runtime, share = lensa.share;
  var kit = document.getElementById("figure-kit");
  var about = JSON.parse(kit.getAttribute("data-figure"));
  var labels = about.labels;
  var SVG_NS = "http://www.w3.org/2000/svg";
  // As render/figures.py lays out the build's figure files: sizes and line heights in px.
  var PADDING = 16, GAP = 8, TITLE = [15, 20], CAPTION = [14, 19], SOURCE = [12, 16];
  var data = null;      // the page's data, parsed on first use
  var panels = 0;
  var measure = document.createElement("canvas").getContext("2d");

  /* ---- The chart's figure in the state shown ---- */

  function pageData() {
    return data || (data = JSON.parse(document.getElementById("explainer-data").textContent));
  }

  // Arrays shared between states are stored once, as {"$": i} (core/pool.js).
  var pool = null;
  function resolve(node) {
    return (pool || (pool = createPool(pageData().pool))).resolve(node);
  }

  // The CSS variables `names` as the page computes them at `element`; `light`, as it
  // prints them (data-printing turns the dark palette off, runtime.js), read between two
  // paints so the reader sees nothing change.
  function colours(element, names, light) {
    var root = document.documentElement, printing = root.hasAttribute("data-printing"), found = {};
    if (light && !printing) root.setAttribute("data-printing", "");
    try {
      var style = getComputedStyle(element);
      names.forEach(function (name) { found[name] = style.getPropertyValue(name).trim(); });
    } finally {
      if (light && !printing) root.removeAttribute("data-printing");
    }
    return found;
  }

  function chartOf(button) {
    var block = button.closest(".chart-block"), element = block.querySelector("[data-chart]");
    var section = block.closest("section[data-step]");
    var step = runtime.steps.filter(function (candidate) { return candidate.section === section; })[0];
    var title = block.querySelector(".chart-title") || section.querySelector("h2");
    var caption = block.querySelector("[data-summary]");
    return {
      block: block, element: element, section: section, step: step,
      index: Number(element.getAttribute("data-chart")) || 0,
      title: text(title), caption: text(caption),
    };
  }

  function text(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The address of the state shown: the explainer (published, when the site has a
  // base_url; else an embed's link to it, or this very page), at the chart's step, with
  // that step's choices (share.js's format).
  function deepLink(chart) {
    var full = document.querySelector("a[data-state-link][href]");
    var base = about.address || (full ? full.href : location.href);
    var choices = share && share.step ? share.step(chart.step) : "";
    return base.split("#")[0] + "#" + chart.section.id + (choices ? "&" + choices : "");
  }

  function figureOf(chart, width) {
    var spec = pageData().steps[Number(chart.section.getAttribute("data-step"))];
    var state = spec.states[chart.step.key].charts[chart.index];
    var layout = resolve(spec.charts[chart.index].layout), own = resolve(state.layout);
    for (var key in own) layout[key] = own[key];
    delete layout.transition;
    layout.width = width;
    return { data: resolve(state.data), layout: layout };
  }

  // The runtime runs plotly.js only when something needs it (runtime.js, its header):
  // a figure asks for it as a tap does.
  function whenPlotly() {
    var runtime = lensa.runtime;
    if (runtime && runtime.plotly) return runtime.plotly();
    return window.Plotly ? Promise.resolve(window.Plotly) : Promise.reject(new Error("plotly.js is not on this page"));
  }

  /* ---- The figure: title, chart, caption and source, as an SVG document ---- */

  function make(chart, light) {
    var width = Math.round(chart.element.getBoundingClientRect().width) || 720;
    var figure = figureOf(chart, width);
    var height = Math.round(figure.layout.height || chart.element.offsetHeight || 360);
    var names = ["--bg", "--fg", "--muted", "--accent"];
    (JSON.stringify(figure).match(/var\(--[\w-]+\)/g) || []).forEach(function (found) {
      var name = found.slice(4, -1);
      if (names.indexOf(name) < 0) names.push(name);
    });
    var palette = colours(chart.element, names, light);
    var colour = function (name) { return palette[name]; };
    figure = themed(figure, colour);
    var font = (figure.layout.font && figure.layout.font.family) || "sans-serif";
    return whenPlotly().then(function (Plotly) {
      return Plotly.toImage({ data: figure.data, layout: figure.layout, config: { staticPlot: true } },
                            { format: "svg", width: width, height: height, imageDataOnly: true });
    }).then(function (drawn) {
      var plot = new DOMParser().parseFromString(drawn, "image/svg+xml").documentElement;
      return compose(chart, plot, width, height, font, {
        bg: light ? "#ffffff" : palette["--bg"], fg: palette["--fg"], muted: palette["--muted"],
        accent: palette["--accent"],
      });
    });
  }

  function compose(chart, plot, width, height, font, ink) {
    var doc = document.implementation.createDocument(SVG_NS, "svg", null), root = doc.documentElement;
    var room = width, y = PADDING, link = deepLink(chart);
    var source = labels.source.replace("{page}", about.page).replace("{site}", about.site);
    function add(parent, name, attributes) {
      var node = doc.createElementNS(SVG_NS, name);
      for (var key in attributes) node.setAttribute(key, attributes[key]);
      return parent.appendChild(node);
    }
    function lines(parent, words, size, weight, fill) {
      var wrapped = wrap(words, size[0], weight, font, room);
      var node = add(parent, "text", { "font-size": size[0], "font-weight": weight, fill: fill });
      var baseline = y + (size[1] + size[0] * 0.7) / 2;
      wrapped.forEach(function (line, i) {
        add(node, "tspan", { x: PADDING, y: (baseline + i * size[1]).toFixed(1) }).textContent = line;
      });
      y += size[1] * wrapped.length;
    }
    var full = width + 2 * PADDING;
    root.setAttribute("font-family", font);
    root.setAttribute("color", ink.fg);
    add(root, "title", {}).textContent = chart.title;
    add(root, "desc", {}).textContent = [chart.caption, source, link, about.licence].filter(Boolean).join(" ");
    var ground = add(root, "rect", { width: "100%", height: "100%", fill: ink.bg || "#ffffff" });
    lines(root, chart.title, TITLE, "600", ink.fg);
    y += GAP;
    plot.setAttribute("x", PADDING);
    plot.setAttribute("y", y);
    plot.setAttribute("width", width);
    plot.setAttribute("height", height);
    plot.removeAttribute("style");  // Plotly's own background: the figure has one
    root.appendChild(doc.importNode(plot, true));
    y += height + GAP;
    if (chart.caption) {
      lines(root, chart.caption, CAPTION, "400", ink.fg);
      y += GAP;
    }
    lines(root, source, SOURCE, "400", ink.muted);
    lines(add(root, "a", { href: link }), link, SOURCE, "400", ink.accent);
    if (about.licence) lines(root, about.licence, SOURCE, "400", ink.muted);
    var total = Math.round(y + PADDING);
    root.setAttribute("width", full);
    root.setAttribute("height", total);
    root.setAttribute("viewBox", "0 0 " + full + " " + total);
    ground.setAttribute("width", full);
    ground.setAttribute("height", total);
    return { svg: new XMLSerializer().serializeToString(doc), width: full, height: total };
  }

  // Lines no wider than `room` px in the figure's font, broken between words; a word
  // longer than a line (an address) is broken where it must be.
  function wrap(words, size, weight, font, room) {
    measure.font = weight + " " + size + "px " + font;
    var out = [], line = "";
    function fits(candidate) { return measure.measureText(candidate).width <= room; }
    words.split(/\s+/).filter(Boolean).forEach(function (word) {
      var candidate = line ? line + " " + word : word;
      if (fits(candidate)) { line = candidate; return; }
      if (line) out.push(line);
      while (!fits(word)) {
        var cut = word.length - 1;
        while (cut > 1 && !fits(word.slice(0, cut))) cut--;
        out.push(word.slice(0, cut));
        word = word.slice(cut);
      }
      line = word;
    });
    if (line) out.push(line);
    return out;
  }

  // The SVG as a PNG at twice its size, drawn by the browser itself.
  function png(figure) {
    return new Promise(function (done, fail) {
      var image = new Image();
      image.onload = function () {
        var canvas = document.createElement("canvas");
        canvas.width = figure.width * 2;
        canvas.height = figure.height * 2;
        var context = canvas.getContext("2d");
        context.scale(2, 2);
        context.drawImage(image, 0, 0, figure.width, figure.height);
        canvas.toBlob(function (blob) { return blob ? done(blob) : fail(new Error("no PNG")); }, "image/png");
      };
      image.onerror = function () { fail(new Error("the SVG did not load as an image")); };
      image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(figure.svg);
    });
  }

  /* ---- Handing the file over ---- */

  // "yes" at the top of a tab or in a frame known to allow downloads, "no" in a sandboxed
  // frame of this page's own origin that does not, "unknown" in a frame of another origin
  // (its sandbox cannot be read): the file is saved unless "no", and opened unless "yes".
  function downloads() {
    try { if (window.self === window.top) return "yes"; } catch (err) { /* a frame */ }
    var frame = null;
    try { frame = window.frameElement; } catch (err) { /* another origin */ }
    if (!frame) return "unknown";
    return !frame.hasAttribute("sandbox") || frame.sandbox.contains("allow-downloads") ? "yes" : "no";
  }

  function deliver(panel, blob, name, alt) {
    var status = panel.querySelector("[role=status]"), may = downloads();
    var old = panel.querySelector(".figure-opened");
    if (old) old.remove();
    if (may !== "no") {
      var url = URL.createObjectURL(blob), link = document.createElement("a");
      link.href = url;
      link.download = name;
      link.hidden = true;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    }
    status.textContent = labels.saved.replace("{file}", name);
    if (may === "yes") return Promise.resolve();
    // Opened in the page, as a data: address, which any frame can show and save.
    return new Promise(function (done) {
      var reader = new FileReader();
      reader.onload = function () {
        var opened = document.createElement("figure"), image = document.createElement("img");
        opened.className = "figure-opened";
        image.src = reader.result;
        image.alt = alt;
        var note = document.createElement("figcaption");
        note.textContent = labels.opened.replace("{file}", name);
        opened.appendChild(note);
        opened.appendChild(image);
        panel.appendChild(opened);
        status.textContent = labels.opened.replace("{file}", name);
        done();
      };
      reader.readAsDataURL(blob);
    });
  }

  /* ---- The panel under the button ---- */

  var STYLE = ".figure-panel{margin-top:.5rem;font-size:.9375rem}" +
    ".figure-panel label{display:inline-flex;align-items:center;gap:.375rem;min-height:1.5rem}" +
    ".figure-actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0}" +
    ".figure-actions button{font:inherit;font-weight:600;min-height:2.25rem;padding:.25rem .875rem;" +
    "border-radius:.375rem;cursor:pointer;border:1px solid var(--accent);background:var(--accent);" +
    "color:var(--accent-fg)}" +
    ".figure-panel [role=status]{margin:0;color:var(--muted)}" +
    ".figure-opened{margin:.5rem 0 0}.figure-opened img{display:block;max-width:100%;height:auto;margin-top:.5rem;" +
    "border:1px solid var(--border)}";

  function panelOf(button) {
    var id = button.getAttribute("aria-controls");
    if (id) return document.getElementById(id);
    if (!panels) {
      var style = document.createElement("style");
      style.textContent = STYLE;
      document.head.appendChild(style);
    }
    var chart = chartOf(button), panel = document.createElement("div");
    panel.id = "figure-panel-" + ++panels;
    panel.className = "figure-panel";
    panel.hidden = true;
    panel.setAttribute("role", "group");
    panel.setAttribute("aria-label", button.textContent + ": " + chart.title);
    var option = document.createElement("label"), light = document.createElement("input");
    light.type = "checkbox";
    option.appendChild(light);
    option.appendChild(document.createTextNode(" " + labels.light));
    var actions = document.createElement("p");
    actions.className = "figure-actions";
    var status = document.createElement("p");
    status.setAttribute("role", "status");
    panel.appendChild(option);
    panel.appendChild(actions);
    panel.appendChild(status);
    var busy = false;
    [["svg", labels.svg], ["png", labels.png]].forEach(function (format) {
      var action = document.createElement("button");
      action.type = "button";
      action.textContent = format[1];
      action.addEventListener("click", function () {
        if (busy) return;
        busy = true;
        status.textContent = labels.making;
        var shown = chartOf(button);  // the caption and state as they are now
        var name = about.slug + "-" + shown.section.id + "-chart-" + (shown.index + 1) + "." + format[0];
        var alt = shown.title + (shown.caption ? ": " + shown.caption : "");
        make(shown, light.checked).then(function (figure) {
          return format[0] === "svg" ? new Blob([figure.svg], { type: "image/svg+xml" }) : png(figure);
        }).then(function (blob) {
          return deliver(panel, blob, name, alt);
        }).catch(function () {
          status.textContent = labels.failed;
        }).then(function () { busy = false; });
      });
      actions.appendChild(action);
    });
    button.setAttribute("aria-controls", panel.id);
    button.parentNode.insertBefore(panel, button.nextSibling);
    return panel;
  }

  function toggle(button) {
    var panel = panelOf(button), open = button.getAttribute("aria-expanded") !== "true";
    panel.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
  }

  lensa.figure = { toggle: toggle };
}
