"""The chart kinds, drawn from the fixture site tests/fixtures/charts (a step
for every kind and variant): what the build makes of each (golden figures and
tables, ranges fixed across states, no value clipped or recoloured silently),
the errors and warnings bad data gets, and, in Chromium, each kind drawn,
its table matching the data, its colours resolved in dark mode, its labels
apart at 360 px (on every page of the real site too), and axe, the Nu
checker and the keyboard content with it in both themes."""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import build
from generator.compute.states import compute_site
from generator.errors import ContentError, StrictModeError
from generator.build import read_site
from generator.render import charts
from generator.compute.precision import written_data

from tests.conftest import FIXTURES, ROOT, THEME_NAMES, THEMES, built_pages, draw_every_chart, open_data_tables
from tests.pictures import colour_bar, png_pixels

CONTENT = FIXTURES / "charts" / "content"
EXPECTED = FIXTURES / "charts" / "expected" / "figures.json"
SLUG = "chart-kinds"
MINUS = "\u2212"


@pytest.fixture(scope="module")
def fixture_steps():
    site = read_site(CONTENT)
    return site, compute_site(site)[SLUG]


def step_named(steps, compute: str):
    return next(s for s in steps if s.step.compute == compute)


def default_state(step):
    return step.by_key(step.default_key)


# --- What the build makes --------------------------------------------------------------------

def test_the_fixture_has_a_step_for_every_kind_and_variant(fixture_steps):
    _, steps = fixture_steps
    kinds = {s.step.chart.kind for s in steps}
    assert kinds == set(charts.KINDS)
    data = {s.step.compute: default_state(s).chart for s in steps}
    options = {s.step.compute: s.step.chart for s in steps}
    assert len(data["signed_line"]["series"]) == 2 and min(map(min, data["signed_line"]["y"])) < 0
    assert data["signed_line"]["rule"] is not None
    assert data["vectors"]["arrows"] is True
    assert options["diverging"].scale == "diverging" and min(map(min, data["diverging"]["z"])) < 0
    assert any(map(any, data["masked"]["mask"]))
    assert len(data["rectangular"]["x"]) != len(data["rectangular"]["y"])
    assert len(data["large"]["z"]) == 32 and len(data["large"]["z"][0]) == 32
    assert any(any(map(any, m)) for m in data["grid"]["mask"])
    assert min(data["signed_bars"]["y"]) < 0 and data["signed_bars"]["threshold"] is not None
    assert any(data["top_k"]["faded"])
    assert options["horizontal"].horizontal and options["stacked"].stacked
    assert data["diagram"]["highlight"] and data["diagram"]["arrows"]
    assert data["strip"]["values"] and data["chosen_token"]["highlight"] is not None
    assert options["log_axes"].x_scale == options["log_axes"].y_scale == "log"
    assert options["log_bars"].y_scale == "log" and len(data["log_bars"]["series"]) == 2
    assert data["path"]["path"][0] and not data["path"]["path"][-1] and "" in data["path"]["labels"]
    # Charts that hold one layout whatever changes between states (charts/held.py), and one that rescales.
    lengths = {len(s.chart["x"]) for s in step_named(steps, "growing").states}
    assert len(lengths) > 1, "a matrix that grows: its frame is the longest state's"
    assert len({tuple(s.chart["x"]) for s in step_named(steps, "relabelled").states}) > 1
    assert options["rescaled_bars"].rescale and not options["growing"].rescale
    assert len({len(s.chart["x"]) for s in step_named(steps, "growing_line").states}) > 1


def _figures_and_tables(steps, labels):
    result = {}
    for step in steps:
        key = step.default_key
        result[f"{step.step.number:02d} {step.step.compute}"] = {
            "figure": step.figures[0][key], "table": step.tables(labels)[0][key]}
    return result


