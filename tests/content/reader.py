"""An explainer page read and driven as a reader would, for the browser tests of
tests/content/: controls found by role and visible name, readouts, prose and
data tables read as they are shown, and charts read as Plotly drew them."""
import json
import functools
import re

from generator.render.extensions import plain_text_of

from ..conftest import CONTENT, NEXT_FRAME


def open_explainer(watch, out, slug):
    """Open a built explainer in an offline page (conftest's PageWatch) and wait
    for its runtime and plotly.js, so that controls answer clicks."""
    watch.page.goto((out / slug / "index.html").as_uri())
    watch.page.wait_for_function("window.lensa?.runtime && window.Plotly")
    return watch


def readouts(section):
    """A step's readouts as shown: (labels, values)."""
    cells = section.locator("dl dt, dl dd").evaluate_all("cs => cs.map(c => [c.tagName, c.innerText])")
    return [text for tag, text in cells if tag == "DT"], [text for tag, text in cells if tag == "DD"]


def as_read(text: str) -> str:
    """HTML (or an author's Markdown) with math in its plain form and citations as their text:
    what a reader reads, before tags and spacing are dropped."""
    return plain_text_of(_series_markup().plain(text) if "@" in text or "$" in text else text)


def normalise(html_text):
    """HTML (or an author's Markdown) as text with its tags and spacing gone, so that the
    page's prose and the prose rendered in Python compare whatever the markup's whitespace:
    as a reader reads it, math in its plain form (√d_k), a citation as its text, "(Vaswani et
    al., 2017)", without its card."""
    return " ".join(re.sub(r"<[^>]+>", " ", as_read(html_text)).replace("&amp;", "&").split())


@functools.lru_cache(maxsize=1)
def _series_markup():
    from generator.load.bibliography import load_bibliography
    from generator.render.extensions import TextExtensions

    return TextExtensions(load_bibliography(CONTENT / "references.bib", []))


def step_rows(computed, number, text=normalise):
    """[(state, {readout label: value shown}, prose text)] for every state of step
    `number` (from 1), out of conftest.page_states' (site, step states, step prose)."""
    _, steps, prose = computed
    states, texts = steps[number - 1], prose[number - 1]
    labels = [r.label for r in states.step.readouts]
    return [(s, dict(zip(labels, s.readouts)), text(texts.states[s.key][0])) for s in states.states]


def step_row(computed, number, text=normalise, **choice):
    """The row (as step_rows gives it) of the one state showing `choice`, with the
    controls it leaves out at their defaults."""
    controls = computed[1][number - 1].step.controls
    assert set(choice) <= {c.name for c in controls}, choice
    wanted = {c.name: choice.get(c.name, c.default) for c in controls}
    found = [row for row in step_rows(computed, number, text) if row[0].choice == wanted]
    assert len(found) == 1, choice
    return found[0]


def button_text(control, index):
    """What a reader sees for value `index`: the control's `button` around the
    value's label (or the value itself), as on its button or beside its slider."""
    shown = control.labels[index] if control.labels else control.values[index]
    return control.button.replace("{value}", str(shown))


def choose(section, control, index):
    """Set `control` to value number `index` as a reader would, check that the
    page shows that choice, and return the element that shows it (the toggle,
    the slider, or the one pressed button). By number, not value, so that buttons
    that read alike are told apart by their position."""
    if control.kind == "toggle":
        toggle = section.get_by_role("button", name=control.label, exact=True)
        wanted = "true" if control.values[index] else "false"
        if toggle.get_attribute("aria-pressed") != wanted:
            toggle.click()
        assert toggle.get_attribute("aria-pressed") == wanted, (control.label, index)
        return toggle
    text = button_text(control, index)
    if control.kind == "slider":
        slider = section.get_by_role("slider", name=control.label, exact=True)
        # A range input's value is the index; fill() fires the input event a pointer drag ends with.
        slider.fill(str(index))
        assert slider.input_value() == str(index), (control.label, index)
        assert slider.get_attribute("aria-valuetext") == text, (control.label, index)
        # The value written beside the track is the <output> that names the slider in its for.
        shown = section.locator(f'output[for="{slider.get_attribute("id")}"]')
        assert shown.inner_text() == text, (control.label, index)
        return slider
    group = section.get_by_role("group", name=control.label, exact=True)
    # A button's accessible name is its text, then its detail (the second line), if any.
    names = [button_text(control, i) + (f" {control.details[i]}" if control.details else "")
             for i in range(len(control.values))]
    namesakes = group.get_by_role("button", name=names[index], exact=True)
    namesakes.nth(names[:index].count(names[index])).click()
    # Which buttons show as pressed, and the text of each, in one look.
    buttons = group.evaluate("g => Array.from(g.querySelectorAll('button'), "
                             "b => [b.getAttribute('aria-pressed'), b.innerText])")
    pressed = [" ".join(text.split()) for state, text in buttons if state == "true"]
    assert len(pressed) == 1 and buttons[index][0] == "true", (control.label, index, buttons)
    assert pressed[0] == names[index], (control.label, index)
    return group.get_by_role("button", pressed=True)


