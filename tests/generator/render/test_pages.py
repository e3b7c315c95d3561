"""The pages around the steps: the index, and each explainer page's sections,
navigation and words, all taken from content."""
from __future__ import annotations

import html as html_module
import re
import shutil

import pytest

from generator.build import build
from generator.build import read_site
from generator.render.pages import split_questions
from generator.render.prose import MarkdownRenderer
from generator.load.schema import LABELS

from tests.conftest import FIXTURES, THEMES, assert_steps_navigable
from tests.hosting import parse_page

TINY = FIXTURES / "tiny" / "content"


def build_tiny(tmp_site, tmp_path, files=None):
    content = tmp_site(files)
    out = tmp_path / "out"
    result = build(content, out, THEMES)
    return out, result


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def section(html: str, css_class: str) -> str:
    match = re.search(rf'<(section|nav|ol)[^>]*class="{css_class}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, f"no {css_class} section"
    return match.group(2)


# --- The index -----------------------------------------------------------------------------------


def test_index_numbers_the_series_and_links_only_built_explainers(tmp_site, tmp_path):
    out, _ = build_tiny(tmp_site, tmp_path)
    html = (out / "index.html").read_text("utf-8")
    cards = re.findall(r"<li class=\"card[^\"]*\">(.*?)</li>", html, re.S)
    assert [text_of(c) for c in cards] == ["1 Coin Flips How likely is a run of heads?",
                                            "2 Dice coming soon Not written yet."]
    assert parse_page(html).links == ["#main", "index.html", "coin-flips/index.html", "index.html"]


def test_an_explainer_missing_from_site_toml_still_joins_the_series(tmp_site, tmp_path):
    out, _ = build_tiny(tmp_site, tmp_path, {"site.toml": 'title = "Tiny"\n[[extra]]\nslug = "dice"\ntitle = "Dice"\n'})
    html = (out / "index.html").read_text("utf-8")
    assert "coin-flips/index.html" in parse_page(html).links
    assert "1 Coin Flips" in text_of(html)
    assert "Also related Dice coming soon" in text_of(html)


# --- Neighbours ----------------------------------------------------------------------------------


def _neighbour_site(tmp_site, series: list[str], extra: list[str] = (), built=("coin-flips",)):
    """The tiny site with copies of coin-flips for every slug in `built`, and a
    site.toml listing `series` then `extra` (the others are planned)."""
    content = tmp_site()
    for slug in built:
        if slug != "coin-flips":
            shutil.copytree(content / "coin-flips", content / slug)
            main = content / slug / "explainer.md"
            main.write_text(main.read_text("utf-8").replace('title = "Coin Flips"', f'title = "{slug.title()}"')
                            .replace('related = ["dice"]', 'related = []'), "utf-8")
    config = content / "site.toml"
    text = config.read_text("utf-8").split("[[series]]")[0]
    for table, slugs in (("series", series), ("extra", extra)):
        for slug in slugs:
            text += f'\n[[{table}]]\nslug = "{slug}"\ntitle = "{slug.title()}"\n'
    config.write_text(text, "utf-8")
    return content


def _pager(out, slug):
    return section((out / slug / "index.html").read_text("utf-8"), "explainer-pager")


def test_neighbours_skip_planned_explainers_and_link_the_nearest_published(tmp_site, tmp_path):
    content = _neighbour_site(tmp_site, ["coin-flips", "cards", "tarot", "dice", "chess"],
                              built=("coin-flips", "dice"))
    out = tmp_path / "out"
    build(content, out, THEMES)
    first, second = _pager(out, "coin-flips"), _pager(out, "dice")
    assert parse_page(first).links == ["../dice/index.html"]
    assert text_of(first) == "Next explainer: Dice →"
    # "chess" after dice is planned: no link, and no mention of it either.
    assert parse_page(second).links == ["../coin-flips/index.html"]
    assert text_of(second) == "← Previous explainer: Coin Flips"


def test_the_last_explainer_of_the_series_does_not_lead_into_the_extras(tmp_site, tmp_path):
    content = _neighbour_site(tmp_site, ["coin-flips", "dice"], extra=["bert", "cards", "go"],
                              built=("coin-flips", "dice", "bert", "go"))
    out = tmp_path / "out"
    build(content, out, THEMES)
    assert parse_page(_pager(out, "dice")).links == ["../coin-flips/index.html"]
    # The extras are an order of their own: the first extra has no way back into the series.
    assert parse_page(_pager(out, "bert")).links == ["../go/index.html"]
    assert parse_page(_pager(out, "go")).links == ["../bert/index.html"]


def test_a_lone_explainer_has_no_pager(tmp_site, tmp_path):
    out = tmp_path / "build"
    build(tmp_site(), out, THEMES)  # one explainer, coin-flips, and nothing planned around it
    assert 'class="explainer-pager"' not in (out / "coin-flips" / "index.html").read_text("utf-8")


# --- Words come from content ---------------------------------------------------------------------

GERMAN = {
    "skip": "Zum Inhalt", "not_found": "Seite nicht gefunden", "not_found_text": "Hier ist nichts.",
    "home": "Alle Erklärungen", "series": "Die Reihe", "steps": "Schritte", "step_of": "Schritt {n} von {total}",
    "previous_step": "Voriger Schritt", "next_step": "Nächster Schritt", "try_this": "Probieren",
    "deeper": "Vertiefung", "practitioners": "Für Fachleute", "key_ideas": "Kernideen", "questions": "Häufige Fragen",
    "related": "Verwandte Erklärungen", "references": "Quellen", "bibtex": "BibTeX", "updated": "Zuletzt geändert",
    "date_format": "{day}. {month} {year}", "previous": "Vorherige Erklärung", "next": "Nächste Erklärung",
    "explainer_nav": "Mehr aus der Reihe", "extra": "Auch verwandt", "planned": "in Arbeit",
    "no_script": "Bitte JavaScript einschalten.", "chart_data": "Daten des Diagramms",
    "chart_pending": "Noch die vorige Wahl: das Diagramm lädt",
    "chart_rescales": "Seine Skala folgt jeder Wahl:", "chart_rescaled": "Die Skala hat sich geändert.",
    "show_data": "Daten zeigen", "data_item": "Eintrag", "data_value": "Wert", "data_position": "Stelle",
    "data_state": "Zustand", "data_masked": "maskiert", "data_removed": "entfernt", "data_threshold": "Schwelle",
    "data_highlighted": "hervorgehoben", "data_faded": "abgeblendet", "data_leads_to": "Führt zu",
    "data_path": "Hervorgehobener Weg",
    "dark_mode": "Dunkler Modus", "embed": "Einbetten", "embed_step": "Diesen Schritt einbetten",
    "embed_chart": "dieses Diagramm: {title}", "embed_help": "Diesen HTML-Code in eine Kursseite einfügen.",
    "embed_code": "Code zum Einbetten", "embed_relative": "Diese Adresse ist relativ.",
    "embed_state": "Im gezeigten Zustand öffnen", "copy_code": "Code kopieren", "copied": "Kopiert.",
    "copy_failed": "Der Code ist markiert: mit Strg+C kopieren.", "open_full": "Ganze Erklärung öffnen",
    "save_offline": "Als eine Datei speichern", "embed_explainer": "Ganze Erklärung einbetten",
    "embed_preview": "Vorschau", "play": "Mit dem Konzept spielen", "play_link": "Spielen",
    "figure": "Abbildung herunterladen", "figure_svg": "SVG", "figure_png": "PNG (2×)",
    "figure_light": "Hell, auf Weiß, für den Druck", "figure_making": "Die Abbildung entsteht…",
    "figure_saved": "Gespeichert: {file}", "figure_opened": "Falls {file} nicht gespeichert wurde: Bild unten speichern.",
    "figure_failed": "Die Abbildung ließ sich nicht zeichnen.", "figure_source": "Quelle: {page}, {site}",
    "figures": "Abbildungen für Folien und Aufsätze", "figures_title": "Abbildungen: {title}",
    "figures_intro": "Jedes Diagramm der Erklärung in seinem ersten Zustand.", "figure_open": "In der Erklärung öffnen",
    "figure_file": "SVG-Datei", "cite": "Diese Abbildung zitieren", "cite_text": "Als Text", "cite_bibtex": "BibTeX",
    "months": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
               "November", "Dezember"],
}
GERMAN.update({  # Check your understanding (the questions of quiz/)
    "quiz": "Verstehen Sie es?", "quiz_intro": "Antworten Sie nach den Diagrammen.",
    "quiz_question": "Frage {n} von {total}", "quiz_check": "Prüfen", "quiz_check_chart": "Diagramm prüfen",
    "quiz_task": "Stellen Sie Schritt {n} ein: {title}", "quiz_your_answer": "Ihre Antwort", "quiz_right": "Richtig.",
    "quiz_wrong": "Nicht ganz.", "quiz_choose": "Wählen Sie zuerst eine Antwort.",
    "quiz_number": "Geben Sie zuerst eine Zahl ein.", "quiz_explain": "Siehe Schritt {n}: {title}",
    "quiz_score": "Punkte: {right} von {total}", "quiz_try_again": "Noch einmal", "quiz_show_answer": "Antwort zeigen",
    "quiz_answer": "Antwort: {answer}", "quiz_chart_answer": "Eine Antwort: Schritt {n} mit {choices}",
})


