"""Citations in an author's text, in Pandoc's syntax, against the site's BibTeX
bibliography: the syntax (locators, several keys, prefixes, narrative), how a
citation and the reference list render, and the problems a site can have:
unknown, duplicate and uncited keys, an entry the parser cannot read."""
import json
import re

import pytest

from generator.build import build
from generator.errors import ContentError, MarkupError, Problem
from generator.load.bibliography import load_bibliography
from generator.build import read_site
from generator.render.citations import CitationStyle, Cited, cited_keys, citation_html, citation_text, \
    find_citations

from tests.conftest import FIXTURES, THEMES

BIB = r"""
@inproceedings{vaswani2017,
  author = {Ashish Vaswani and Noam Shazeer and Niki Parmar and {\L}ukasz Kaiser},
  title = {Attention Is All You Need},
  booktitle = {Advances in Neural Information Processing Systems 30},
  year = {2017},
  eprint = {1706.03762},
  archivePrefix = {arXiv},
}

@inproceedings{devlin2019,
  author = {Devlin, Jacob and Chang, Ming-Wei},
  title = {{BERT}: Pre-training of Deep Bidirectional Transformers},
  booktitle = {Proceedings of NAACL-HLT},
  year = 2019,
  doi = {10.18653/v1/N19-1423},
}

@misc{gemma2024,
  author = {{Gemma Team}},
  title = {Gemma: Open Models Based on Gemini Research and Technology},
  year = {2024},
  url = {https://arxiv.org/abs/2403.08295},
}

@article{michel2019a,
  author = {Paul Michel and others},
  title = {Are Sixteen Heads Really Better than One?},
  year = {2019},
}

@article{michel2019b,
  author = {Paul Michel and Omer Levy and Graham Neubig},
  title = {Another Paper},
  year = {2019},
}
"""

STEP = (FIXTURES / "tiny/content/coin-flips/steps/01-runs.md").read_text()
EXPLAINER = (FIXTURES / "tiny/content/coin-flips/explainer.md").read_text()


@pytest.fixture(scope="module")
def style(tmp_path_factory):
    path = tmp_path_factory.mktemp("bib") / "references.bib"
    path.write_text(BIB)
    errors = []
    bibliography = load_bibliography(path, errors)
    assert errors == []
    return CitationStyle(bibliography)


def test_the_syntax_pandoc_writes():
    [one, several, located, narrative, year_only] = find_citations(
        "As [@vaswani2017] and [see @devlin2019, p. 3; also @gemma2024] show, [@vaswani2017, §3.2.1] says; "
        "@devlin2019 [Table 2] agrees [-@gemma2024].")
    assert one.items == (Cited("vaswani2017"),) and not one.narrative
    assert several.items == (Cited("devlin2019", prefix="see", locator="p. 3"), Cited("gemma2024", prefix="also"))
    assert located.items == (Cited("vaswani2017", locator="§3.2.1"),)
    assert narrative.narrative and narrative.items == (Cited("devlin2019", locator="Table 2"),)
    assert year_only.items == (Cited("gemma2024", year_only=True),)


def test_what_is_not_a_citation():
    assert find_citations("Mail me at someone@example.org, or \\@handle; `@decorator` and\n"
                          "```python\n@torch.no_grad()\n```\n[a link](https://x.org/@user) [text].") == []
    assert cited_keys("Sentence ends with @vaswani2017. Then @devlin2019's idea.") == ["vaswani2017", "devlin2019"]


def test_a_bracketed_citation_before_a_colon_is_a_citation_unless_it_defines_a_link():
    [mid] = find_citations("The model card [@devlin2019]: twelve layers.")
    assert mid.items == (Cited("devlin2019"),) and not mid.narrative
    assert find_citations("Text.\n\n  [@devlin2019]: https://example.org/card\n") == []


