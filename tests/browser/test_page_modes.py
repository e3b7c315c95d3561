"""Colour schemes, reduced motion and print, in a real browser: the dark mode
follows the system and a remembered toggle (also where storage is blocked),
charts take the theme's colours, and printing shows every step's chart."""
from __future__ import annotations

import time

import pytest

from tests.conftest import draw_every_chart

SLUG = "multi-head-attention"
TOGGLE = "Dark mode"

CHART_FONT = "document.querySelector('[data-chart]')._fullLayout.font.color"
BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def is_dark(page):
    rgb = [int(v) for v in page.evaluate(BACKGROUND)[4:-1].split(",")[:3]]
    return sum(rgb) < 300


def explainer(browser, out, scheme="light", **options):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme, **options)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((out / SLUG / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    return context, page, errors


def css_colour(page, name):
    return page.evaluate("""name => {
        const probe = document.createElement("span");
        probe.style.color = `var(${name})`;
        document.body.appendChild(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
    }""", name)


def same_colour(page, plotly_colour, css_name):
    """Plotly keeps colours as given; compare them the way the browser resolves them."""
    return page.evaluate("""([a, b]) => {
        const p = document.createElement("span"), q = document.createElement("span");
        p.style.color = a; q.style.color = b;
        document.body.append(p, q);
        const same = getComputedStyle(p).color === getComputedStyle(q).color;
        p.remove(); q.remove();
        return same;
    }""", [plotly_colour, f"var({css_name})"])


def test_dark_mode_follows_the_system(built_site, browser):
    out, _ = built_site
    for scheme in ("light", "dark"):
        context, page, errors = explainer(browser, out, scheme)
        assert is_dark(page) == (scheme == "dark")
        toggle = page.get_by_role("button", name=TOGGLE)
        assert toggle.get_attribute("aria-pressed") == ("true" if scheme == "dark" else "false")
        draw_every_chart(page)
        assert same_colour(page, page.evaluate(CHART_FONT), "--fg")
        assert errors == []
        context.close()


def test_toggle_switches_redraws_charts_and_is_remembered(built_site, browser):
    out, _ = built_site
    context, page, errors = explainer(browser, out, "light")
    draw_every_chart(page)
    light_text = page.evaluate(CHART_FONT)
    toggle = page.get_by_role("button", name=TOGGLE)
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert is_dark(page)
    # Every drawn chart is drawn again in the dark palette.
    dark_text = page.evaluate(CHART_FONT)
    assert dark_text != light_text and same_colour(page, dark_text, "--fg")
    grid = page.evaluate("Array.from(document.querySelectorAll('[data-chart]')).map(c => c._fullLayout)"
                         ".find(l => l && l.xaxis.showgrid).xaxis.gridcolor")
    assert same_colour(page, grid, "--chart-grid")
    # The choice outlives the page: reloading, and opening another page, starts dark. The page
    # hands its write to the browser's storage, which a reload may read from a new renderer:
    # wait until another page of the context sees it, as a reader's reload would.
    other = context.new_page()
    other.goto((out / "index.html").as_uri())
    other.wait_for_function("localStorage.getItem('lensa-color-scheme') === 'dark'")
    other.close()
    # Under load a reload can still start from the renderer's copy of the storage from before
    # the write: reload until the page starts dark, as a reader's next reload would.
    deadline = time.monotonic() + 30
    while True:
        page.reload()  # each reload takes its time: no pause between them is needed
        if page.evaluate("document.documentElement.getAttribute('data-scheme')") == "dark" \
                or time.monotonic() > deadline:
            break
    scheme = page.evaluate("[document.documentElement.getAttribute('data-scheme'), localStorage.getItem("
                           "'lensa-color-scheme'), document.documentElement.hasAttribute('data-printing')]")
    assert is_dark(page), f"reloaded light: data-scheme, saved, printing = {scheme}"
    assert page.get_by_role("button", name=TOGGLE).get_attribute("aria-pressed") == "true"
    page.goto((out / "index.html").as_uri())
    assert is_dark(page)
    page.get_by_role("button", name=TOGGLE).click()
    assert not is_dark(page)
    assert errors == []
    context.close()


def test_the_saved_scheme_is_applied_before_the_stylesheet(built_site):
    """No flash of the wrong colours: the script that applies the saved choice
    runs in <head>, before the first stylesheet and before any content."""
    out, _ = built_site
    for path in (out / "index.html", out / SLUG / "index.html", out / "404.html"):
        html = path.read_text("utf-8")
        head = html[:html.index("</head>")]
        script = head.find("data-scheme")
        assert 0 < script < min(i for i in (head.find("<link rel=\"stylesheet\""), head.find("<style"))
                                if i >= 0), path


def test_toggle_works_where_storage_is_blocked(built_site, browser, tmp_path):
    """A sandboxed iframe (as in some course platforms) throws on localStorage."""
    out, _ = built_site
    host = tmp_path / "host.html"
    host.write_text(f'<!doctype html><title>host</title><iframe sandbox="allow-scripts" '
                    f'src="{(out / SLUG / "index.html").as_uri()}" width="1000" height="800"></iframe>')
    context = browser.new_context(color_scheme="light")
    context.add_init_script("window.__errors = []; addEventListener('error', e => window.__errors.push(e.message));")
    page = context.new_page()
    page.goto(host.as_uri())
    frame = page.frame_locator("iframe")
    toggle = frame.get_by_role("button", name=TOGGLE)
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    inner = page.frames[1]
    assert inner.evaluate("(() => { try { localStorage.length; return false; } catch (e) { return true; } })()")
    assert inner.evaluate("document.documentElement.getAttribute('data-scheme')") == "dark"
    assert inner.evaluate("window.__errors") == []
    context.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_turns_chart_transitions_off(built_site, browser, motion):
    out, _ = built_site
    context, page, errors = explainer(browser, out, reduced_motion=motion)
    assert page.evaluate("getComputedStyle(document.documentElement).scrollBehavior") == \
        ("auto" if motion == "reduce" else "smooth")
    # Give the first step's figure an animated transition, as a chart kind could.
    page.evaluate("window.lensa.runtime.steps[0].spec.charts[0].layout.transition = {duration: 400}")
    section = page.locator("#step-1")
    section.scroll_into_view_if_needed()
    page.evaluate("window.lensa.runtime.plotly().then(() => true)")
    section.locator(".main-svg").first.wait_for()
    section.get_by_role("group").first.get_by_role("button", pressed=False).first.click()
    transition = page.evaluate("document.querySelector('#step-1 [data-chart]').layout.transition")
    assert (transition is None) == (motion == "reduce")
    assert errors == []
    context.close()


def test_print_shows_every_step_with_its_chart_in_print_colours(built_site, browser):
    out, _ = built_site
    context, page, errors = explainer(browser, out, "dark")
    # The reader leaves step 3 on another choice: print shows that state.
    step = page.locator("#step-3")
    step.scroll_into_view_if_needed()
    group = step.get_by_role("group").first
    group.get_by_role("button", pressed=False).last.click()
    chosen = group.get_by_role("button", pressed=True).inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    sections = page.locator("section[data-step]")
    printable = 180 / 25.4 * 96  # A4 inside the stylesheet's 15 mm margins, in CSS pixels
    for i in range(sections.count()):
        section = sections.nth(i)
        assert section.is_visible()
        svg = section.locator("[data-chart] .main-svg").first
        assert svg.count() == 1, f"step {i + 1} has no chart to print"
        width = float(svg.get_attribute("width"))
        assert width <= printable + 1, f"step {i + 1}: chart {width}px is wider than the page ({printable}px)"
    # Printed on paper: dark text even though the screen was dark; only the chosen values print.
    assert not is_dark(page)
    assert same_colour(page, page.evaluate(CHART_FONT), "--fg")
    assert not same_colour(page, page.evaluate(CHART_FONT), "--dark-fg")
    visible = [b.inner_text() for b in step.get_by_role("group").first.get_by_role("button").all() if b.is_visible()]
    assert visible == [chosen]
    assert page.pdf()[:4] == b"%PDF"
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    assert is_dark(page)
    assert errors == []
    context.close()
