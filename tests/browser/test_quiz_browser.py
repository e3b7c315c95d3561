"""Check your understanding in Chromium, over every explainer of the bundled site
that has questions (found by loading the site, so a new one is covered): each
question answered wrong and then right as a reader answers it (tests/quiz_reader.py),
its feedback and the link to the state that explains it, the score kept over a
reload, Try again; the whole flow by keyboard; with scripts off; in the single-file
copy, the explainer's embed and each step's embed; axe and a phone's width once
the feedback shows."""
from __future__ import annotations

import re

import pytest

from generator.build import read_site

from tests.conftest import CONTENT, PageWatch, wait_until_stored
from tests.content.reader import shown_step
from tests.quiz_reader import (answer, expected_feedback, question_group, reach_questions, set_step, shown_feedback, text_of,
                          words)
from tests.browser.test_accessibility import AXE, COLOUR_RULES, run_axe

QUIZZED = [page.slug for page in read_site(CONTENT).pages if page.kind == "explainer" and page.quiz]


def test_the_bundled_site_has_questions():
    """The tests below are parametrised over the explainers with questions: none found would pass them all."""
    assert QUIZZED


def quiz_of(site_states, slug):
    """The explainer's questions as the build resolved them, and its step states."""
    _, computed, prose = site_states
    return prose[slug].quiz, computed[slug]


def score_line(page) -> str | None:
    return page.evaluate("() => { const p = document.querySelector('[data-quiz-score]'); "
                         "return p.hidden ? null : p.innerText; }")


def open_quiz(watch, out, slug):
    """The explainer from disk, once its questions and controls answer (plotly.js may come later).
    Its links then jump rather than glide: a reader who asks for reduced motion."""
    watch.page.emulate_media(reduced_motion="reduce")
    watch.page.goto((out / slug / "index.html").as_uri())
    reach_questions(watch.page)
    return watch.page


def assert_feedback(group, found, right: bool) -> None:
    shown = shown_feedback(group)
    link = f"See it in step {found.step_number}: {found.step_title}"
    assert words(shown["text"]) == f"{expected_feedback(found, right)} {link}", found.id
    assert (shown["link"], shown["name"], shown["result"]) == ("#" + found.fragment, link,
                                                               "right" if right else "wrong"), found.id


@pytest.mark.parametrize("slug", QUIZZED)
def test_answers_right_and_wrong_with_feedback_links_a_kept_score_and_try_again(slug, built_site, offline_page,
                                                                               site_states):
    resolved, steps = quiz_of(site_states, slug)
    total = len(resolved)
    page = open_quiz(offline_page, built_site[0], slug)
    assert score_line(page) is None, "no score before an answer"
    for number, found in enumerate(resolved, start=1):
        group = question_group(page, number, total)
        answer(page, group, found, steps, right=False)
        assert_feedback(group, found, right=False)
    assert score_line(page) == f"Score: 0 of {total}"

    # The answers and the score are kept over a reload, each question still answered.
    wait_until_stored(page, f"""() => {{
        const key = JSON.parse(document.getElementById("quiz-data").textContent).storage;
        return Object.keys(JSON.parse(localStorage.getItem(key) || "{{}}")).length === {total};
    }}""")
    page.reload()
    reach_questions(page)
    assert score_line(page) == f"Score: 0 of {total}"
    for number, found in enumerate(resolved, start=1):
        assert_feedback(question_group(page, number, total), found, right=False)
    assert page.evaluate("Array.from(document.querySelectorAll('#quiz input')).every(i => i.disabled)")

    # Try again clears every answer; then every question answered right.
    page.get_by_role("button", name="Try again", exact=True).click()
    assert score_line(page) is None
    assert page.evaluate("Array.from(document.querySelectorAll('#quiz [role=status]')).every(r => !r.innerText)")
    for number, found in enumerate(resolved, start=1):
        group = question_group(page, number, total)
        answer(page, group, found, steps, right=True)
        assert_feedback(group, found, right=True)
    assert score_line(page) == f"Score: {total} of {total}"

    # Each question's link opens the state that shows its answer.
    for number, found in enumerate(resolved, start=1):
        states = steps[found.question.step]
        question_group(page, number, total).get_by_role("status").get_by_role("link").click()
        section = page.get_by_role("region", name=states.step.title, exact=True)
        linked = states.by_key(found.key)
        wanted = [c.values.index(linked.choice[c.name]) for c in states.step.controls]
        page.wait_for_function("([id, wanted]) => window.lensa.runtime.steps.some(s => s.section.id === id && "
                               "s.controls.every((c, i) => c.index() === wanted[i]))",
                               arg=[f"step-{found.step_number}", wanted])
        assert shown_step(section)["chosen"] == [i if c.kind != "toggle" else bool(i)
                                                 for c, i in zip(states.step.controls, wanted)]
    assert offline_page.errors == [] and offline_page.blocked == []