def shown_step(section, colours=()):
    """Everything a step shows, read in one look (a browser round trip per item would
    make up most of a long tour's time): the value number each control shows as
    chosen (in the step's order of controls), its readouts, prose, chart captions,
    data tables (SHOWN_TABLE), and for each chart what Plotly drew (DRAWN_FIGURE)
    and the theme's colours named in `colours` (THEME_COLOURS)."""
    return section.evaluate(f"""(section, names) => {{
        const text = el => el.innerText;
        const chosen = Array.from(section.querySelectorAll("[data-control][data-kind]"), control => {{
            const kind = control.getAttribute("data-kind");
            if (kind === "toggle") return control.querySelector("button").getAttribute("aria-pressed") === "true";
            if (kind === "slider") return Number(control.querySelector("input").value);
            const pressed = Array.from(control.querySelectorAll("button"), b => b.getAttribute("aria-pressed"));
            return pressed.filter(p => p === "true").length === 1 ? pressed.indexOf("true") : pressed;
        }});
        const cells = Array.from(section.querySelectorAll("dl dt, dl dd"));
        return {{
            chosen,
            readouts: [cells.filter(c => c.tagName === "DT").map(text), cells.filter(c => c.tagName === "DD").map(text)],
            prose: section.querySelector("[data-prose]").innerHTML,
            captions: Array.from(section.querySelectorAll("figcaption"), text),
            tables: Array.from(section.querySelectorAll("table"), {SHOWN_TABLE}),
            charts: Array.from(section.querySelectorAll("[data-chart]"),
                               el => ({{...({DRAWN_FIGURE})(el), colours: ({THEME_COLOURS})(el, names)}})),
        }};
    }}""", list(colours))


def colour_names(figure_part) -> set[str]:
    """The theme's colours ("--chart-…") a part of a figure names as var(--…)."""
    return set(re.findall(r"var\((--[\w-]+)\)", json.dumps(figure_part)))


def with_colours(figure_part, colours: dict):
    """A part of a figure with its var(--…) colours replaced by `colours` (as
    shown_step reads them at the chart): what Plotly is given, and so draws."""
    text = json.dumps(figure_part)
    for name in colour_names(figure_part):
        assert colours.get(name), f"the theme does not define {name}"
        text = text.replace(f"var({name})", colours[name])
    return json.loads(text)


def resolve_theme_colours(element, figure_part):
    """Part of a figure as its JSON carries it, with the theme's colours
    ("var(--chart-…)") as the page's CSS defines them at `element`: Plotly is given
    the resolved colours, so that is what the drawn chart holds."""
    return with_colours(figure_part, element.evaluate(THEME_COLOURS, sorted(colour_names(figure_part))))


# A data table as the browser shows it: its columns, its rows, and the number of the
# row marked current (aria-current), or -1.
SHOWN_TABLE = """t => ({
    columns: Array.from(t.tHead.rows[0].cells, c => c.textContent),
    rows: Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)),
    current: Array.from(t.tBodies[0].rows).findIndex(r => r.getAttribute("aria-current") === "true"),
})"""


def shown_table(table):
    """A data table as the browser shows it (SHOWN_TABLE)."""
    return table.evaluate(SHOWN_TABLE)


def expected_table(table):
    """What shown_table should read for a table computed in Python."""
    return {"columns": table["columns"], "rows": table["rows"], "current": table.get("highlight", -1)}


def count_plotly_calls(page):
    """Count the page's calls of Plotly.react, .relayout, .update and .newPlot from now on;
    returns a function that reads the counts."""
    page.evaluate("""() => {
        window.__calls = {react: 0, relayout: 0, update: 0, newPlot: 0};
        for (const name of Object.keys(window.__calls)) {
            const real = Plotly[name];
            Plotly[name] = function () { window.__calls[name]++; return real.apply(this, arguments); };
        }
    }""")
    return lambda: page.evaluate("window.__calls")


def chosen(section, control):
    """The number of the value the page shows as chosen for `control`: the
    pressed button of its group (exactly one), the slider's position, or the
    toggle's pressed state."""
    if control.kind == "toggle":
        pressed = section.get_by_role("button", name=control.label, exact=True).get_attribute("aria-pressed")
        return [bool(v) for v in control.values].index(pressed == "true")
    if control.kind == "slider":
        return int(section.get_by_role("slider", name=control.label, exact=True).input_value())
    buttons = section.get_by_role("group", name=control.label, exact=True).get_by_role("button")
    pressed = buttons.evaluate_all("bs => bs.map(b => b.getAttribute('aria-pressed'))")
    assert pressed.count("true") == 1, (control.label, pressed)
    return pressed.index("true")


