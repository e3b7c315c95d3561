"""Every explainer of the bundled site, built and opened from disk (file://) with
the network cut, read and driven as a reader would (tests/content/reader.py),
and compared with the states and prose computed in Python: the same checks for
every page, so that a new explainer is covered as soon as it is published.

What only one page's brief says (its figures, its teaching claims) is tested in
that page's tests/content/test_<slug>_page.py."""
import itertools
import math

import pytest

from generator.compute.precision import written_data
from generator.build import read_site

from tests.conftest import CONTENT, PageWatch, draw_every_chart, wait_until_idle
from tests.content.reader import (choose, chosen, colour_names, count_plotly_calls, every_choice, expected_table,
                             normalise, open_explainer, readouts, shown_step, shown_table, wait_until_drawn,
                             with_colours)

EXPLAINERS = [page.slug for page in read_site(CONTENT).pages if page.kind == "explainer"]


@pytest.fixture(scope="session")
def expected(site_states):
    """Every page's states and prose, computed in Python independent of any page or
    runtime: (site, states by slug, prose by slug)."""
    return site_states


def test_the_bundled_site_has_explainers():
    """The tests below are parametrised over the explainers found: none found would pass them all."""
    assert EXPLAINERS


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_every_combination_of_control_values_has_a_state_and_its_prose(slug, expected):
    """The product of every step's controls is computed, nothing more: a reader can
    reach any combination, and the page holds no state that cannot be reached."""
    _, computed, prose = expected
    for states, texts in zip(computed[slug], prose[slug]):
        controls = states.step.controls
        every = {".".join(map(str, combo)) for combo in itertools.product(*(range(len(c.values)) for c in controls))}
        assert {s.key for s in states.states} == every, states.step.title
        assert set(texts.states) == every, states.step.title
        assert len(every) == math.prod(len(c.values) for c in controls), states.step.title


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_every_step_is_a_region_named_by_its_title_and_numbered(slug, built_site, offline_page, expected):
    """A reader (or a screen reader's landmarks list) finds each step by its title,
    and the counter tells where it stands in the explainer."""
    _, computed, _ = expected
    steps = computed[slug]
    page = open_explainer(offline_page, built_site[0], slug).page
    assert page.get_by_role("region").count() >= len(steps)
    for states in steps:
        step = states.step
        section = page.get_by_role("region", name=step.title, exact=True)
        assert section.count() == 1, step.title
        assert f"Step {step.number} of {len(steps)}" in section.inner_text(), step.title
        assert section.get_by_text(f"Step {step.number} of {len(steps)}", exact=True).count() == 1, step.title
    assert offline_page.blocked == [] and offline_page.errors == []


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_without_scripts_every_step_shows_its_default_state(slug, built_site, browser, expected):
    """The page's HTML already holds each step's default state, as computed in
    Python: its controls, readouts, prose, chart summaries and data tables."""
    site, computed, prose = expected
    context = browser.new_context(java_script_enabled=False)
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.goto((built_site[0] / slug / "index.html").as_uri())
        for states, texts in zip(computed[slug], prose[slug]):
            step, key = states.step, states.default_key
            where = (step.title, key)
            section = page.get_by_role("region", name=step.title, exact=True)
            assert [chosen(section, c) for c in step.controls] == [c.values.index(c.default)
                                                                   for c in step.controls], where
            assert readouts(section) == ([r.label for r in step.readouts], states.by_key(key).readouts), where
            shown = section.locator("[data-prose]")
            assert normalise(shown.inner_html()) == normalise(texts.states[key][0]), where
            assert shown.get_attribute("aria-live") == "polite", where
            assert section.locator("figcaption").all_inner_texts() == [s for s in texts.summaries[key] if s], where
            for summary in section.get_by_text(site.config.labels["show_data"], exact=True).all():
                summary.click()  # <details> opens without scripts
            tables = section.get_by_role("table")
            assert tables.count() == len(step.charts), where
            for index, table in enumerate(states.tables(site.config.labels)):
                assert shown_table(tables.nth(index)) == expected_table(table[key]), where + (index,)
        assert watch.blocked == [] and watch.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_every_value_of_every_control_shows_its_computed_state(slug, built_site, offline_page, expected):
    """Choosing every value of every control (from the step's default for the
    others, then without going back to it: reader.every_choice), the page shows
    exactly the state computed in Python: controls, readouts, prose, every
    chart's summary, drawing and data table. Each change of state redraws each
    chart whose figure it changed once, in place (Plotly.relayout or .update of what
    changed, or .react, never a new plot), and nothing is fetched or fails along the way."""
    site, computed, prose = expected
    labels = site.config.labels
    steps = computed[slug]
    page = open_explainer(offline_page, built_site[0], slug).page
    calls = count_plotly_calls(page)
    # A reader scrolling down the page: the charts are drawn as they come into view, once
    # each (those in view at once may have been drawn before the count began).
    page.mouse.wheel(0, 20000)
    page.wait_for_function("window.scrollY > 0")
    wait_until_idle(page)  # the charts the scroll brought into view are drawn, before draw_every_chart
    draw_every_chart(page)
    drawn = calls()
    assert drawn["newPlot"] == drawn["relayout"] == 0 and drawn["react"] <= sum(len(s.step.charts) for s in steps)
    for states, texts in zip(steps, prose[slug]):
        step = states.step
        region = page.get_by_role("region", name=step.title, exact=True)
        # Found by its name once, then held by its id: each later look inside it would
        # otherwise look through the whole page for the region again.
        section = page.locator(f"section#{region.get_attribute('id')}")
        section.scroll_into_view_if_needed()
        charts = section.locator("[data-chart]")
        assert charts.count() == len(step.charts), step.title
        for summary in section.get_by_text(labels["show_data"], exact=True).all():
            summary.click()
        assert section.get_by_role("table").count() == len(step.charts), step.title
        colours = set().union(*(colour_names(figure) for figures in states.figures for figure in figures.values()))
        choice = [c.values.index(c.default) for c in step.controls]
        key = states.default_key
        _check_shows(shown_step(section, colours), states, texts, key, choice, labels)
        after = calls()
        for number, value in every_choice(step.controls):
            before = after
            choose(section, step.controls[number], value)
            wait_until_drawn(section)
            after = calls()
            moved = states.by_key(key).to[number][value]
            choice[number] = value
            assert states.by_key(moved).choice == {c.name: c.values[i] for c, i in zip(step.controls, choice)}
            assert after["newPlot"] == before["newPlot"], "a click drew a new plot instead of updating one"
            # One update for each chart whose figure the click changed, and none for one it did not.
            redraws = sum(after[name] - before[name] for name in ("react", "relayout", "update"))
            changed = sum(figures[key] != figures[moved] for figures in states.figures)
            assert redraws == changed, (step.title, key, moved)
            key = moved
            _check_shows(shown_step(section, colours), states, texts, key, choice, labels)
    assert offline_page.blocked == [], f"the page made network requests: {offline_page.blocked}"
    assert offline_page.errors == []


