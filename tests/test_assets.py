"""Which plotly.js the build ships, and that it can draw every chart kind."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from generator.outputs import assets

from generator.render import charts
from generator.kinds.explainer.content import Chart
from generator.kinds.explainer.schema import CHART as CHART_OPTIONS
from generator.errors import BuildError

from .conftest import ROOT

# One valid data set per chart kind (both forms of `blocks`), so every trace type
# and layout part a kind can emit is exercised.
SAMPLES = {
    "bar": [{"x": ["a", "b"], "y": [0.25, 0.75], "highlight": 1, "text": ["25%", "75%"]},
            {"x": ["a", "b"], "y": [[0.5, -0.25], [0.1, 0.2]], "series": ["s", "t"], "threshold": 0.1,
             "faded": [False, True]}],
    "blocks": [{"sizes": [2, 3], "labels": ["A", "B"]},
               {"sizes": [2, 3], "labels": ["A", "B"], "values": [0.1, 0.2, 0.3, 0.4, 0.5]}],
    "heatmap": [{"z": [[0.2, 0.8], [0.6, 0.4]], "x": ["a", "b"], "y": ["a", "b"], "highlight_row": 0}],
    "heatmap_grid": [{"z": [[[0.2, 0.8], [0.6, 0.4]]] * 3, "x": ["a", "b"], "y": ["a", "b"],
                      "titles": ["1", "2", "3"], "highlight": 1, "highlight_row": 1}],
    "line": [{"x": [0, 1, 2], "y": [[0.5, -0.5, 0.2], [0.1, 0.2, 0.3]], "series": ["a", "b"], "rule": 1}],
    "scatter": [{"x": [1.0, -0.5], "y": [0.5, 1.0], "labels": ["p", "q"], "arrows": True, "highlight": 0}],
    "diagram": [{"boxes": ["in", "out"], "at": [[0, 1], [0, 0]], "arrows": [[0, 1]], "highlight": [0, 1]}],
}
CHART = Chart(**{**{key: option.default for key, option in CHART_OPTIONS.items()},
                 "kind": "", "title": "Title", "x_title": "x", "y_title": "y", "height": 300})


def sample_figures() -> list[dict]:
    figures = []
    for kind, samples in SAMPLES.items():
        for data in samples:
            module = charts.get(kind)
            assert charts.check(module, data, CHART) == [], (kind, charts.check(module, data, CHART))
            figures.append(module.figure(CHART, data))
    return figures


def test_every_chart_kind_has_samples():
    assert set(SAMPLES) == set(charts.KINDS)


def test_partial_bundle_is_chosen_when_installed(tmp_path):
    bundle = tmp_path / assets.PARTIAL_BUNDLE
    bundle.parent.mkdir(parents=True)
    bundle.write_text("/* partial */")
    assert assets.find_plotly_js(tmp_path) == bundle


def test_full_bundle_is_the_fallback_without_node_modules(tmp_path):
    chosen = assets.find_plotly_js(tmp_path / "node_modules")
    assert chosen == assets.full_plotly_js()
    assert chosen.parts[-3:] == ("plotly", "package_data", "plotly.min.js")


def test_no_bundle_at_all_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(BuildError, match="npm ci"):
        assets.find_plotly_js(tmp_path)


def test_the_shipped_name_does_not_depend_on_the_bundle(tmp_path):
    from generator.render.theme import load_theme

    theme = load_theme(ROOT / "themes", "default", ROOT / "content" / "site.toml")
    files = assets.collect_assets(theme)
    assert files[assets.PLOTLY_NAME] == assets.find_plotly_js()
    assert "plotly.min.js" in assets.versioned_names(files)["plotly.min.js"]


def test_chosen_bundle_draws_every_chart_kind(browser, tmp_path):
    """Every trace type and layout part the chart kinds emit is in the shipped bundle,
    and each sample figure draws without a console error."""
    figures = sample_figures()
    page = browser.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.set_content("<!doctype html><body></body>")
        page.add_script_tag(path=str(assets.find_plotly_js()))
        schema = page.evaluate("""() => {
            const s = Plotly.PlotSchema.get();
            return {traces: Object.keys(s.traces), layout: Object.keys(s.layout.layoutAttributes)};
        }""")
        used = {trace["type"] for figure in figures for trace in figure["data"]}
        assert used <= set(schema["traces"]), used - set(schema["traces"])
        parts = {key for figure in figures for key in ("shapes", "annotations") if figure["layout"].get(key)}
        assert parts <= set(schema["layout"])
        drawn = page.evaluate("""async (figures) => {
            let count = 0;
            for (const figure of figures) {
                const div = document.createElement("div");
                document.body.appendChild(div);
                await Plotly.react(div, figure.data, figure.layout);
                // Marks are traces, or shapes (blocks are drawn as labelled shapes).
                count += div.querySelectorAll(".trace, .bars .point, .hm, image, .shapelayer path").length > 0 ? 1 : 0;
            }
            return count;
        }""", figures)
        assert drawn == len(figures)
        assert errors == []
    finally:
        page.close()


@pytest.mark.skipif(not (ROOT / "node_modules" / assets.PARTIAL_BUNDLE).is_file(),
                    reason="node_modules/ is not installed (npm ci)")
def test_installed_partial_bundle_matches_the_pinned_version():
    import json

    lock = json.loads((ROOT / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/plotly.js-cartesian-dist-min"]["version"]
    head = (ROOT / "node_modules" / assets.PARTIAL_BUNDLE).read_text(errors="replace")[:200]
    assert f"v{pinned}" in head
    assert assets.find_plotly_js() == ROOT / "node_modules" / assets.PARTIAL_BUNDLE


def test_style_sheets_are_served_without_their_comments(tmp_path):
    sheet = tmp_path / "theme.css"
    sheet.write_text('/* about the theme */\n:root {\n  --x: #fff; /* white */\n}\n'
                     'a::after { content: "/* kept */"; }\n.a/**/.b { x: 1px/**/solid }\n.c { y: 1 } /* open', "utf-8")
    served = assets.served(sheet).decode("utf-8")
    assert served == (':root {\n  --x: #fff;\n}\na::after { content: "/* kept */"; }\n'
                      ".a/**/.b { x: 1px/**/solid }\n.c { y: 1 }\n")
    script = tmp_path / "theme.js"
    script.write_text("/* a script is served as it is */", "utf-8")
    assert assets.served(script) == script


def test_the_served_style_sheet_keeps_every_rule(built_site):
    out, _ = built_site
    source = (ROOT / "themes" / "default" / "static" / "style.css").read_text("utf-8")
    served = (out / "assets" / "style.css").read_text("utf-8")
    assert "/*" not in served and len(served) < len(source)
    rules = lambda css: re.findall(r"([^{}]+)\{", re.sub(r"/\*.*?\*/", "", css, flags=re.S))  # noqa: E731
    assert [" ".join(r.split()) for r in rules(served)] == [" ".join(r.split()) for r in rules(source)]
