"""The schema of an explainer's files: the front matter of explainer.md and of
each step (steps/NN-name.md), with its controls, readouts and chart. Declared
once here; the content dataclasses are made from these tables."""
from __future__ import annotations

import datetime as _dt

from ...compute.formats import formatter
from ...errors import did_you_mean
from ...load.schema import FURTHER_READING, KIND, REFERENCE
from ...load.validation import Option, identifier, nonempty, values_check
from ...render.charts import KINDS


def format_check(value: str) -> str | None:
    """A readout's format is one compute/formats.py knows (the load stage cannot ask it: it lies above)."""
    if formatter(value) is None:
        return ("expected text, count, fixed:N (N from 0 to 9), significant:N (N from 1 to 9), percent or shape, "
                f"found {value!r}" + did_you_mean(value, ("text", "count", "fixed:2", "significant:3", "percent",
                                                          "shape")))
    return None


EXPLAINER = {
    "kind": KIND,
    "title": Option((str,), "The explainer's title.", required=True, check=nonempty),
    "subtitle": Option((str,), "One line under the title.", default=""),
    "description": Option((str,), "One or two sentences for search results and link previews.", default=""),
    "question": Option((str,), "The question the intro answers, shown as its heading "
                       "(e.g. 'What is multi-head attention?').", default=None, check=nonempty),
    "updated": Option((_dt.date,), "Date of the last content change, shown as 'Last updated'.", required=True),
    "related": Option((list,), "Slugs of related explainers.", default=[]),
    "references": Option((list,), "Works the explainer cites, each written out here (authors, year, title, url). "
                         "Prefer the site's bibliography (content/references.bib): its works are cited in the text "
                         "as [@key], shown on hover, and listed with their BibTeX.", default=[], item=REFERENCE),
    "further_reading": FURTHER_READING,
}

CONTROL_KINDS = ("buttons", "toggle", "slider")

CONTROL = {
    "kind": Option((str,), "How the choice is offered: 'buttons', one button per value; 'toggle', one button "
                   "that is on or off (values true and false); 'slider', a range input for an ordered list of "
                   "many values, with the current one shown beside it.", default="buttons", choices=CONTROL_KINDS),
    "name": Option((str,), "Keyword argument passed to the step's compute function.", required=True,
                   check=identifier),
    "label": Option((str,), "Names the control: the group of buttons, the toggle's own text, or the slider.",
                    required=True, check=nonempty),
    "values": Option((list, str), "The values to choose from: a list, or the name of a list in model.py. "
                     "Required for buttons and sliders; a toggle's are false and true.", default=None,
                     check=values_check),
    "default": Option((str, int, float, bool), "The value selected when the page opens (true or false for a "
                      "toggle).", required=True),
    "button": Option((str,), "Visible text of each value, with {value} replaced by the value (or by its label).",
                     default="{value}"),
    "labels": Option((list, str), "Visible text of each value, in place of the value itself: a list, or the "
                     "name of a list in model.py. Labels may repeat (two tokens that read 'the'); values may not.",
                     default=None),
    "details": Option((list, str), "Second line on each button: a list, or the name of a list in model.py.",
                      default=None),
}

READOUT = {
    "label": Option((str,), "The label shown in the readout's <dt>.", required=True, check=nonempty),
    "value": Option((str,), "Name of the value (returned by the compute function) to show.", required=True),
    "format": Option((str,), "How the value is shown: text, count, fixed:N (N decimals, 0 to 9), "
                     "significant:N (N significant digits, 1 to 9, for values that span orders of magnitude), "
                     "percent or shape.", default="text", check=format_check),
}

def range_check(value) -> str | None:
    if value == "auto":
        return None
    if isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value) and value[0] < value[1]:
        return None
    return f"expected [low, high] with low < high, or 'auto', found {value!r}"


