"""The SCORM packages in an LMS: scorm-again's SCORM 1.2 and 2004 run-times on a
host page (tests/lms.py), launching each package's page from the unpacked zip
in a frame, in headless Chromium. The bridge (themes/default/static/scorm.js)
finds the API, reports completion, the reader's place and the game's score, and
resumes; with no LMS around it does nothing, and logs nothing.

Each kind of page goes through the LMS once per version (a reader's walk is
seconds long, and a page takes a second or two to load); every page of the
site's package is launched and left."""
from __future__ import annotations

import json
import re
import sys

import pytest

from generator.kinds.explainer.content import value_text
from generator.outputs.scorm.manifest import VERSIONS

from tests.conftest import CONTENT, PageWatch, wait_for_runtime
from tests.hosting import PagesServer
from tests.lms import LMS, suspended_seen
from tests.quiz_reader import answer, question_group, text_of, wrong_option

LIB = CONTENT / "_lib"
if str(LIB) not in sys.path:
    sys.path.insert(0, str(LIB))   # the game's tests import the tiny transformer from here

from tests.content.test_spotlight_game import play  # noqa: E402

# The packages (conftest.scorm_site) are made once per worker: keep their tests on one (make test runs pytest -n auto --dist loadgroup).
pytestmark = pytest.mark.xdist_group("scorm")

SUFFIX = {"1.2": "scorm12", "2004": "scorm2004"}
LOCATION = {"1.2": "cmi.core.lesson_location", "2004": "cmi.location"}
EXIT = {"1.2": "cmi.core.exit", "2004": "cmi.exit"}
# As the LMS keeps them: scorm-again stores a 1.2 time in its own shortest form ("00:00:10.5"
# for the "00:00:10.50" the page sent, no fraction for ".00"), a 2004 one as sent.
SESSION_TIME = {"1.2": re.compile(r"\d{2,4}:\d\d:\d\d(\.\d{1,2})?"), "2004": re.compile(r"PT\d+\.\d\dS")}
ENTRY = {"1.2": "cmi.core.entry", "2004": "cmi.entry"}


@pytest.fixture(scope="module")
def lms_server(scorm_site):
    root, packages = scorm_site
    with PagesServer() as server:
        base = server.publish("lms", root)
        yield base, packages


@pytest.fixture
def lms(browser, lms_server):
    """A fresh learner (no storage left from another test) at the LMS's host page."""
    base, packages = lms_server
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}host.html")
    lms = LMS(page, base, {name: f"{base}packages/{name.removesuffix('.zip')}/" for name in packages})
    lms.errors = errors
    yield lms
    context.close()


def package(lms_server, slug: str, version: str):
    return lms_server[1][f"{slug}-{SUFFIX[version]}.zip"]


def pages_of_kind(built_site, kind: str):
    return [page for page in built_site[1].site.pages if page.kind == kind]


@pytest.fixture(scope="module")
def explainer(built_site):
    """The explainer a reader walks through: the one with the fewest steps, to keep the walk short."""
    return min(pages_of_kind(built_site, "explainer"), key=lambda page: len(page.steps))


@pytest.fixture(scope="module")
def game(built_site):
    page = pages_of_kind(built_site, "game")[0]
    return page, built_site[1].computed[page.slug].rounds


def quiz_of(site_states, slug):
    """An explainer's questions as the build resolved them, and its step states."""
    _, computed, prose = site_states
    return prose[slug].quiz, computed[slug]


def wait_for_quiz(lms: LMS) -> None:
    lms.page.wait_for_function("() => { const w = document.querySelector('#sco').contentWindow; "
                               "return w.lensa?.quiz && w.lensa.quiz.ready && w.lensa?.runtime; }")


def status(lms: LMS, version: str) -> str:
    return lms.value("cmi.core.lesson_status" if version == "1.2" else "cmi.completion_status")