def test_the_fixture_draws_exactly_as_committed(fixture_steps):
    """Golden figures and tables of every step's default state: any change to what
    a kind draws shows here as a diff, reviewed in the commit that updates
    tests/fixtures/charts/expected (LENSA_UPDATE_GOLDEN=1 rewrites it)."""
    site, steps = fixture_steps
    # As the page writes them: floats at the build's precision, not their last bits (which a CPU's
    # maths library may round otherwise).
    found = json.loads(json.dumps(written_data(_figures_and_tables(steps, site.config.labels)), ensure_ascii=False))
    if os.environ.get("LENSA_UPDATE_GOLDEN"):
        EXPECTED.parent.mkdir(parents=True, exist_ok=True)
        EXPECTED.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    expected = json.loads(EXPECTED.read_text("utf-8"))
    assert sorted(found) == sorted(expected)
    for name in sorted(found):
        assert found[name] == expected[name], f"step {name} draws differently from the golden figure"


def _value_axis(figure, kind, chart):
    layout = figure["layout"]
    if kind == "bar" and chart.horizontal:
        return layout["xaxis"]["range"]
    return layout["yaxis"]["range"]


def test_axis_and_colour_ranges_stay_the_same_in_every_state_and_hold_every_value(fixture_steps):
    _, steps = fixture_steps
    from generator.render.charts.bar import _stack_ends
    from generator.render.charts.common import span_of

    for step in steps:
        chart, kind = step.step.chart, step.step.chart.kind
        figures = [step.figures[0][s.key] for s in step.states]
        if kind in ("bar", "line"):
            spans = {tuple(_value_axis(f, kind, chart)) for f in figures}
            # One axis for every state, unless the chart rescales (each state's axis its own).
            assert len(spans) == (len(figures) if chart.rescale else 1), \
                f"{step.step.compute}: the value axis moves between states: {spans}"
            for state, figure in zip(step.states, figures):
                low, high = _value_axis(figure, kind, chart)
                if chart.y_scale == "log":  # Plotly's range of a log axis is in powers of ten
                    low, high = 10 ** low, 10 ** high
                series = state.chart["y"] if state.chart.get("series") else [state.chart["y"]]
                found = span_of(_stack_ends(series) if chart.stacked else series)
                assert low <= found[0] and found[1] <= high, f"{step.step.compute} {state.key}: a value is clipped"
        if kind == "scatter":
            spans = {(tuple(f["layout"]["xaxis"]["range"]), tuple(f["layout"]["yaxis"]["range"])) for f in figures}
            assert len(spans) == 1
            (x0, x1), (y0, y1) = spans.pop()
            if "scaleanchor" in figures[0]["layout"]["yaxis"]:
                assert x1 - x0 == pytest.approx(y1 - y0), "equal scales: both axes as long"
            for state in step.states:
                assert all(x0 < v < x1 for v in state.chart["x"]) and all(y0 < v < y1 for v in state.chart["y"])
        if kind in ("heatmap", "heatmap_grid"):
            resolved = charts.resolved(chart, [s.chart for s in step.states])
            low, high = resolved.z_range
            for state in step.states:
                grids = state.chart["z"] if kind == "heatmap_grid" else [state.chart["z"]]
                masks = state.chart.get("mask") or ([None] * len(grids) if kind == "heatmap_grid" else None)
                masks = masks if kind == "heatmap_grid" else [masks]
                for z, mask in zip(grids, masks):
                    for i, row in enumerate(z):
                        for j, value in enumerate(row):
                            if mask is None or not mask[i][j]:
                                assert low <= value <= high, f"{step.step.compute}: {value} is clipped"
            bars = {json.dumps(colour_bar(f)) for f in figures}
            assert len(bars) == 1, f"{step.step.compute}: one colour bar in every state"
            values = colour_bar(figures[0])
            if values:
                numbers = [float(v.replace("−", "-")) for v in values[1]]
                assert low <= min(numbers) and max(numbers) <= high, "the colour bar's values are on the scale"
        if kind == "blocks":
            assert len({json.dumps(f["data"]) for f in figures}) == 1, "no trace changes"
            assert len({json.dumps(colour_bar(f)) for f in figures}) == 1, "the strip's colour bar is the same"