def test_the_whole_flow_by_keyboard(built_site, offline_page, site_states):
    """Tab into a question, choose with the arrow keys, check with Enter; type a number and
    press Enter; follow the feedback's link; Try again. Nothing needs a pointer."""
    slug = next(s for s in QUIZZED if {q.question.kind for q in quiz_of(site_states, s)[0]} >= {"choice", "number"})
    resolved, _ = quiz_of(site_states, slug)
    total = len(resolved)
    page = open_quiz(offline_page, built_site[0], slug)
    keys = page.keyboard
    choice = next(n for n, q in enumerate(resolved, 1) if q.question.kind == "choice" and not q.question.multiple)
    found = resolved[choice - 1]
    group = question_group(page, choice, total)
    group.evaluate("g => g.previousElementSibling ? g.previousElementSibling.focus() : null")
    page.get_by_role("heading", name="Check your understanding").evaluate(
        "h => { h.tabIndex = -1; h.focus(); }")  # start just before the questions, as a reader tabbing there
    for _ in range(40):  # Tab to the first option of this question
        keys.press("Tab")
        if page.evaluate("() => document.activeElement.name") == f"question-{found.id}":
            break
    # The arrow keys move the choice through the options, to the right one.
    for _ in range(len(found.options) * 2):
        if page.evaluate("() => document.activeElement.labels[0].innerText.trim()") == found.options[found.correct[0]]:
            break
        keys.press("ArrowDown")
    keys.press("Space")
    keys.press("Tab")
    assert page.evaluate("() => document.activeElement.innerText") == "Check"
    keys.press("Enter")
    assert_feedback(group, found, right=True)
    # Tab on to the feedback's link and follow it: the step shows the state.
    keys.press("Tab")
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == "#" + found.fragment
    keys.press("Enter")
    page.wait_for_function("hash => location.hash === hash", arg="#" + found.fragment)

    number = next(n for n, q in enumerate(resolved, 1) if q.question.kind == "number")
    found = resolved[number - 1]
    box = question_group(page, number, total).get_by_role("spinbutton", name="Your answer")
    box.focus()
    keys.type(str(found.answer))
    keys.press("Enter")
    assert_feedback(question_group(page, number, total), found, right=True)
    retry = page.get_by_role("button", name="Try again", exact=True)
    retry.focus()
    keys.press("Enter")
    assert score_line(page) is None
    assert page.evaluate("() => document.activeElement.closest('fieldset') !== null"), "focus goes to the first question"


def test_with_scripts_off_each_answer_is_behind_a_disclosure(browser, built_site, site_states):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for slug in QUIZZED:
        resolved, steps = quiz_of(site_states, slug)
        page.goto((built_site[0] / slug / "index.html").as_uri())
        quiz = page.get_by_role("region", name="Check your understanding")
        assert quiz.get_by_role("button").evaluate_all("bs => bs.filter(b => b.offsetParent !== null).length") == 0, \
            "Check and Try again need scripts: they are not shown"
        for number, found in enumerate(resolved, start=1):
            group = question_group(page, number, len(resolved))
            group.get_by_text("Show the answer", exact=True).click()
            shown = group.locator("details").evaluate("d => ({open: d.open, text: d.innerText, "
                                                       "link: d.querySelector('a').getAttribute('href')})")
            assert shown["open"] and shown["link"] == "#" + found.fragment, (slug, found.id)
            if found.question.kind == "chart":
                linked = steps[found.question.step].by_key(found.key)
                for control in steps[found.question.step].step.controls:
                    text = control.text(control.values.index(linked.choice[control.name]))
                    assert f"{control.label}: {text}" in shown["text"], (slug, found.id)
            else:
                assert f"Answer: {found.answer_text}" in shown["text"], (slug, found.id)
            assert text_of(found.right) in words(shown["text"]), (slug, found.id)
    context.close()


