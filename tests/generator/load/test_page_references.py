"""A page's own [[references]] are checked as the bibliography's entries are (load/bibliography.py):
one without its authors, title or year, and one listed twice, in the page or also in the site's
bibliography, is an error at its line. (Unlike a bibliography entry, which no page may show, a page's
own reference is always listed on its page, so it is never "cited by no page".)"""
import pytest

from generator.build import read_site
from generator.errors import ContentError

MAIN = "coin-flips/explainer.md"
HEAD = '+++\ntitle = "Coin Flips"\nsubtitle = "Runs"\nquestion = "What is a coin flip?"\nupdated = 2026-01-15\n'
BODY = "+++\n::: intro\nA fair coin (Author, 2020).\n"
ON_COINS = '\n[[references]]\nauthors = "A. Author"\nyear = 2020\ntitle = "On Coins"\n'
BIB = "@article{author2020,\n  author = {Author, A.},\n  title = {On {C}oins},\n  year = {2020},\n}\n"


def problems(content):
    with pytest.raises(ContentError) as info:
        read_site(content)
    return info.value.problems


def _page(*references: str) -> dict:
    return {MAIN: HEAD + "".join(references) + BODY}


def test_a_reference_without_its_year_is_an_error_at_its_line(tmp_site):
    [problem] = problems(tmp_site(_page(ON_COINS, ON_COINS.replace("year = 2020\n", "").replace("On", "Of"))))
    assert problem.path.name == "explainer.md" and problem.line == 12 and problem.field == "references[1].year"
    assert "is required" in problem.message


def test_a_reference_listed_twice_is_an_error_at_the_second(tmp_site):
    again = ON_COINS.replace("On Coins", "on  coins.")  # the same work, however it is written
    [problem] = problems(tmp_site(_page(ON_COINS, again)))
    assert (problem.path.name, problem.line, problem.field) == ("explainer.md", 12, "references[1]")
    assert problem.message == "'on  coins.' (2020) is listed twice: it is references[0], at line 7"
    assert str(problem).count("\n") == 0


def test_the_same_title_of_another_year_is_another_work(tmp_site):
    site = read_site(tmp_site(_page(ON_COINS, ON_COINS.replace("2020", "2021"))))
    assert [r.year for r in site.pages[0].references] == [2020, 2021] and site.warnings == []


def test_a_reference_that_is_in_the_bibliography_is_an_error(tmp_site):
    [problem] = problems(tmp_site({**_page(ON_COINS), "references.bib": BIB}))
    assert (problem.path.name, problem.line, problem.field) == ("explainer.md", 7, "references[0]")
    assert problem.message == ("'On Coins' (2020) is entry 'author2020' of the "
                               "bibliography (references.bib:1): cite it as [@author2020] or list it in "
                               "further_reading instead")


def test_an_inline_array_of_references_is_checked_too(tmp_site):
    inline = '\nreferences = [{ authors = "A. Author", year = 2020, title = "On Coins" },\n' \
             '              { authors = "A. Author", year = 2020, title = "On coins" }]\n'
    [problem] = problems(tmp_site(_page(inline)))
    assert problem.field == "references[1]" and problem.message.endswith("is listed twice: it is references[0]")