def test_the_diverging_scale_centres_zero_over_every_state(fixture_steps):
    _, steps = fixture_steps
    step = step_named(steps, "diverging")
    low, high = charts.resolved(step.step.chart, [s.chart for s in step.states]).z_range
    largest = max(abs(v) for s in step.states for row in s.chart["z"] for v in row)
    assert low == -high and largest <= high < largest + 1e-4  # rounded outwards, never cutting a value


def test_tables_use_the_minus_sign_and_name_masked_cells(fixture_steps):
    site, steps = fixture_steps
    labels = site.config.labels
    for step in steps:
        for key, table in step.tables(labels)[0].items():
            for row in table["rows"]:
                for cell in row:
                    assert not re.search(r"(^|\s)-\d", cell), f"{step.step.compute} {key}: {cell!r} has a hyphen"
    masked = step_named(steps, "masked")
    state = default_state(masked)
    table = masked.tables(labels)[0][state.key]
    for i, row in enumerate(state.chart["z"]):
        for j, value in enumerate(row):
            cell = table["rows"][i][j + 1]
            if state.chart["mask"][i][j]:
                assert cell == labels["data_masked"] == "masked"
            else:
                assert cell == f"{value:.2f}".replace("-", MINUS), "a real zero is a number, not masked"
    assert table["rows"][5][1] == "0.00"
    bars = step_named(steps, "signed_bars")
    rows = bars.tables(labels)[0][bars.default_key]["rows"]
    assert any(cell.startswith(MINUS) for row in rows for cell in row[1:])
    assert rows[-1] == ["threshold 0.5", "0.50"]


def test_faded_bars_are_greyed_and_the_table_says_removed(fixture_steps):
    site, steps = fixture_steps
    step = step_named(steps, "top_k")
    state = step.by_key("0")  # top-k 1: five tokens cut
    figure, table = step.figures[0][state.key], step.tables(site.config.labels)[0][state.key]
    bars = [s for s in figure["layout"]["shapes"] if s["layer"] == "between"]
    assert [bar["fillcolor"] == "var(--chart-grid)" for bar in bars] == state.chart["faded"]
    assert [bar["line"].get("dash") == "dot" for bar in bars] == state.chart["faded"], "told apart without colour"
    assert [row[-1] == "removed" for row in table["rows"]] == state.chart["faded"]


def test_the_diagram_lists_its_boxes_and_the_highlighted_path(fixture_steps):
    site, steps = fixture_steps
    step = step_named(steps, "diagram")
    state = step.by_key("2")  # the cross-attention path
    table = step.tables(site.config.labels)[0][state.key]
    boxes = state.chart["boxes"]
    assert [row[0] for row in table["rows"][:-1]] == boxes
    assert table["rows"][-1] == ["Highlighted path", "Encoder → Cross-attention → Linear + softmax", ""]
    assert table["rows"][4][1] == "highlighted (2 / 3)" and table["rows"][1][2] == "Cross-attention"
    notes = step.figures[0][state.key]["layout"]["annotations"]
    assert [note["text"].replace("<br>", " ").replace("- ", "-") for note in notes] == boxes
    one, other = step.figures[0]["0"], step.figures[0]["2"]
    assert one["data"] == other["data"] and one["layout"]["annotations"] == other["layout"]["annotations"], \
        "another path changes shapes only: the labels keep their text and colour"


# --- Errors and warnings ---------------------------------------------------------------------

def _model_with(tmp_site, old: str, new: str, files: dict | None = None) -> Path:
    content = tmp_site(files or {}, base="charts")
    model = content / SLUG / "model.py"
    text = model.read_text("utf-8")
    assert old in text
    model.write_text(text.replace(old, new), encoding="utf-8")
    return content


def _error(content) -> str:
    with pytest.raises(ContentError) as caught:
        build(content, None, THEMES)
    [problem] = caught.value.problems
    return problem