def _toml(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return '"' + value.replace('"', '\\"') + '"'


def test_every_word_around_the_content_comes_from_labels(tmp_site, tmp_path):
    assert set(GERMAN) >= set(LABELS), "a new label needs a translation here"
    labels = "\n".join(f"{key} = {_toml(value)}" for key, value in GERMAN.items() if key in LABELS)
    config = (FIXTURES / "tiny" / "content" / "site.toml").read_text("utf-8")
    head, _, series = config.partition("[[series]]")
    out, _ = build_tiny(tmp_site, tmp_path, {"site.toml": f'{head}language = "de"\n[labels]\n{labels}\n\n[[series]]{series}'})
    # Names that read the same in both languages (SVG, BibTeX) are not English left behind.
    english = [o.default.split("{")[0].strip() for key, o in LABELS.items()
               if isinstance(o.default, str) and GERMAN[key] != o.default]
    english = [phrase for phrase in english if phrase]
    for path in ("index.html", "404.html", "coin-flips/index.html", "embed/coin-flips/index.html",
                 "embed/coin-flips/step-1.html", "figures/coin-flips/index.html"):
        html = (out / path).read_text("utf-8")
        visible = text_of(re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S))
        assert '<html lang="de">' in html
        for phrase in english + ["January"]:
            assert phrase not in visible, f"{path} still says {phrase!r}"
    page = (out / "coin-flips/index.html").read_text("utf-8")
    assert "Zuletzt geändert 15. Januar 2026" in text_of(page)
    assert "Schritt 1 von 1" in text_of(page)