def _check_shows(shown, states, texts, key, choice, labels):
    """The step, as shown_step read it, shows state `key` (whose value numbers are `choice`) exactly as computed."""
    step, state = states.step, states.by_key(key)
    where = (step.title, key)
    chosen_shown = [[bool(v) for v in c.values].index(shown["chosen"][i]) if c.kind == "toggle" else shown["chosen"][i]
                    for i, c in enumerate(step.controls)]
    assert chosen_shown == choice, where
    assert shown["readouts"] == [[r.label for r in step.readouts], list(state.readouts)], where
    assert normalise(shown["prose"]) == normalise(texts.states[key][0]), where
    # A chart has a caption when its default state has a summary; the runtime rewrites it.
    captioned = [bool(s) for s in texts.summaries[states.default_key]]
    assert shown["captions"] == [s for s, shown_ in zip(texts.summaries[key], captioned) if shown_], where
    assert not any(s for s, shown_ in zip(texts.summaries[key], captioned) if not shown_), \
        (where, "a summary with no caption to show it in")
    assert len(shown["charts"]) == len(shown["tables"]) == len(step.charts), where
    for index, chart in enumerate(shown["charts"]):
        figure = states.figures[index][key]
        # What the page carries: floats at the build's precision (compute/precision.py).
        assert {part: chart[part] for part in ("data", "images", "shapes")} == with_colours(written_data({
            "data": figure["data"],
            "images": [image["source"] for image in figure["layout"].get("images", [])],
            "shapes": figure["layout"].get("shapes", [])}), chart["colours"]), where + (index,)
        table = states.tables(labels)[index][key]
        assert shown["tables"][index] == expected_table(table), where + (index,)