@pytest.mark.parametrize("version", VERSIONS)
def test_reading_every_step_and_answering_every_question_completes_the_explainer(lms, lms_server, explainer,
                                                                                  site_states, version):
    """Progress counts the steps seen and the questions answered (Check your understanding):
    the explainer is completed when every one of them is done."""
    resolved, step_states = quiz_of(site_states, explainer.slug)
    frame = lms.launch(package(lms_server, explainer.slug, version))
    assert lms.calls()[0] == ("LMSInitialize" if version == "1.2" else "Initialize")
    assert json.loads(lms.wait_for("cmi.suspend_data"))["seen"] == []
    assert status(lms, version) == "incomplete"
    steps = frame.get_by_role("navigation", name="Steps").get_by_role("link")
    total = steps.count()
    assert total == len(explainer.steps) >= 2
    for number in range(1, total + 1):
        steps.nth(number - 1).click()
        # A step counts once it has been on screen for a second.
        lms.wait_for("cmi.suspend_data", f"value => JSON.parse(value).seen.indexOf({number}) >= 0")
        if number < total:
            assert status(lms, version) == "incomplete", f"completed before step {total} was seen"
            if version == "2004":
                assert float(lms.value("cmi.progress_measure")) == pytest.approx(
                    len(suspended_seen(lms.value("cmi.suspend_data"))) / (total + len(resolved)), abs=1e-4)
    if resolved:  # every step seen, no question answered yet
        assert status(lms, version) == "incomplete"
        wait_for_quiz(lms)
        for number, found in enumerate(resolved, start=1):
            answer(frame, question_group(frame, number, len(resolved)), found, step_states, right=True)
    assert lms.wait_for(*( ("cmi.core.lesson_status", "v => v === 'completed' || v === 'passed'") if version == "1.2"
                           else ("cmi.completion_status", "v => v === 'completed'"))) in ("completed", "passed")
    if version == "2004":
        assert lms.value("cmi.progress_measure") == "1"
        assert lms.value("cmi.success_status") == ("passed" if resolved else "unknown")
    assert lms.page.evaluate("commits") >= total, "progress is committed as it is made"
    lms.leave()
    assert lms.value(EXIT[version]) == "suspend"
    assert SESSION_TIME[version].fullmatch(lms.value("cmi.core.session_time" if version == "1.2" else
                                                     "cmi.session_time"))
    assert lms.errors == []


@pytest.mark.parametrize("version", VERSIONS)
def test_leaving_at_step_3_with_a_choice_resumes_there(lms, lms_server, built_site, version):
    """The reader's place is the deep link of the state shown, stored as the location;
    launched again with it, the page opens at that step in that state."""
    explainer = next(page for page in pages_of_kind(built_site, "explainer")
                     if len(page.steps) >= 3 and page.steps[2].controls)
    unpacked = package(lms_server, explainer.slug, version)
    frame = lms.launch(unpacked)
    frame.get_by_role("navigation", name="Steps").get_by_role("link").nth(2).click()
    group = frame.locator("#step-3").get_by_role("group").first
    choice = [b for b in group.get_by_role("button").all() if b.get_attribute("aria-pressed") == "false"][-1]
    name = choice.inner_text()
    choice.click()
    location = lms.wait_for(LOCATION[version], "v => v.indexOf('s3=') >= 0")
    assert location.startswith("step-3&s3="), location
    lms.leave()
    stored = {LOCATION[version]: lms.value(LOCATION[version]), "cmi.suspend_data": lms.value("cmi.suspend_data"),
              ENTRY[version]: "resume"}
    assert stored[LOCATION[version]] == location

    frame = lms.launch(unpacked, stored=stored)
    group = frame.locator("#step-3").get_by_role("group").first
    button = group.get_by_role("button", name=name, exact=True)
    button.wait_for()
    lms.page.wait_for_function("() => document.querySelector('#sco').contentWindow.lensa?.share")
    assert button.get_attribute("aria-pressed") == "true"
    heading = frame.get_by_role("heading", name=explainer.steps[2].title, exact=True)
    lms.page.wait_for_function("() => document.readyState === 'complete' && "
                               "document.querySelector('#sco').contentDocument.readyState === 'complete'")
    top = heading.evaluate("element => element.getBoundingClientRect().top")
    assert 0 <= top < 200, f"step 3 is not on screen in the frame (its heading at {top}px)"
    assert frame.locator("body").evaluate("() => location.hash") == "#" + location
    assert lms.value(LOCATION[version]) == location
    assert lms.errors == []