def test_the_intro_is_headed_by_its_question(tiny_site):
    out, _ = tiny_site
    html = (out / "coin-flips" / "index.html").read_text("utf-8")
    intro = re.search(r'<section class="intro" aria-labelledby="([^"]+)"><h2 id="\1">(.*?)</h2>', html)
    assert intro and intro.group(2) == "What is a coin flip?"


def test_an_intro_without_a_question_is_a_warning(tmp_site, tmp_path):
    content = tmp_site()
    explainer = content / "coin-flips" / "explainer.md"
    explainer.write_text(explainer.read_text("utf-8").replace('question = "What is a coin flip?"\n', ""), "utf-8")
    [warning] = read_site(content).warnings
    assert warning.field == "question" and "intro has no heading" in warning.message
    out = tmp_path / "out"
    build(content, out, THEMES)
    assert '<section class="intro" aria-label="Coin Flips">' in (out / "coin-flips/index.html").read_text("utf-8")


def test_question_headings_are_inline_markdown():
    pairs = split_questions("### Why *two* heads?\n\nBecause.\n\n### And `W_O`?\nIt mixes.\n", MarkdownRenderer())
    assert pairs == [("Why <em>two</em> heads?", "<p>Because.</p>"), ("And <code>W_O</code>?", "<p>It mixes.</p>")]


# --- The explainer page, as a reader sees it (the series' own: tests/content/test_multi_head_attention_reader.py)


@pytest.fixture(scope="module")
def explainer():
    site = read_site(TINY)
    return site, next(e for e in site.pages if e.slug == "coin-flips")


@pytest.fixture
def page(tiny_site, offline_page):
    out, _ = tiny_site
    offline_page.page.goto((out / "coin-flips" / "index.html").as_uri())
    return offline_page.page


def test_series_navigation_marks_the_current_page_and_links_only_built_ones(page, explainer):
    site, _ = explainer
    nav = page.get_by_role("navigation", name="The series")
    items = nav.get_by_role("listitem")
    assert [t.split(" coming soon")[0] for t in items.all_inner_texts()] == [e.title for e in site.config.series]
    # The planned explainer (Dice) is listed, not linked; this page's own link is marked current.
    links = items.get_by_role("link")
    assert links.all_inner_texts() == ["Coin Flips"] != [e.title for e in site.config.series]
    assert "coming soon" in items.last.inner_text()
    current = [link.inner_text() for link in links.all() if link.get_attribute("aria-current") == "page"]
    assert current == ["Coin Flips"]