def tour(control):
    """The value numbers a reader goes through to try every value of `control`
    once: from the one after its default round to the default, so that each
    choice changes the state and the tour ends where it began."""
    count, default = len(control.values), list(control.values).index(control.default)
    return [(default + step) % count for step in range(1, count + 1)]


def every_choice(controls):
    """The choices (control number, value number) a reader makes to see every value
    of every control of a step: first each control's tour() from the step's
    default, the others left at theirs; then, with several controls, the first
    set to its last value and each of the others through its values in order,
    left at the last, so that states where several controls are off their
    default are shown too."""
    moves = [(number, value) for number, control in enumerate(controls) for value in tour(control)]
    if len(controls) > 1:
        moves.append((0, len(controls[0].values) - 1))
        moves += [(number, value) for number, control in enumerate(controls) if number
                  for value in range(len(control.values))]
    return moves


# What Plotly drew in a chart, in one look: its traces (without the uid Plotly adds to
# each), the sources of its pictures (layout images) and its shapes (without those the
# runtime keeps hidden past a shorter list's end: runtime.js keepCount).
DRAWN_FIGURE = """el => ({
    data: (el.data || []).map(t => { const c = Object.assign({}, t); delete c.uid; return c; }),
    images: ((el.layout || {}).images || []).map(i => i.source),
    shapes: ((el.layout || {}).shapes || []).filter(s => s.visible !== false),
})"""

# The theme's colours of the given names, as the page's CSS defines them at an element.
THEME_COLOURS = """(el, names) => {
    const style = getComputedStyle(el);
    return Object.fromEntries(names.map(n => [n, style.getPropertyValue(n).trim()]));
}"""


def drawn_values(chart):
    """The values a bar or line chart shows, series by series, read from what Plotly
    drew: bars and lines are shapes between the grid and the traces (charts/bar.py,
    charts/line.py), a bar from its base to its end (stacked ones on each other), a
    line through its points."""
    return chart.evaluate("""el => {
        const marks = (el.layout.shapes || []).filter(s => s.layer === "between" && s.visible !== false);
        const lines = marks.filter(s => s.type === "path");
        if (lines.length) return lines.map(s => s.path.slice(1).split("L").map(p => Number(p.split(",")[1])));
        const bars = marks.filter(s => s.type === "rect");
        const horizontal = !!el.layout.yaxis.ticktext && !el.layout.xaxis.ticktext;
        const count = (horizontal ? el.layout.yaxis : el.layout.xaxis).ticktext.length;
        const values = bars.map(b => Math.round((horizontal ? b.x1 - b.x0 : b.y1 - b.y0) * 1e6) / 1e6);
        const series = [];
        for (let i = 0; i < values.length; i += count) series.push(values.slice(i, i + count));
        return series;
    }""")


def wait_until_drawn(section, timeout_ms=10_000):
    """Wait until the runtime has drawn every chart of the step in `section` in the
    state it now shows (a chart may finish drawing after the click returns)."""
    section.evaluate("""(el, timeout) => new Promise((done, fail) => {
        {NEXT_FRAME}
        const step = window.lensa.runtime.steps.find(s => s.section === el);
        const until = performance.now() + timeout;
        (function check() {
            if (!step.charts.length || step.drawn === step.key) done();
            else if (performance.now() > until) fail(new Error("the step's charts were not drawn in its state"));
            else nextFrame().then(check);
        })();
    })""".replace("{NEXT_FRAME}", NEXT_FRAME), timeout_ms)


def check_references(source, text: str) -> None:
    """A page's references are exactly the works its text cites (the build checks each
    citation's key), each named in the text as a reader reads it ("Vaswani et al., 2017",
    "Vaswani et al. (2017)" or, after its authors, "(2017)")."""
    from generator.load.bibliography import load_bibliography
    from generator.render.extensions import TextExtensions

    errors: list = []
    bibliography = load_bibliography(source.path.parent / "references.bib", errors)
    assert errors == []
    listed = TextExtensions(bibliography).references([*source.cites, *source.further_reading])
    assert source.cites and not source.further_reading and not source.references
    text = normalise(text)  # an author's Markdown in it (an intro) as it reads
    assert {ref.key for ref in listed} == set(source.cites)
    for ref in listed:
        authors, year = ref.cited_as.rsplit(", ", 1)
        assert re.search(rf"{re.escape(authors)},? \(?{year}\b", text), f"{ref.cited_as} is not named in the text"


def reference_entries(source) -> list:
    """The works of a page's references: (title, year) of each entry it cites."""
    from types import SimpleNamespace

    entries = _series_markup().bibliography.entries
    return [SimpleNamespace(title=entries[key].title, year=int(entries[key].year)) for key in source.cites]