def test_a_short_series_is_blamed_on_y_with_its_step_and_state(tmp_site):
    content = _model_with(tmp_site, '"y": [pe[:, 2 * pair].tolist(),', '"y": [pe[:-1, 2 * pair].tolist(),')
    problem = _error(content)
    assert Path(problem.path).name == "01-signed-line.md" and problem.field == "chart.y"
    assert "step 1 (signed_line)" in problem.message and "pair=0, position=3" in problem.message
    assert "'y[0]' has 31 values but 'x' has 32" in problem.message


def test_a_short_y_of_bars_is_a_problem_with_y_not_x(tmp_site):
    content = _model_with(tmp_site, '"chart": {"x": TOKENS, "y": scores.tolist(),',
                          '"chart": {"x": TOKENS, "y": scores.tolist()[:-1],')
    problem = _error(content)
    assert Path(problem.path).name == "09-signed-bars.md" and problem.field == "chart.y"
    assert "query='The'" in problem.message and "'y' has 5 values but 'x' has 6 labels" in problem.message


def test_a_value_outside_a_declared_range_is_an_error(tmp_site):
    content = _model_with(tmp_site, "return {\"values\": {\"row\": row,", "similarity[0, 0] = 1.5 if row == 20 else 1\n"
                          "    return {\"values\": {\"row\": row,")
    problem = _error(content)
    assert Path(problem.path).name == "07-large.md" and problem.field == "chart.z"
    assert "row=20" in problem.message and "z[0][0] = 1.5 is outside z_range [−1, 1]" in problem.message


def test_a_mask_of_the_wrong_shape_is_an_error(tmp_site):
    content = _model_with(tmp_site, '"mask": mask.tolist(),', '"mask": mask[:, :5].tolist(),')
    problem = _error(content)
    assert Path(problem.path).name == "05-masked.md" and problem.field == "chart.mask"
    assert "query='The'" in problem.message and "'mask' must have the shape of 'z', 6×6, found 6×5" in problem.message


def test_a_line_value_outside_its_declared_y_range_is_an_error(tmp_site):
    content = _model_with(tmp_site, "values = np.cos(np.arange(6) * (pair + 1) * 0.7) * 2",
                          "values = np.cos(np.arange(6) * (pair + 1) * 0.7) * (2 + pair)")
    problem = _error(content)
    assert Path(problem.path).name == "02-layer-line.md" and problem.field == "chart.y"
    assert "pair=1" in problem.message and "outside y_range [−2.5, 2.5]" in problem.message


def test_a_bad_declared_range_is_a_schema_error(tmp_site):
    content = tmp_site(base="charts")
    step = content / SLUG / "steps" / "02-layer-line.md"
    step.write_text(step.read_text("utf-8").replace("y_range = [-2.5, 2.5]", "y_range = [2.5, -2.5]"), "utf-8")
    with pytest.raises(ContentError) as caught:
        build(content, None, THEMES)
    [problem] = caught.value.problems
    assert problem.field == "chart.y_range" and "low < high" in problem.message