CHART = {
    "kind": Option((str,), "The chart kind: bar, blocks, diagram, heatmap, heatmap_grid, line or scatter (their "
                   "data is described under Chart kinds).", required=True, choices=KINDS),
    "title": Option((str,), "Title drawn above the chart.", default=""),
    "x_title": Option((str,), "Title of the x axis.", default=""),
    "y_title": Option((str,), "Title of the y axis.", default=""),
    "y_format": Option((str,), "Plotly (d3) tick format of the y axis, e.g. '.0%'.", default=""),
    "height": Option((int,), "Chart height in pixels.", default=360,
                     check=lambda v: None if 120 <= v <= 2000 else f"expected 120 to 2000 pixels, found {v}"),
    "wide": Option((bool,), "Give the chart the step's full width, with the text below it.", default=False),
    "y_range": Option((list, str), "bar, line and scatter: the y axis range, [low, high], the same in every state; "
                      "a value outside it is an error. Default 'auto': computed by the build over every state of "
                      "the step (with zero in it for bars on a linear axis), so the axis never moves when the reader "
                      "clicks.",
                      default="auto", check=range_check),
    "x_range": Option((list, str), "line (with numbers for x) and scatter: the x axis range, as y_range.",
                      default="auto", check=range_check),
    "y_scale": Option((str,), "line, scatter and bar: 'log' to draw the y axis (a bar chart's values) on a log "
                      "scale, for values that span orders of magnitude (a loss that falls to 0.0001 at one "
                      "learning rate and climbs to 2,000 at another). Every value must then be above zero; the "
                      "range, the ticks (at powers of ten) and the data table (three significant digits) follow.",
                      default="linear", choices=("linear", "log")),
    "x_scale": Option((str,), "line (with numbers for x) and scatter: 'log' to draw the x axis on a log scale, "
                      "as y_scale.", default="linear", choices=("linear", "log")),
    "equal_scale": Option((bool, str), "scatter: true to give a unit the same length on both axes (vectors, "
                          "whose angles and lengths then compare), false to let each axis fit its data (a path, "
                          "a trajectory). Default 'auto': equal when the chart draws arrows, fitted otherwise.",
                          default="auto", check=lambda v: None if v in (True, False, "auto")
                          else f"expected true, false or 'auto', found {v!r}"),
    "z_range": Option((list, str), "heatmap, heatmap_grid and blocks (with values): the ends of the colour scale, "
                      "[low, high]; a value outside it is an error. Default: [0, 1] on the sequential scale (a "
                      "value outside it is a warning, and --strict fails), and on the diverging scale 'auto', "
                      "±(the largest size of any value in every state), with zero in the middle; 'auto' with "
                      "the sequential scale is the lowest to the highest value of every state.",
                      default=None, check=range_check),
    "scale": Option((str,), "heatmap, heatmap_grid and blocks: the colour scale, 'sequential' (Viridis, for "
                    "values of one sign such as weights) or 'diverging' (blue below zero, red above, for signed "
                    "values such as scores).", default="sequential", choices=("sequential", "diverging")),
    "cell_text": Option((str,), "heatmap and heatmap_grid: the values written in the cells. 'auto' writes them "
                        "wherever the chart is drawn large enough for them to be read (at least 9 px high) and "
                        "leaves them out, with a colour bar beside the matrix, where it is not (a phone, small "
                        "multiples); 'on' always writes them (a matrix of more than 400 cells too); 'off' never, "
                        "with a colour bar. The data table lists every value either way.",
                        default="auto", choices=("auto", "on", "off")),
    "cell_format": Option((str,), "heatmap and heatmap_grid: how the values are written in the cells and in the "
                          "data table: count (whole numbers: 9, not 9.00), fixed:N (N decimals), significant:N or "
                          "percent. Default: an integer as it is, any other number with two decimals (a count a "
                          "model returns as a float, 9.0, is then 9.00: say count).",
                          default="", check=lambda v: None if v == "" or (v not in ("text", "shape") and formatter(v))
                          else f"expected count, fixed:N, significant:N or percent, found {v!r}"),
    "rescale": Option((str,), "Why this chart's axes must change between the states of its step, in words the "
                      "reader sees (\"the matrix grows from 6 to 48 tokens, and at one scale the small ones could "
                      "not be read\"). By default a chart holds one layout in every state of its step, worked out "
                      "over all of them (the union of the data sets the ranges, the widest label the margins, a "
                      "declared range wins), so a bar or a line that looks the same height in two states is the "
                      "same value. With a reason, each state's axes fit that state alone: the page writes the "
                      "reason under the chart and tells the reader each time the scale changes.",
                      default="", check=lambda v: None if v == "" or v.strip() else "expected a reason, found "
                      "only spaces"),
    "horizontal": Option((bool,), "bar: draw the bars across, the labels down the side (for long labels).",
                         default=False),
    "stacked": Option((bool,), "bar with several series: stack them (default: side by side).", default=False),
}

# An entry of [[charts]]: a chart with its own summary.
CHARTS_ITEM = {
    **CHART,
    "summary": Option((str,), "One sentence describing this chart in the current state (Jinja): its caption, "
                      "and its text for screen readers.", required=True, check=nonempty),
}

STEP = {
    "title": Option((str,), "The step's heading.", required=True, check=nonempty),
    "subtitle": Option((str,), "One line under the heading.", default=""),
    "compute": Option((str,), "Name of the function in model.py that computes one state.", required=True,
                      check=identifier),
    "summary": Option((str,), "One sentence describing the chart in the current state (Jinja): its caption, "
                      "and its text for screen readers. Required with [chart]; a step with [[charts]] gives "
                      "each chart its own.", default=""),
    "controls": Option((list,), "The reader's choices.", default=[], item=CONTROL),
    "readouts": Option((list,), "Label and value pairs shown beside the chart.", default=[], item=READOUT),
    "chart": Option((dict,), "The chart of a step with one chart (described by the step's summary).",
                    default=None, item=CHART),
    "charts": Option((list,), "The charts of a step with several (one to three), side by side on wide "
                     "screens and stacked on phones; in place of [chart].", default=None, item=CHARTS_ITEM),
}