@pytest.mark.parametrize("version", VERSIONS)
def test_the_games_score_reaches_the_data_model(lms, lms_server, game, version):
    source, rounds = game
    frame = lms.launch(package(lms_server, source.slug, version))
    raw = "cmi.core.score.raw" if version == "1.2" else "cmi.score.raw"
    score = "cmi.core.score" if version == "1.2" else "cmi.score"
    assert lms.wait_for(raw) == "0"
    most = 3 * len(rounds)
    assert (lms.value(f"{score}.min"), lms.value(f"{score}.max")) == ("0", str(most))
    stars = 0
    for number, states in enumerate(rounds, start=1):
        region = frame.get_by_role("region", name=states.round.title, exact=True)
        best = states.by_key(states.best_key)
        play(region, states, best.choice)
        stars += best.values["stars"]
        assert lms.wait_for(raw, f"v => Number(v) === {stars}") == str(stars)
        if version == "2004":
            assert float(lms.value("cmi.score.scaled")) == pytest.approx(stars / most, abs=1e-4)
            assert float(lms.value("cmi.progress_measure")) == pytest.approx(number / len(rounds), abs=1e-4)
        if number < len(rounds):
            assert status(lms, version) == "incomplete"
            if version == "2004":
                assert lms.value("cmi.success_status") == "unknown"
            region.get_by_role("button", name="Next round").click()
    assert stars == most
    if version == "1.2":
        assert lms.value("cmi.core.lesson_status") == "passed"
    else:
        assert (lms.value("cmi.completion_status"), lms.value("cmi.success_status")) == ("completed", "passed")
    assert lms.wait_for(LOCATION[version], "v => v.indexOf('round-4') === 0").startswith(
        f"round-{len(rounds)}&spotlight=")
    lms.leave()
    assert lms.errors == []


def test_the_game_is_passed_when_the_lms_passing_score_is_met(lms, lms_server, game):
    """With a passing score from the LMS (2004's cmi.scaled_passing_score), success
    follows the score rather than the rounds solved."""
    source, rounds = game
    frame = lms.launch(package(lms_server, source.slug, "2004"), stored={"cmi.scaled_passing_score": "0.25"})
    # scorm-again starts at "unknown": wait for the bridge's own report, not the first value.
    assert lms.wait_for("cmi.success_status", "v => v !== '' && v !== 'unknown'") == "failed"
    states = rounds[0]
    play(frame.get_by_role("region", name=states.round.title, exact=True), states,
         states.by_key(states.best_key).choice)
    assert lms.wait_for("cmi.success_status", "v => v === 'passed'") == "passed"
    assert lms.value("cmi.completion_status") == "incomplete"


def test_the_api_is_found_through_the_opener_of_a_new_window(lms, lms_server, explainer):
    """Some LMSs launch a package in a window of its own: the API is in its opener."""
    unpacked = package(lms_server, explainer.slug, "1.2")
    lms.page.evaluate("() => { window.API = new Scorm12API({ autocommit: false, logLevel: 5 }); }")
    with lms.page.expect_popup() as opened:
        lms.page.evaluate("src => window.open(src)", f"{lms._packages[unpacked.name]}{explainer.slug}/index.html")
    popup = opened.value
    lms.page.wait_for_function("() => API.isInitialized()")
    popup.close()
    lms.page.wait_for_function("() => API.isTerminated()")


def test_every_page_of_the_site_package_launches_with_the_network_blocked(lms, lms_server, built_site):
    """Each page of the whole site's package, launched by the LMS in turn: it finds the
    API, reports, and terminates when left; it asks for nothing outside the package."""
    unpacked = lms_server[1]["lensa-ml.site-scorm2004.zip"]
    inside = lms._packages[unpacked.name]
    outside: list[str] = []

    def route(request_route):
        url = request_route.request.url
        if url.startswith((inside, lms.origin + "/lms/host.html", lms.origin + "/lms/scorm-again", "data:")):
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    lms.page.route("**/*", route)
    assert [item.slug for item in unpacked.package.items] == [page.slug for page in built_site[1].site.pages]
    for item in unpacked.package.items:
        lms.launch(unpacked, item.slug)
        assert lms.wait_for("cmi.completion_status", "v => v !== '' && v !== 'unknown'") == "incomplete"
        lms.leave()
    assert outside == [] and lms.errors == []