def test_author_year_with_et_al_and_letters(style):
    assert (style.authors("vaswani2017"), style.year("vaswani2017")) == ("Vaswani et al.", "2017")
    assert style.authors("devlin2019") == "Devlin and Chang"
    assert style.authors("gemma2024") == "Gemma Team"
    # Two works that would both read "Michel et al., 2019" get letters, in title order.
    assert (style.year("michel2019b"), style.year("michel2019a")) == ("2019a", "2019b")


def test_a_citation_links_to_its_entry(style):
    [citation] = find_citations("[@vaswani2017, §3.2.1; @devlin2019]")
    html = citation_html(citation, style)
    assert html == ('(<span class="cite"><a href="#ref-vaswani2017">Vaswani et al., 2017</a></span>, §3.2.1; '
                    '<span class="cite"><a href="#ref-devlin2019">Devlin and Chang, 2019</a></span>)')
    # The entry the reference list shows, and the citation's card (the theme's script puts a copy of it there).
    assert style.entry_html("vaswani2017") == (
        "Ashish Vaswani, Noam Shazeer, Niki Parmar and Łukasz Kaiser (2017). Attention Is All You Need. "
        "<i>Advances in Neural Information Processing Systems 30</i>. "
        '<a href="https://arxiv.org/abs/1706.03762">arXiv:1706.03762</a>')
    assert 'href="https://doi.org/10.18653/v1/N19-1423">doi:10.18653/v1/N19-1423</a>' in style.entry_html("devlin2019")
    assert citation_text(citation, style) == "(Vaswani et al., 2017, §3.2.1; Devlin and Chang, 2019)"
    [narrative] = find_citations("@gemma2024 [p. 2]")
    assert citation_text(narrative, style) == "Gemma Team (2024, p. 2)"


def test_an_unknown_key_names_the_closest(style):
    [citation] = find_citations("[@vaswani2071]")
    with pytest.raises(MarkupError) as info:
        citation_html(citation, style)
    assert "unknown citation key 'vaswani2071' (did you mean 'vaswani2017'?)" in str(info.value)


# --- The bibliography file ------------------------------------------------------------------------

def test_duplicate_and_unreadable_entries_are_errors_at_their_lines(tmp_path):
    path = tmp_path / "references.bib"
    path.write_text(BIB + "\n@article{vaswani2017,\n  title = {Again},\n  year = {2018},\n}\n"
                    "\n@article{broken\n  author = {X},\n  title = {Y},\n}\n"
                    "\n@misc{noyear,\n  author = {A. Person},\n  title = {Untitled},\n}\n")
    errors: list[Problem] = []
    bibliography = load_bibliography(path, errors)
    lines = BIB.count("\n")
    assert [(e.line, e.message) for e in errors] == [
        (lines + 2, "duplicate key 'vaswani2017' (first at line 2)"),
        (lines + 7, "cannot read this entry: Expected comma after entry key, but found ="),
        (lines + 12, "entry 'noyear' has no year: an author–year citation needs the authors (or editors), "
                     "the title and the year"),
    ]
    assert set(bibliography.entries) == {"vaswani2017", "devlin2019", "gemma2024", "michel2019a", "michel2019b"}


# --- In a site --------------------------------------------------------------------------------------

def site_with(tmp_site, explainer_extra: str = "", step_text: str = "", bib: str = BIB):
    files = {"references.bib": bib}
    if explainer_extra:
        files["coin-flips/explainer.md"] = EXPLAINER.replace(
            "A fair coin lands heads half the time.", "A fair coin lands heads half the time" + explainer_extra)
    if step_text:
        files["coin-flips/steps/01-runs.md"] = STEP.replace("Click **3**.", step_text)
    return tmp_site(files)


