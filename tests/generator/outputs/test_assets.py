"""Which plotly.js the build ships, and that it can draw every chart kind."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.outputs import assets

from generator.render import charts
from generator.kinds.explainer.content import Chart
from generator.kinds.explainer.schema import CHART as CHART_OPTIONS
from generator.errors import BuildError

from tests.conftest import FIXTURES, ROOT

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


def test_no_bundle_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(assets, "plotly_bundle", lambda: None)
    with pytest.raises(BuildError, match="npm ci.*plotly-bundle/bundle.js"):
        assets.find_plotly_js()


def test_the_shipped_name_does_not_depend_on_the_bundle(tmp_path):
    from generator.render.theme import load_theme

    theme = load_theme(ROOT / "themes", "default", FIXTURES / "tiny" / "content" / "site.toml")
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


def test_the_shipped_bundle_is_built_again_byte_for_byte_from_the_pinned_plotly_js(tmp_path):
    """plotly-bundle/bundle.js makes the same file from the same pinned packages, and it
    is the plotly.js that package-lock.json pins, without the attribute descriptions."""
    import json
    import subprocess

    lock = json.loads((ROOT / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/plotly.js"]["version"]
    shipped = assets.find_plotly_js()
    done = subprocess.run(["node", str(ROOT / "plotly-bundle" / "bundle.js"), str(tmp_path / "again")],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "again" / shipped.name).read_bytes() == shipped.read_bytes()
    text = shipped.read_text(encoding="utf-8")
    assert text.startswith(f"/*! plotly.js v{pinned}, ")
    # The axis attributes' documentation, the largest of the descriptions, is left out.
    assert "Sets the step in-between ticks on this axis" not in text
    assert json.loads((shipped.parent / "package.json").read_text())["version"] == pinned


def test_the_themes_scripts_and_styles_ship_without_comments_and_plotly_as_it_is(tmp_path):
    script = tmp_path / "runtime.js"
    script.write_text("/* Why this runs. */\nvar answer = 'a // not a comment';  // the answer\n")
    sheet = tmp_path / "style.css"
    sheet.write_text("/* Colours. */\nbody {\n  color: black;\n}\n")
    plotly = tmp_path / "plotly.min.js"
    plotly.write_text("/* plotly.js v4 */ var Plotly = {};")
    memo: dict = {}
    files = assets.shipped({"runtime.js": script, "style.css": sheet, assets.PLOTLY_NAME: plotly}, memo)
    assert files["runtime.js"] == b"var answer='a // not a comment';\n"
    assert files["style.css"] == b"body{color:black}\n"
    assert files[assets.PLOTLY_NAME] == plotly, "plotly.js goes out as the file it is"
    assert assets.shipped({"runtime.js": script}, memo)["runtime.js"] is files["runtime.js"], "kept while unchanged"