@pytest.mark.parametrize("kind", ["explainer", "game"])
def test_a_package_opens_from_the_unpacked_zip_with_the_network_blocked(browser, scorm_site, built_site, kind):
    """From disk, where there is no LMS: the page works as on the site, nothing is
    fetched and nothing is logged (the bridge finds no API and stops). Once per kind:
    every page's package holds the same page as the site's package, which the LMS
    launches page by page above (tests/generator/outputs/scorm/test_scorm.py compares them)."""
    _, packages = scorm_site
    source = pages_of_kind(built_site, kind)[0]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    for version in VERSIONS:
        page = context.new_page()
        watch = PageWatch(page)
        page.goto((packages[f"{source.slug}-{SUFFIX[version]}.zip"].folder / source.slug / "index.html").as_uri())
        wait_for_runtime(page)
        assert page.get_by_role("heading", level=1).inner_text() == source.title
        assert page.evaluate("location.hash") == ""
        page.close()
        assert watch.blocked == [] and watch.errors == [], version
    context.close()


def test_in_a_frame_with_no_lms_nothing_changes_and_nothing_is_logged(lms, lms_server, explainer):
    """A host page with no API (a course page that frames the package's page)."""
    unpacked = package(lms_server, explainer.slug, "2004")
    lms.page.evaluate("src => { document.getElementById('sco').src = src; }",
                      f"{lms._packages[unpacked.name]}{explainer.slug}/index.html")
    frame = lms.page.frame_locator("#sco")
    frame.get_by_role("heading", level=1).wait_for()
    lms.page.wait_for_function("() => document.querySelector('#sco').contentWindow.lensa?.runtime")
    frame.get_by_role("navigation", name="Steps").get_by_role("link").nth(1).click()
    # The page keeps its own address, as on the site (share.js), and no LMS call is tried.
    lms.page.wait_for_function("() => document.querySelector('#sco').contentWindow.location.hash === '#step-2'")
    lms.page.evaluate("leave()")
    assert lms.page.evaluate("typeof calls") == "undefined" and lms.errors == []


# The learner's response and the correct one as each version writes them (scorm.js).
RESULT = {"1.2": {True: "correct", False: "wrong"}, "2004": {True: "correct", False: "incorrect"}}
TYPE = {"choice": "choice", "number": "numeric", "chart": "performance"}
LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"
TIME = {"1.2": ("time", "01:02:03"), "2004": ("timestamp", "2001-02-03T04:05:06")}


def responses(found, right: bool, version: str, steps) -> tuple[str, str]:
    """(learner response, correct response) of a question answered right or wrong, as the
    bridge reports them: choices by name (2004) or letter (1.2), numbers as decimals,
    a chart as its controls' names and values."""
    from tests.quiz_reader import wrong_number, wrong_state
    question = found.question
    if question.kind == "choice":
        name = (lambda i: found.option_ids[i]) if version == "2004" else (lambda i: LETTERS[i])
        join = "[,]" if version == "2004" else ","
        chosen = found.correct if right else [wrong_option(found)]
        return join.join(map(name, chosen)), join.join(map(name, found.correct))
    if question.kind == "number":
        value = found.answer if right else wrong_number(found)
        low, high = found.answer - question.tolerance, found.answer + question.tolerance
        correct = f"{decimal(low)}[:]{decimal(high)}" if version == "2004" else decimal(found.answer)
        return decimal(value), correct
    states = steps[question.step]
    chosen = states.by_key(found.key) if right else wrong_state(found, states)
    pairs = [(c.name, value_text(chosen.choice[c.name])) for c in states.step.controls]
    return performance(pairs, version), performance(found.example, version)


def decimal(value: float) -> str:
    return f"{value:.10f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def performance(pairs, version: str) -> str:
    return ("[,]" if version == "2004" else ",").join(
        f"{name}{'[.]' if version == '2004' else ':'}{value}" for name, value in pairs)


def interactions(lms: LMS, version: str, count: int) -> list[dict]:
    response = "learner_response" if version == "2004" else "student_response"
    return [{key: lms.value(f"cmi.interactions.{n}.{key}")
             for key in ("id", "type", response, "result", "correct_responses.0.pattern")} for n in range(count)]