def answer_on(browser, path, resolved, steps, questions, total, first=1) -> None:
    """Open `path` from disk in a fresh context (from disk every page shares one storage,
    where answers are kept) and answer `questions`, numbered from `first` of `total`, right."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    watch = PageWatch(page)
    page.goto(path.as_uri())
    reach_questions(page)
    assert page.get_by_role("group", name=re.compile(r"^Question \d+ of \d+\b")).count() == total, path
    for number, found in enumerate(questions, start=first):
        group = question_group(page, number, total)
        answer(page, group, found, steps, right=True)
        assert_feedback(group, found, right=True)
    assert watch.errors == [] and watch.blocked == [], path
    context.close()


@pytest.mark.parametrize("slug", QUIZZED)
def test_each_step_embed_asks_the_questions_about_its_step(slug, browser, built_site, site_states):
    """A step's embed carries the questions about that step, with their goals and links,
    answered there as on the page."""
    resolved, steps = quiz_of(site_states, slug)
    for number in sorted({found.step_number for found in resolved}):
        mine = [found for found in resolved if found.step_number == number]
        answer_on(browser, built_site[0] / "embed" / slug / f"step-{number}.html", resolved, steps, mine, len(mine))


def test_questions_work_in_the_single_file_copy_and_the_whole_embed(browser, built_site, site_states):
    """The single-file copy opened alone from disk, and the explainer's embed, hold every
    question: the first and the last answered there. Answers are kept per explainer, so a
    page and its embeds on one site share them."""
    slug = QUIZZED[0]
    resolved, steps = quiz_of(site_states, slug)
    answer_on(browser, built_site[0] / "offline" / f"{slug}.html", resolved, steps, resolved[:1], len(resolved))
    answer_on(browser, built_site[0] / "embed" / slug / "index.html", resolved, steps, resolved[-1:], len(resolved),
              first=len(resolved))


def test_answered_questions_pass_axe_in_both_schemes_and_fit_a_phone(browser, built_site, site_states):
    """The feedback, right and wrong, and the answered questions: axe finds nothing serious
    in light and dark colours, and nothing is wider than a 360 px screen."""
    slug = QUIZZED[0]
    resolved, steps = quiz_of(site_states, slug)
    context = browser.new_context(viewport={"width": 360, "height": 800}, color_scheme="light")
    page = context.new_page()
    page.goto((built_site[0] / slug / "index.html").as_uri())
    reach_questions(page)
    for number, found in enumerate(resolved, start=1):
        answer(page, question_group(page, number, len(resolved)), found, steps, right=number % 2 == 0)
    report = run_axe(page, str(AXE), f"{slug} answered (light)")
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("() => getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)'")
    report += run_axe(page, str(AXE), f"{slug} answered (dark)", COLOUR_RULES)
    assert report == []
    wide = page.evaluate("""() => Array.from(document.querySelectorAll('#quiz *'))
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map(e => e.tagName + '.' + e.className)""")
    assert wide == [] and page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_a_chart_question_reads_the_step_as_the_reader_left_it(built_site, offline_page, site_states):
    """Checked twice over two attempts: the state the reader set decides, whatever it was
    before, and the answer stays as checked when the controls move on."""
    slug, number, found = next((s, n, q) for s in QUIZZED for n, q in enumerate(quiz_of(site_states, s)[0], 1)
                               if q.question.kind == "chart")
    resolved, steps = quiz_of(site_states, slug)
    page = open_quiz(offline_page, built_site[0], slug)
    group = question_group(page, number, len(resolved))
    answer(page, group, found, steps, right=True)
    states = steps[found.question.step]
    other = next(s for s in states.states if s.key not in found.keys)
    set_step(page, states, other.choice)
    assert shown_feedback(group)["result"] == "right", "moving the controls after the check changes nothing"
    record = page.evaluate(f"lensa.quiz.records()[{number - 1}]")
    assert record["right"] and record["choice"] == [list(pair) for pair in found.example]


def test_questions_js_runs_only_once_the_questions_near_the_screen(built_site, offline_page):
    """The questions come last: their script is neither fetched nor run with the page,
    only once a reader scrolls near them, and then they answer."""
    page = offline_page.page
    page.goto((built_site[0] / QUIZZED[0] / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && document.readyState === 'complete'")
    # A script element of the page (not the one held in the template) that loads questions.js.
    fetched = "() => Array.from(document.scripts).some(s => /questions\\.js/.test(s.src))"
    assert page.evaluate("window.lensa.quiz.ready") is False and not page.evaluate(fetched)
    reach_questions(page)
    assert page.evaluate(fetched) and page.get_by_role("button", name="Check", exact=True).first.is_visible()