def test_steps_have_a_counter_a_list_and_previous_next_links(charts_site, offline_page):
    out, result = charts_site
    page = offline_page.page
    page.goto((out / "chart-kinds" / "index.html").as_uri())
    [explainer] = [e for e in result.site.pages if e.slug == "chart-kinds"]
    titles = [s.title for s in explainer.steps]
    assert len(titles) > 2
    assert_steps_navigable(page, titles)


def test_every_section_around_the_steps_comes_from_the_explainer(page, explainer):
    site, coins = explainer
    day = coins.updated
    assert page.get_by_text(f"Last updated {day.day} {day.strftime('%B')} {day.year}").is_visible()
    intro = page.get_by_role("region", name="What is a coin flip?")
    assert intro.get_by_role("heading", level=2).inner_text() == "What is a coin flip?"
    assert "A fair coin lands heads half the time." in intro.inner_text()
    ideas = page.get_by_role("region", name="Key ideas").get_by_role("listitem")
    assert ideas.all_inner_texts() == ["Flips are independent."]
    questions = page.get_by_role("region", name="Common questions")
    summaries = questions.locator("summary")
    assert summaries.all_inner_texts() == re.findall(r"^### (.+)$", coins.questions, re.M) == ["Is the coin fair?"]
    answer = questions.get_by_text("Yes, in this toy.")
    assert not answer.first.is_visible()
    summaries.first.click()
    assert answer.first.is_visible()
    related = page.get_by_role("region", name="Related explainers").get_by_role("listitem")
    titles = {e.slug: e.title for e in site.config.series + site.config.extra}
    assert [t.split(" coming soon")[0].split("\n")[0] for t in related.all_inner_texts()] == \
        [titles[slug] for slug in coins.related] == ["Dice"]
    # The works its front matter lists, each with its title linked to its url.
    references = page.get_by_role("region", name="References").get_by_role("listitem")
    assert [t.strip() for t in references.all_inner_texts()] == ["A. Author (2020). On Coins."]
    assert references.get_by_role("link", name="On Coins").get_attribute("href") == "https://example.org/coins"
    # A lone explainer has no neighbours in the series.
    assert page.get_by_role("navigation", name="More in the series").count() == 0


def test_a_chart_title_is_text_of_the_page_not_of_the_plot(charts_site):
    """Above the chart, where a narrow screen wraps it; Plotly would cut it off."""
    out, result = charts_site
    html = (out / "chart-kinds" / "index.html").read_text("utf-8")
    [explainer] = [page for page in result.site.pages if page.slug == "chart-kinds"]
    titles = [chart.title for step in explainer.steps for chart in step.charts if chart.title]
    shown = re.findall(r'<figure class="chart-figure">\s*<p class="chart-title">([^<]*)</p>', html)
    assert shown and [html_module.unescape(t) for t in shown] == titles
    data = html[html.index('id="explainer-data"'):]
    assert not [t for t in titles if f'"text":"{t}"' in data], "no chart title inside a Plotly layout"


def test_a_practitioners_part_is_a_closed_box_after_going_deeper_and_left_out_of_step_embeds(tmp_site, tmp_path):
    step = (FIXTURES / "tiny" / "content" / "coin-flips" / "steps" / "01-runs.md").read_text("utf-8")
    out, _ = build_tiny(tmp_site, tmp_path, {"coin-flips/steps/01-runs.md": step.rstrip("\n") + (
        "\n\n::: deeper\nWhy three at most.\n\n::: practitioners\nA library draws {{ 2 ** 3 }} **coins**.\n")})
    page = (out / "coin-flips" / "index.html").read_text("utf-8")
    deeper, box = page.index('<div class="deeper">'), page.index('<details class="practitioners">')
    assert deeper < box, "the box follows Going deeper"
    closed = re.search(r'<details class="practitioners"><summary>For practitioners</summary>(.*?)</details>', page, re.S)
    assert closed and "<strong>coins</strong>" in closed.group(1) and "draws 8" in closed.group(1)
    assert "practitioners" not in (out / "embed/coin-flips/step-1.html").read_text("utf-8")
    assert '<details class="practitioners">' in (out / "embed/coin-flips/index.html").read_text("utf-8")