@pytest.mark.parametrize("version", VERSIONS)
def test_the_questions_score_success_and_interactions_reach_the_lms_and_survive_a_resume(
        lms, lms_server, built_site, site_states, version):
    """Answered once half wrong: the score (a percentage, min 0, max 100), failed below the
    mastery score once every question is answered, one interaction per question. Left and
    launched again from what the LMS stored, the answers show as they were; Try again and
    every answer right raises the score, passes, and updates each question's own record."""
    explainer = next(page for page in pages_of_kind(built_site, "explainer")
                     if {q.kind for q in page.quiz} == {"choice", "number", "chart"})
    resolved, step_states = quiz_of(site_states, explainer.slug)
    total = len(resolved)
    rights = [number > total // 2 for number in range(1, total + 1)]
    unpacked = package(lms_server, explainer.slug, version)
    frame = lms.launch(unpacked)
    wait_for_quiz(lms)
    score = "cmi.core.score" if version == "1.2" else "cmi.score"
    success = "cmi.core.lesson_status" if version == "1.2" else "cmi.success_status"
    for number, (found, right) in enumerate(zip(resolved, rights), start=1):
        answer(frame, question_group(frame, number, total), found, step_states, right=right)
        if number < total:
            lms.wait_for(f"cmi.interactions.{number - 1}.result")
            assert lms.value(success) in ("incomplete", "unknown"), "no verdict before every question is answered"
    raw = round(100 * sum(rights) / total)
    assert lms.wait_for(success, "v => v === 'failed'") == "failed"
    assert [lms.value(f"{score}.{key}") for key in ("raw", "min", "max")] == [str(raw), "0", "100"]
    if version == "2004":
        assert float(lms.value("cmi.score.scaled")) == pytest.approx(raw / 100, abs=1e-4)
        assert lms.value("cmi.scaled_passing_score") == "", "the page's own mastery score applies"
    response = "learner_response" if version == "2004" else "student_response"
    expected = [{"id": found.id, "type": TYPE[found.question.kind], response: responses(found, right, version, step_states)[0],
                 "result": RESULT[version][right], "correct_responses.0.pattern": responses(found, right, version, step_states)[1]}
                for found, right in zip(resolved, rights)]
    assert interactions(lms, version, total) == expected
    if version == "2004":  # the question's legend, as text
        assert [lms.value(f"cmi.interactions.{n}.description") for n in range(total)] == \
            [text_of(found.legend) for found in resolved]
    lms.leave()

    elements = [LOCATION[version], "cmi.suspend_data", f"{score}.raw", f"{score}.min", f"{score}.max", success]
    stored = {element: lms.value(element) for element in elements} | {ENTRY[version]: "resume"}
    stored |= {f"cmi.interactions.{n}.{key}": value for n, record in enumerate(interactions(lms, version, total))
               for key, value in record.items()}
    # A time the bridge would never write: a record sent again on resuming would change it.
    when = TIME[version]
    stored |= {f"cmi.interactions.{n}.{when[0]}": when[1] for n in range(total)}
    frame = lms.launch(unpacked, stored=stored)
    wait_for_quiz(lms)
    shown = frame.locator("body").evaluate("""() => ({
        score: document.querySelector('[data-quiz-score]').innerText,
        results: Array.from(document.querySelectorAll('#quiz fieldset'), f => f.getAttribute('data-result'))})""")
    assert shown == {"score": f"Score: {sum(rights)} of {total}",
                     "results": ["right" if right else "wrong" for right in rights]}
    assert [lms.value(f"cmi.interactions.{n}.{when[0]}") for n in range(total)] == [when[1]] * total, \
        "a resumed answer is not sent again"

    frame.get_by_role("button", name="Try again", exact=True).click()
    for number, found in enumerate(resolved, start=1):
        answer(frame, question_group(frame, number, total), found, step_states, right=True)
    assert lms.wait_for(f"{score}.raw", "v => v === '100'") == "100"
    assert lms.wait_for(success, "v => v === 'passed'") == "passed"
    expected = [{**record, response: responses(found, True, version, step_states)[0], "result": RESULT[version][True]}
                for record, found in zip(expected, resolved)]
    assert interactions(lms, version, total) == expected, "each question keeps one record, updated"
    assert lms.value(f"cmi.interactions.{total}.id") == ""
    lms.leave()
    assert lms.errors == []