def test_a_value_the_scale_would_clip_is_a_warning_that_strict_refuses(tmp_site):
    """On the sequential scale's default 0 to 1, a larger value would be drawn in the
    end colour: the build warns (naming the step, the key and the state), and
    check --strict fails."""
    content = _model_with(tmp_site, "weights[5, 0] = 0.0", "weights[5, 0] = 0.0\n    weights[0, 0] = 1.25")
    warnings = []
    build(content, None, THEMES, warnings=warnings)
    [warning] = warnings
    assert Path(warning.path).name == "05-masked.md" and warning.field == "chart.z"
    assert "query='The'" in warning.message and "(and 2 other states)" in warning.message
    assert "z[0][0] = 1.25 is outside the sequential scale's default 0 to 1" in warning.message
    with pytest.raises(StrictModeError):
        build(content, None, THEMES, strict=True)
    run = subprocess.run([sys.executable, "-m", "generator", "check", "--strict", "--content", str(content)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1
    assert "05-masked.md: chart.z:" in run.stdout + run.stderr


def test_declaring_the_range_or_the_diverging_scale_clears_the_warning(tmp_site):
    content = _model_with(tmp_site, "weights[5, 0] = 0.0", "weights[5, 0] = 0.0\n    weights[0, 0] = 1.25")
    step = content / SLUG / "steps" / "05-masked.md"
    step.write_text(step.read_text("utf-8").replace('kind = "heatmap"', 'kind = "heatmap"\nz_range = "auto"'), "utf-8")
    warnings = []
    result = build(content, None, THEMES, warnings=warnings, strict=True)
    assert warnings == []
    states = result.computed[SLUG][4]
    assert charts.resolved(states.step.chart, [s.chart for s in states.states]).z_range[1] == 1.25


# --- In the browser --------------------------------------------------------------------------

@pytest.fixture(scope="module", params=THEME_NAMES)
def fixture_site(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"charts-{request.param}") / "build"
    build(CONTENT, out, THEMES, request.param)
    return request.param, out


@pytest.fixture(scope="module")
def fixture_default(tmp_path_factory):
    out = tmp_path_factory.mktemp("charts") / "build"
    build(CONTENT, out, THEMES)
    return out


def open_chart_page(browser, out, scheme="light", width=1280):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((out / SLUG / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    draw_every_chart(page)
    return context, page, errors


def test_each_kind_draws_and_its_table_matches_its_data(fixture_default, browser, fixture_steps):
    site, steps = fixture_steps
    context, page, errors = open_chart_page(browser, fixture_default)
    for step in steps:
        section = page.get_by_role("region", name=step.step.title, exact=True)
        chart = section.locator("[data-chart]")
        assert chart.locator(".main-svg").count() > 0, f"{step.step.compute} is not drawn"
        drawn = chart.evaluate("c => ({shapes: (c.layout.shapes || []).length, images: (c.layout.images || []).length,"
                               " traces: c.data.length})")
        figure = step.figures[0][step.default_key]
        assert drawn == {"shapes": len(figure["layout"].get("shapes", [])),
                         "images": len(figure["layout"].get("images", [])), "traces": len(figure["data"])}
        section.get_by_text(site.config.labels["show_data"], exact=True).click()
        table = section.get_by_role("table")
        shown = table.evaluate("t => [...t.rows].map(r => [...r.cells].map(c => c.textContent))")
        expected = step.tables(site.config.labels)[0][step.default_key]
        assert shown == [expected["columns"]] + expected["rows"], f"{step.step.compute}: the table differs"
    assert errors == []
    context.close()


def test_a_click_keeps_every_range_and_updates_the_table(fixture_default, browser, fixture_steps):
    """Plotly's own ranges stay put at a click, but for a chart that declares rescale, whose
    page then says the scale changed; the table follows the click."""
    site, steps = fixture_steps
    context, page, errors = open_chart_page(browser, fixture_default)
    for index, step in enumerate(steps):
        control = step.step.controls[0]
        section = page.get_by_role("region", name=step.step.title, exact=True)
        chart = section.locator("[data-chart]")
        ranges = "c => JSON.stringify(['xaxis', 'yaxis'].map(a => c._fullLayout[a] && c._fullLayout[a].range))"
        before = chart.evaluate(ranges)
        other = next(v for v in control.values if v != control.default)
        section.get_by_role("group", name=control.label).get_by_role(
            "button", name=control.button.replace("{value}", str(other)), exact=True).click()
        page.wait_for_function("i => window.lensa.runtime.steps[i].drawn === window.lensa.runtime.steps[i].key",
                               arg=index)
        if step.step.chart.rescale:  # its axes follow the state, and the page says so
            assert chart.evaluate(ranges) != before, f"{step.step.compute}: declares rescale, holds still"
            note = section.locator("[data-rescaled]")
            note.get_by_text(site.config.labels["chart_rescaled"]).wait_for()
            assert note.get_attribute("role") == "status"
        else:
            assert chart.evaluate(ranges) == before, f"{step.step.compute}: an axis moved"
        key = page.evaluate("i => window.lensa.runtime.steps[i].key", index)
        section.get_by_text(site.config.labels["show_data"], exact=True).click()
        shown = section.get_by_role("table").evaluate("t => [...t.tBodies[0].rows].map(r => r.cells[1].textContent)")
        assert shown == [row[1] for row in step.tables(site.config.labels)[0][key]["rows"]]
    assert errors == []
    context.close()


@pytest.mark.parametrize("compute, cell", [("large", (7, 20)), ("masked", (1, 4)), ("masked", (4, 2))])
def test_hovering_a_matrix_cell_names_it_as_its_table_does(fixture_default, browser, fixture_steps, compute, cell):
    """A matrix drawn as a picture has no trace for Plotly to hover: the runtime names
    the cell under the pointer, its row, column and value (or "masked"), from the table."""
    site, steps = fixture_steps
    index, step = next((i, s) for i, s in enumerate(steps) if s.step.compute == compute)
    table = step.tables(site.config.labels)[0][step.default_key]
    row, column = cell
    context, page, errors = open_chart_page(browser, fixture_default)
    section = page.get_by_role("region", name=step.step.title, exact=True)
    section.scroll_into_view_if_needed()
    picture = section.locator("[data-chart] .imagelayer image").first.bounding_box()
    rows, columns = len(table["rows"]), len(table["columns"]) - 1
    page.mouse.move(picture["x"] + (column + 0.5) / columns * picture["width"],
                    picture["y"] + (row + 0.5) / rows * picture["height"])
    label = section.locator(".cell-hover")
    label.wait_for(state="visible")
    expected = f"{table['rows'][row][0]} → {table['columns'][column + 1]}: {table['rows'][row][column + 1]}"
    assert label.inner_text() == expected
    assert label.get_attribute("aria-hidden") is None and section.locator("[data-chart]").get_attribute(
        "aria-hidden") == "true", "for the eye only: the table is the chart's text"
    page.mouse.move(picture["x"] - 40, picture["y"] - 40)  # off the cells
    label.wait_for(state="hidden")
    assert errors == []
    context.close()


def row_label(table: dict, row: int) -> str:
    """What pointing at a row's bar or x shows: its header and value, or its header and a
    line per column that has a value."""
    header, *cells = table["rows"][row]
    if len(cells) == 1:
        return f"{header}: {cells[0]}"
    return "\n".join([header] + [f"{name}: {cell}" for name, cell in zip(table["columns"][1:], cells) if cell])


@pytest.mark.parametrize("compute, row", [("signed_line", 9), ("layer_line", 2), ("signed_bars", 4),
                                          ("top_k", 5), ("horizontal", 3), ("grouped", 1), ("log_axes", 7)])
def test_pointing_at_a_bar_or_a_line_shows_its_row_of_the_table(fixture_default, browser, fixture_steps,
                                                                compute, row):
    site, steps = fixture_steps
    step = step_named(steps, compute)
    table = step.tables(site.config.labels)[0][step.default_key]
    layout = step.figures[0][step.default_key]["layout"]
    along = "yaxis" if compute == "horizontal" else "xaxis"
    low, high = layout[along]["range"]
    position = float(table["rows"][row][0]) if compute in ("signed_line", "log_axes") else row
    if layout[along].get("type") == "log":  # Plotly's range of a log axis is in powers of ten
        position = math.log10(position)
    share = (position - low) / (high - low)
    context, page, errors = open_chart_page(browser, fixture_default)
    section = page.get_by_role("region", name=step.step.title, exact=True)
    section.scroll_into_view_if_needed()
    plot = section.locator("[data-chart] .nsewdrag").first.bounding_box()  # Plotly's plot area
    if along == "xaxis":
        page.mouse.move(plot["x"] + share * plot["width"], plot["y"] + plot["height"] * 0.3)
    else:  # the reversed axis of horizontal bars: its range runs from the bottom up
        page.mouse.move(plot["x"] + plot["width"] * 0.3, plot["y"] + (1 - share) * plot["height"])
    label = section.locator(".cell-hover")
    label.wait_for(state="visible")
    assert label.inner_text() == row_label(table, row)
    assert errors == []
    context.close()


def test_dark_mode_colours_resolve(fixture_default, browser):
    """Every theme colour a chart names ('var(--chart-…)') reaches Plotly as a colour,
    the dark one in dark mode, the light one in light mode."""
    colours = {}
    for scheme in ("light", "dark"):
        context, page, errors = open_chart_page(browser, fixture_default, scheme)
        found = page.evaluate("""() => [...document.querySelectorAll('[data-chart]')].map(c => ({
            unresolved: JSON.stringify([c.data, c.layout]).includes('var(--'),
            text: c._fullLayout.font.color,
            css: getComputedStyle(c).getPropertyValue('--chart-text').trim(),
            texts: [...c.querySelectorAll('text')].map(t => getComputedStyle(t).fill)}))""")
        assert errors == []
        for chart in found:
            assert not chart["unresolved"]
            assert chart["text"] not in ("", None)
        colours[scheme] = {chart["text"] for chart in found}
        context.close()
    assert colours["light"] != colours["dark"] and len(colours["light"]) == len(colours["dark"]) == 1


OVERLAPS = (Path(__file__).parents[1] / "chart_labels.js").read_text("utf-8")


def labels_apart_at_360(browser, path: Path) -> list[str]:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(path.as_uri())
    problems = []
    if page.locator("[data-chart]").count():
        draw_every_chart(page)  # (a phone's page runs plotly.js only when a chart needs it: this asks)
        # Every chart in one look (a round trip per chart costs more than the check).
        found = page.locator("[data-chart]").evaluate_all(f"charts => charts.map(chart => ({OVERLAPS})(chart))")
        problems += [f"{path.parent.name}, chart {index + 1}: {p}" for index, ps in enumerate(found) for p in ps]
    context.close()
    return problems


def test_at_360px_no_two_chart_labels_overlap_and_none_leaves_its_chart(fixture_default, built_site, browser):
    out, _ = built_site
    # Every page of the site; embeds draw the same figures at the same width, so they are left out.
    pages = [fixture_default / SLUG / "index.html"] + [p for p in built_pages(out) if "embed" not in p.parts]
    problems = [p for path in pages for p in labels_apart_at_360(browser, path)]
    assert problems == []


def test_the_label_check_sees_overlaps_and_labels_past_the_edge(browser):
    """The check itself, on a chart of three labels: two on top of each other, one
    past the chart's right edge, one apart."""
    context = browser.new_context(viewport={"width": 360, "height": 400})
    page = context.new_page()
    page.set_content("""<div id="c" style="width: 200px; height: 100px"><svg width="260" height="100">
        <text x="10" y="20">alpha</text><text x="14" y="22">beta</text>
        <text x="190" y="60">gamma</text><text x="10" y="80">apart</text></svg></div>""")
    problems = page.locator("#c").evaluate(OVERLAPS)
    context.close()
    assert problems == ["'gamma' leaves its chart", "'alpha' overlaps 'beta'"]


def test_axe_finds_no_serious_violations_in_either_scheme(fixture_site, browser):
    """Every kind drawn, its data tables open: axe in the light scheme, then after the
    system turns dark, as test_accessibility checks every page of the site."""
    from tests.browser.test_accessibility import AXE, COLOUR_RULES, run_axe, switch_to_dark
    theme, out = fixture_site
    context, page, errors = open_chart_page(browser, out, "light")
    open_data_tables(page)
    assert errors == []
    report = run_axe(page, str(AXE), f"{theme} (light)")
    switch_to_dark(page)
    # The page's own errors only: axe's attempts to read the stylesheets from file: are console errors.
    switch_errors = [e for e in errors if "XMLHttpRequest" not in e and "ERR_FAILED" not in e]
    report += run_axe(page, str(AXE), f"{theme} (dark)", COLOUR_RULES)
    assert switch_errors == []
    assert report == [], "\n".join(report)
    context.close()


def test_nu_html_checker_reports_no_errors(fixture_site):
    from tests.content.test_html_validity import VNU_JAR
    if shutil.which("java") is None:
        pytest.fail("java is missing: run 'make test' (it installs Debian's default-jre-headless)")
    _, out = fixture_site
    pages = [str(p) for p in built_pages(out)]
    run = subprocess.run(["java", "-jar", str(VNU_JAR), "--format", "json", "--errors-only"] + pages,
                         capture_output=True, text=True)
    messages = json.loads(run.stderr or '{"messages": []}')["messages"]
    assert [f"{m.get('url')}: {m.get('message')}" for m in messages if m.get("type") == "error"] == []


def test_every_step_by_keyboard(fixture_site, browser, fixture_steps):
    """In each step, from the pressed button, an arrow and Enter choose another value,
    and the chart is drawn again for it (tests/browser/test_keyboard.py covers the Tab order)."""
    _, out = fixture_site
    _, steps = fixture_steps
    context, page, errors = open_chart_page(browser, out)
    for index, step in enumerate(steps):
        control = step.step.controls[0]
        group = page.get_by_role("region", name=step.step.title, exact=True).get_by_role("group", name=control.label)
        pressed = group.locator("[aria-pressed=true]")
        pressed.focus()
        before = page.evaluate("i => window.lensa.runtime.steps[i].key", index)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        page.wait_for_function("([i, k]) => { const s = window.lensa.runtime.steps[i];"
                               " return s.key !== k && s.drawn === s.key; }", arg=[index, before])
        assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    assert errors == []
    context.close()


def test_every_kind_has_a_still_drawing_before_plotly_arrives(fixture_steps):
    """The poster (render/poster.py) of each step's first state: arrows and arrowheads as
    paths, stacked bars on each other, signed matrices in the diverging scale."""
    from generator.render.charts.common import diverging_colour, levelled
    from generator.render.poster import poster

    _, steps = fixture_steps
    drawings = {s.step.compute: poster(s.figures[0][s.default_key]) for s in steps}
    assert all(drawings.values()), [name for name, html in drawings.items() if not html]
    assert drawings["vectors"].count("<path") == 3, "three arrowheads (the shafts are lines)"
    # A diagram's marks of one style are one path each (charts/diagram.py): six boxes, and
    # five arrows whose heads are drawn in pixels about their tips' x.
    diagram = drawings["diagram"]
    heads = re.findall(r'<svg x="[\d.]+%" overflow="visible"><path d="([^"]+)"', diagram)
    assert sum(d.count("Z") for d in heads) == 5, "five arrows, each with its head"
    assert diagram.count(" Z") == 5 + 6, "five heads and six boxes"
    assert diagram.count("M ") - sum(d.count("M ") for d in heads) == 6 + 5, "six boxes and five arrows' lines"
    step = step_named(steps, "large")
    z = default_state(step).chart["z"]
    # A large matrix is one picture of a pixel per cell (charts/heatmap.py raster_picture).
    pixels = png_pixels(re.search(r'href="(data:image/png;base64,[^"]+)"', drawings["large"]).group(1))
    assert pixels[0][0] == diverging_colour(levelled((z[0][0] + 1) / 2))  # z_range = [-1, 1]
    assert len(pixels) == len(z) and len(pixels[0]) == len(z[0])
    heights = [float(h) for h in re.findall(r'<rect [^>]*y="([\d.]+)%"', drawings["stacked"])]
    assert len(set(heights)) > 2, "each series starts where the one below it ends"