def test_the_reference_list_holds_what_the_page_cites_and_its_further_reading(tmp_site):
    content = site_with(tmp_site, " [@vaswani2017; @devlin2019].", "Click **3**, as @gemma2024 does.")
    main = content / "coin-flips/explainer.md"
    main.write_text(main.read_text().replace("related = [", 'further_reading = ["michel2019a"]\nrelated = ['))
    warnings: list = []
    site = read_site(content, warnings)
    assert site.pages[0].cites == ["vaswani2017", "devlin2019", "gemma2024"]
    assert [w.message for w in warnings] == [
        "entry 'michel2019b' is cited by no page: cite it as [@michel2019b] or list it in a page's further_reading"]
    written = BIB.lstrip("\n")  # as tmp_site writes it
    assert warnings[0].line == written.count("\n", 0, written.index("@article{michel2019b")) + 1
    files = build(content, None, THEMES).files
    html = files["coin-flips/index.html"].decode()
    listed = re.findall(r'<li id="(ref-[^"]+)"', html)
    assert listed == ["ref-devlin2019", "ref-gemma2024", "ref-michel2019a", "ref-vaswani2017"]
    assert all(f'href="#{anchor}"' in html for anchor in listed if anchor != "ref-michel2019a")
    # The embed of the step lists only what the step cites.
    step = files["embed/coin-flips/step-1.html"].decode()
    assert re.findall(r'<li id="(ref-[^"]+)"', step) == ["ref-gemma2024"]
    assert ('<summary>BibTeX</summary><div class="code-block"><pre tabindex="0">'
            '<code class="language-bibtex">@misc{gemma2024,') in step


def test_json_ld_cites_the_reference_list(tmp_site):
    content = site_with(tmp_site, " [@vaswani2017].")
    config = content / "site.toml"
    config.write_text('base_url = "https://example.org/"\n' + config.read_text())
    html = build(content, None, THEMES).files["coin-flips/index.html"].decode()
    article = next(json.loads(d) for d in re.findall(r'<script type="application/ld\+json">(.*?)</script>', html)
                   if '"Article"' in d)
    assert article["citation"][0] == {"@type": "CreativeWork", "name": "Attention Is All You Need",
                                      "author": "Ashish Vaswani, Noam Shazeer, Niki Parmar and Łukasz Kaiser",
                                      "datePublished": "2017", "url": "https://arxiv.org/abs/1706.03762"}
    assert article["citation"][-1]["name"] == "On Coins"  # the page's own [[references]] stay


def test_an_unknown_key_is_an_error_at_its_file_and_line(tmp_site):
    content = site_with(tmp_site, step_text="Click **3**, as [@vaswani2071, p. 2] says.")
    with pytest.raises(ContentError) as info:
        read_site(content)
    [problem] = info.value.problems
    assert (problem.path.name, problem.line) == ("01-runs.md", 31)
    assert problem.message == "unknown citation key 'vaswani2071' (did you mean 'vaswani2017'?)"


def test_a_site_without_a_bibliography_leaves_at_signs_alone_but_not_bracketed_citations(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP.replace("Click **3**.", "Click **3**, @someone.")})
    result = build(content, None, THEMES)
    assert result.site.bibliography is None
    assert "Click <strong>3</strong>, @someone." in result.files["coin-flips/index.html"].decode()


def test_without_a_bibliography_a_bracketed_citation_is_an_error(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP.replace("Click **3**.", "Click **3** [@x].")})
    with pytest.raises(ContentError) as info:
        read_site(content)
    assert "cites 'x', but the site has no bibliography" in info.value.problems[0].message


def test_further_reading_must_name_an_entry(tmp_site):
    content = site_with(tmp_site, " [@vaswani2017; @devlin2019; @gemma2024; @michel2019a; @michel2019b].")
    main = content / "coin-flips/explainer.md"
    main.write_text(main.read_text().replace("related = [", 'further_reading = ["gemma2042"]\nrelated = ['))
    with pytest.raises(ContentError) as info:
        read_site(content)
    [problem] = info.value.problems
    assert problem.field == "further_reading" and problem.line == 6
    assert "'gemma2042', which is not in the bibliography (did you mean 'gemma2024'?)" in problem.message
