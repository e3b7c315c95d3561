"""The typed schema of everything an author writes: site config, explainer
metadata, and step declarations.

Each option is declared once, with its type, default and a docstring; the
validator collects every problem in a table ("expected X, found Y") before
anything stops, and reports unknown keys as warnings.
"""
from __future__ import annotations

import datetime as _dt
import difflib
import functools
import math
import re
import unicodedata
from dataclasses import dataclass, make_dataclass, replace
from pathlib import Path
from typing import Any, Callable

from ..errors import Problem
from ..site import ROOT_FOLDERS, ROOT_NAMES

_TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a table",
    _dt.date: "a date (YYYY-MM-DD)",
}


@dataclass(frozen=True)
class Option:
    """One key of a table: its type, whether it is required, and what it means."""

    types: tuple[type, ...]
    doc: str
    required: bool = False
    default: Any = None
    choices: tuple | None = None
    # Extra check on a well-typed value; returns an error message or None.
    check: Callable[[Any], str | None] | None = None
    # For lists of tables: the schema of each item.
    item: "dict[str, Option] | None" = None

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in self.types)


# What XML 1.0 forbids in text (and HTML too): the C0 control characters but the tab and the
# line breaks, lone surrogates, U+FFFE and U+FFFF. One in a title made every SCORM manifest
# ill-formed; a vertical tab (U+000B) is what a soft line break pasted from a word processor becomes.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def forbidden_character(text: str) -> str | None:
    """A message naming the first character of `text` that no text field may hold, or None."""
    found = FORBIDDEN.search(text)
    if found is None:
        return None
    return (f"holds the control character U+{ord(found.group(0)):04X}, which XML 1.0 (an LMS's manifest) and "
            "HTML forbid: delete it (a soft line break pasted from a word processor is one)")


def _forbidden_in(value) -> str | None:
    """forbidden_character() of a string, or of the strings in a list or table of them."""
    if isinstance(value, str):
        return forbidden_character(value)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return next((found for item in items if (found := _forbidden_in(item))), None)


def nonempty(value) -> str | None:
    return "must not be empty" if not str(value).strip() else None


MAX_SLUG = 80  # a slug names a folder and files (offline/<slug>.html, <slug>-scorm2004.zip): well under 255


def check_slug(value: str) -> str | None:
    """A page's name in its folder and its addresses: never one of the names the build
    writes at its root (site.py's ROOT_NAMES), which its folder would collide with."""
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", value):
        near = slug_of(value)
        hint = f" (did you mean {near!r}?)" if near and near != value else ""
        return f"expected a slug of lowercase letters, digits and hyphens, found {value!r}{hint}"
    if len(value) > MAX_SLUG:
        return f"expected a slug of at most {MAX_SLUG} characters, found one of {len(value)} ({value[:20]}...)"
    if value in ROOT_NAMES:
        return (f"{value!r} is a folder every build writes beside the pages ({', '.join(ROOT_FOLDERS)}): "
                "a page of that name would share its files; choose another slug")
    return None


def slug_of(text: str) -> str:
    """The slug a title would have: "Convolution Filter" -> "convolution-filter" (accents
    dropped, every run of other characters one hyphen)."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def url_check(value: str) -> str | None:
    if not re.match(r"^https?://[^/\s]+", value):
        return f"expected an absolute URL with a scheme (https://...), found {value!r}"
    return None


def base_url(value: str) -> str | None:
    """The site's own address: pages, the sitemap and canonical links are built from it."""
    if not value:
        return None
    if message := url_check(value):
        return message
    if re.search(r"[\s?#]", value):
        return f"expected an address without spaces, query or fragment, found {value!r}"
    return None


def language(value: str) -> str | None:
    if not re.fullmatch(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*", value):
        return f"expected a language tag such as 'en' or 'pt-BR', found {value!r}"
    return None


def placeholders(*allowed: str) -> Callable[[str], str | None]:
    """Labels with {placeholders}: any other {name} would reach the page unreplaced."""
    def check(value: str) -> str | None:
        unknown = [name for name in re.findall(r"\{([^{}]*)\}", value) if name not in allowed]
        if unknown:
            names = ", ".join("{" + n + "}" for n in allowed)
            return f"unknown placeholder {{{unknown[0]}}} (expected {names})"
        return nonempty(value)
    return check


def months(value: list) -> str | None:
    if len(value) != 12 or not all(isinstance(m, str) and m.strip() for m in value):
        return f"expected 12 month names, January first, found {value!r}"
    return None


def identifier(value: str) -> str | None:
    if not value.isidentifier():
        return f"expected a Python identifier, found {value!r}"
    return None


def values_check(value) -> str | None:
    if isinstance(value, list) and not value:
        return "must list at least one value"
    if isinstance(value, list):
        bad = [v for v in value if isinstance(v, bool) or not isinstance(v, (str, int, float))]
        if bad:
            return f"values must be strings or numbers, found {bad[0]!r}"
        endless = [v for v in value if isinstance(v, float) and not math.isfinite(v)]
        if endless:  # TOML has nan and inf; a state's key, its address and its sentence cannot
            return f"values must be finite numbers, found {endless[0]!r}"
        if len({str(v) for v in value}) != len(value):
            return "values must be unique"
    return None


SERIES_ENTRY = {
    "slug": Option((str,), "The explainer's folder name and URL segment: lowercase letters, digits and hyphens, "
                   f"at most {MAX_SLUG}, and not a folder the build writes beside the pages "
                   f"({', '.join(ROOT_FOLDERS)}).", required=True, check=check_slug),
    "title": Option((str,), "Title shown in the series list.", required=True, check=nonempty),
    "subtitle": Option((str,), "One-line summary shown under the title.", default=""),
    "planned": Option((bool,), "true for an explainer not written yet: shown as planned ('coming soon') until "
                      "its folder exists. An entry without a folder and without planned = true is a warning "
                      "(--strict fails), as a renamed or deleted folder would otherwise go unnoticed.",
                      default=False),
}

LABELS = {
    "skip": Option((str,), "The skip link to the main content.", default="Skip to content"),
    "not_found": Option((str,), "Heading of the not-found page.", default="Page not found"),
    "not_found_text": Option((str,), "Text of the not-found page.",
                             default="There is no page at this address. The link below leads to every explainer."),
    "home": Option((str,), "Link text back to the index.", default="All explainers"),
    "series": Option((str,), "Heading of the series navigation.", default="The series"),
    "steps": Option((str,), "Heading of the list of steps.", default="Steps"),
    "step_of": Option((str,), "Step counter; {n} and {total} are replaced.", default="Step {n} of {total}",
                      check=placeholders("n", "total")),
    "previous_step": Option((str,), "Link to the previous step.", default="Previous step"),
    "next_step": Option((str,), "Link to the next step.", default="Next step"),
    "try_this": Option((str,), "Heading of a step's hint.", default="Try this"),
    "deeper": Option((str,), "Heading of a step's deeper paragraph.", default="Going deeper"),
    "practitioners": Option((str,), "Summary of a step's closed box for practitioners.", default="For practitioners"),
    "key_ideas": Option((str,), "Heading of the key ideas.", default="Key ideas"),
    "questions": Option((str,), "Heading of the common questions.", default="Common questions"),
    "related": Option((str,), "Heading of the related explainers.", default="Related explainers"),
    "references": Option((str,), "Heading of the references.", default="References"),
    "bibtex": Option((str,), "Disclosure under each work of the references that shows its BibTeX.",
                     default="BibTeX"),
    "updated": Option((str,), "Text before the last-updated date.", default="Last updated"),
    "date_format": Option((str,), "How a date is written; {day}, {month} (a name from months) and {year} "
                          "are replaced.", default="{day} {month} {year}",
                          check=placeholders("day", "month", "year")),
    "months": Option((list,), "The twelve month names, January first.",
                     default=["January", "February", "March", "April", "May", "June", "July", "August",
                              "September", "October", "November", "December"], check=months),
    "previous": Option((str,), "Link to the previous explainer.", default="Previous explainer"),
    "next": Option((str,), "Link to the next explainer.", default="Next explainer"),
    "explainer_nav": Option((str,), "Names the links to the previous and next explainers for screen readers.",
                            default="More in the series"),
    "extra": Option((str,), "Heading of the index's explainers outside the numbered series.",
                    default="Also related"),
    "planned": Option((str,), "Marks a planned explainer that is not published yet.", default="coming soon"),
    "no_script": Option((str,), "Shown where a chart would be when JavaScript is off.",
                        default="Turn on JavaScript to see the interactive chart; the text shows the default state."),
    "chart_pending": Option((str,), "Over a chart's still drawing when the reader has chosen another state and "
                            "the interactive chart is still loading (the readouts, prose and table already show "
                            "the new one).", default="Showing the previous choice: the chart is on its way"),
    "chart_rescales": Option((str,), "Under a chart whose axes follow each choice (its step file's rescale), "
                             "before the author's reason.", default="Its scale follows each choice:"),
    "chart_rescaled": Option((str,), "Said under such a chart, and to screen readers, when a choice has "
                             "changed its scale.", default="The scale has changed."),
    "chart_data": Option((str,), "Caption of a chart's data table.", default="Data shown in the chart"),
    "show_data": Option((str,), "Toggle that shows a chart's data table.", default="Show data"),
    "data_item": Option((str,), "Data table heading for the labelled items of a chart with no axis title.",
                        default="Item"),
    "data_value": Option((str,), "Data table heading for values where the chart has no axis title.",
                         default="Value"),
    "data_position": Option((str,), "Data table heading for positions along a chart with no axis title.",
                            default="Position"),
    "data_state": Option((str,), "Data table heading for the state of a bar or a diagram's box (removed, "
                         "highlighted, faded).", default="State"),
    "data_masked": Option((str,), "A masked cell of a heatmap, in its data table.", default="masked"),
    "data_removed": Option((str,), "A faded bar (a token cut by top-k, say), in its data table.",
                           default="removed"),
    "data_threshold": Option((str,), "Data table row of a bar chart's threshold, when it has no label.",
                             default="Threshold"),
    "data_highlighted": Option((str,), "A highlighted box of a diagram, in its data table.",
                               default="highlighted"),
    "data_faded": Option((str,), "A faded box of a diagram, in its data table.", default="faded"),
    "data_leads_to": Option((str,), "Data table heading for the boxes a diagram's box has arrows to.",
                            default="Leads to"),
    "data_path": Option((str,), "Data table row listing a diagram's highlighted path.",
                        default="Highlighted path"),
    "dark_mode": Option((str,), "Name of the button that switches between light and dark colours.",
                        default="Dark mode"),
    # Embeds and single-file copies (see docs/embedding.md).
    "embed": Option((str,), "The button under each figure that shows its iframe code.", default="Embed"),
    "embed_step": Option((str,), "The button under a step of several charts that shows the iframe code of the "
                         "step with all of them.", default="Embed this step"),
    "embed_chart": Option((str,), "Said to screen readers after embed, on the Embed button under one of a "
                          "step's several charts; {title} is the chart's title.", default="this chart: {title}"),
    "embed_explainer": Option((str,), "The button near the title that shows the whole explainer's iframe code.",
                              default="Embed the whole explainer"),
    "embed_preview": Option((str,), "Link that opens an embed on its own, as a course page would show it.",
                            default="Preview the embed"),
    "embed_help": Option((str,), "Explains the iframe code.",
                         default="Paste this HTML into a course page or website. It stays "
                                 "interactive and sets its own height where the page allows it."),
    "embed_code": Option((str,), "Label of the box holding the iframe code.", default="Embed code (HTML)"),
    "embed_relative": Option((str,), "Shown when the iframe address is relative (the site has no base_url).",
                             default="This address is relative: it works on pages published beside this "
                                     "site. Open the page from its web address to get one that works anywhere."),
    "embed_state": Option((str,), "Option to open the embedded figure in the state shown.",
                          default="Open in the state shown"),
    "copy_code": Option((str,), "Button that copies the iframe code, a block of code or a work's BibTeX.",
                        default="Copy code"),
    "copied": Option((str,), "Confirms the iframe code was copied.", default="Copied."),
    "copy_failed": Option((str,), "Shown when the browser refuses to copy.",
                          default="The code is selected: press Ctrl+C (⌘C on a Mac) to copy it."),
    "open_full": Option((str,), "Link from an embed to the full explainer.", default="Open the full explainer"),
    "save_offline": Option((str,), "Link to the explainer as one HTML file for offline reading.",
                           default="Save as one file for offline reading"),
    "play": Option((str,), "Heading of the box at the end of every explainer that links to the game (site.toml's "
                   "play).", default="Play with this concept"),
    "play_link": Option((str,), "The link in that box.", default="Play"),
    # Figures for slides and papers (docs/figures.md).
    "figure": Option((str,), "The button under each chart that offers the chart as an image file.",
                     default="Download figure"),
    "figure_svg": Option((str,), "Button that saves the figure as SVG (its text stays text).", default="SVG"),
    "figure_png": Option((str,), "Button that saves the figure as a PNG at twice the chart's size.",
                         default="PNG (2×)"),
    "figure_light": Option((str,), "Option for a light figure on white, whatever colours the page shows.",
                           default="Light, on white, for print"),
    "figure_making": Option((str,), "Shown while the figure is being drawn.", default="Drawing the figure…"),
    "figure_saved": Option((str,), "Confirms the figure was handed to the browser to save.",
                           default="Saved: {file}", check=placeholders("file")),
    "figure_opened": Option((str,), "Shown with the figure opened in the page where the frame around it may "
                            "not allow downloads (a sandboxed iframe).",
                            default="If your browser did not save {file}, right-click the figure below (or "
                                    "press and hold it) and save the image.", check=placeholders("file")),
    "figure_failed": Option((str,), "Shown when the browser could not draw the figure.",
                            default="The figure could not be drawn in this browser."),
    "figure_source": Option((str,), "The source line of a figure; {page} and {site} are replaced (the address of "
                            "the state follows it).", default="Source: {page}, {site}",
                            check=placeholders("page", "site")),
    "figures": Option((str,), "Link from an explainer to its page of figures.",
                      default="Figures for slides and papers"),
    "figures_title": Option((str,), "Heading of an explainer's page of figures; {title} is the explainer's title.",
                            default="Figures: {title}", check=placeholders("title")),
    "figures_intro": Option((str,), "The first paragraph of a page of figures.",
                            default="Every chart of the explainer in its first state, as SVG with its caption "
                                    "and source. Under each chart on the explainer's page, Download figure "
                                    "gives the state you chose, as SVG or PNG."),
    "figure_open": Option((str,), "Link from a figure to its step in the explainer.", default="Open in the explainer"),
    "figure_file": Option((str,), "Link to a figure's SVG file.", default="SVG file"),
    "cite": Option((str,), "Heading of the ways to cite a figure.", default="Cite this figure"),
    "cite_text": Option((str,), "Label of the citation as text.", default="As text"),
    "cite_bibtex": Option((str,), "Label of the citation as a BibTeX entry.", default="BibTeX"),
}

# A label left empty would leave a heading or a link with no words.
LABELS = {key: option if option.check else replace(option, check=nonempty) for key, option in LABELS.items()}

SITE = {
    "title": Option((str,), "The site's name, shown in every page header.", required=True, check=nonempty),
    "description": Option((str,), "One line about the site, for the index and search engines.", default=""),
    "language": Option((str,), "BCP 47 language tag of the content (the html lang attribute).", default="en",
                       check=language),
    "theme": Option((str,), "Name of a folder under themes/: 'default', or 'course' for plain pages to "
                    "embed in course material (the command line's --theme overrides it).", default="default",
                    check=nonempty),
    "base_url": Option(
        (str,), "Absolute URL where the site is published, e.g. 'https://user.github.io/repo/'. When set, "
        "pages get canonical links, Open Graph and Twitter card tags and JSON-LD, the build writes "
        "sitemap.xml and robots.txt, and the 404 page links home by this address. Leave it out for a "
        "build that only runs from disk or at an address not known yet: links stay relative either way.",
        default="", check=base_url,
    ),
    "max_states": Option(
        (int,), "Largest number of control combinations one step may have.", default=512,
        check=lambda v: None if v > 0 else "must be positive",
    ),
    "time_limit": Option(
        (int, float), "Seconds a model's code may run for one state of a step (and for its import) before the "
        "build stops with an error naming the explainer, the step and the state: a model in an endless loop "
        "fails the build rather than hanging it.", default=30,
        check=lambda v: None if 0 < v <= 86_400 else f"expected a number of seconds above 0, found {v}",
    ),
    "labels": Option((dict,), "Words the theme puts around content (translate them here).", default={},
                     item=LABELS),
    "series": Option((list,), "The numbered series, in order.", default=[], item=SERIES_ENTRY),
    "play": Option((str,), "Slug of the page (a game) that the 'Play with this concept' box at the end of every "
                   "explainer links to, with that page's title and description; it must be a folder of "
                   "content/. Leave it out for no box.", default="", check=lambda v: check_slug(v) if v else None),
    "extra": Option((list,), "Related explainers outside the numbered series.", default=[], item=SERIES_ENTRY),
    "bibliography": Option(
        (str,), "The site's bibliography: a BibTeX file in content/, the works every page may cite in its text "
        "as [@key] (docs/authoring.md, Citations). Each page's references list the works it cites and those its "
        "further_reading names. A duplicate key or an entry that cannot be read is an error; an entry no page "
        "cites is a warning. When the default file does not exist, the site has no bibliography.",
        default="references.bib", check=lambda v: None if v.endswith(".bib") and "/" not in v.strip("/")
        else f"expected a .bib file name in content/, found {v!r}",
    ),
    "licence": Option(
        (str,), "The terms on which readers may reuse the site's figures, e.g. 'CC BY 4.0: share and adapt with "
        "credit'. Shown as the last line of every figure (Download figure, and the pages of figures), and in "
        "their citations (docs/figures.md). Leave it out to say nothing about reuse.", default="",
    ),
}

# A page's works from the site's bibliography that its text does not cite.
FURTHER_READING = Option((list,), "Keys of works in the site's bibliography to list in the page's references "
                         "though its text does not cite them.", default=[],
                         check=lambda v: None if all(isinstance(key, str) for key in v)
                         else f"expected a list of bibliography keys, found {v!r}")

# "Check your understanding" (kinds/explainer/quiz/, docs/authoring.md): its words, and the
# score a learner needs to pass, which SCORM packages report against (docs/lms.md).
QUIZ_LABELS = {
    "quiz": Option((str,), "Heading of an explainer's questions (the quiz/ folder).",
                   default="Check your understanding"),
    "quiz_intro": Option((str,), "The line under that heading.",
                         default="Answer from what the charts show. Each answer links to the state that shows why."),
    "quiz_question": Option((str,), "Names each question; {n} and {total} are replaced.",
                            default="Question {n} of {total}", check=placeholders("n", "total")),
    "quiz_check": Option((str,), "The button that checks an answer.", default="Check"),
    "quiz_check_chart": Option((str,), "The button that checks the state of the chart a question asks for.",
                               default="Check the chart"),
    "quiz_task": Option((str,), "Link to the step whose controls a question asks the reader to set; {n} and "
                        "{title} are replaced.", default="Set the controls in step {n}: {title}",
                        check=placeholders("n", "title")),
    "quiz_your_answer": Option((str,), "Label of the box for a number.", default="Your answer"),
    "quiz_right": Option((str,), "Starts the feedback on a right answer.", default="Right."),
    "quiz_wrong": Option((str,), "Starts the feedback on a wrong answer.", default="Not quite."),
    "quiz_choose": Option((str,), "Shown when Check is pressed with no option chosen.",
                          default="Choose an answer first."),
    "quiz_number": Option((str,), "Shown when Check is pressed with no number in the box.",
                          default="Type a number first."),
    "quiz_explain": Option((str,), "Link from a question to the state that shows its answer; {n} and {title} "
                           "(the step's) are replaced.", default="See it in step {n}: {title}",
                           check=placeholders("n", "title")),
    "quiz_score": Option((str,), "The reader's score; {right} and {total} are replaced.",
                         default="Score: {right} of {total}", check=placeholders("right", "total")),
    "quiz_try_again": Option((str,), "The button that clears every answer for a new attempt.", default="Try again"),
    "quiz_show_answer": Option((str,), "Opens a question's answer where scripts are off.",
                               default="Show the answer"),
    "quiz_answer": Option((str,), "The answer, where scripts are off; {answer} is replaced.",
                          default="Answer: {answer}", check=placeholders("answer")),
    "quiz_chart_answer": Option((str,), "An answer to a question about the chart, where scripts are off; {n} "
                                "and {choices} (each control and its value) are replaced.",
                                default="One answer: step {n} with {choices}", check=placeholders("n", "choices")),
}
LABELS.update({key: option if option.check else replace(option, check=nonempty)
               for key, option in QUIZ_LABELS.items()})
SITE["mastery_score"] = Option(
    (int,), "The share of a page's questions (Check your understanding) a learner must answer right to pass, in "
    "percent. SCORM packages report passed or failed against it, and tell the LMS (docs/lms.md).", default=80,
    check=lambda v: None if 0 < v <= 100 else f"expected a percentage from 1 to 100, found {v}")

REFERENCE = {
    "authors": Option((str,), "Authors as they should be cited.", required=True, check=nonempty),
    "year": Option((int,), "Year of publication.", required=True),
    "title": Option((str,), "Title of the work.", required=True, check=nonempty),
    "url": Option((str,), "Link to the work.", default="", check=lambda v: url_check(v) if v else None),
}

# Every content folder's main file may say which page kind it is (generator/kinds/).
KIND = Option((str,), "The page kind of this folder: 'explainer' (the default) or another kind under "
              "generator/kinds/.", default="explainer", check=lambda v: check_slug(v) and f"expected a kind name, found {v!r}")


def record(name: str, table: dict[str, Option], module: str) -> type:
    """A frozen dataclass with one field per key of `table`, in order: the
    content model the stages read is the schema itself, declared once."""
    fields = [(key, option.types[0] if len(option.types) == 1 else object) for key, option in table.items()]
    cls = make_dataclass(name, fields, frozen=True)
    cls.__module__ = module
    cls.__doc__ = f"One validated {name} table: {', '.join(table)}."
    return cls


def validate(table: dict, schema: dict[str, Option], path: Path, text: str = "",
             prefix: str = "", table_line: int | None = None) -> tuple[dict, list[Problem], list[Problem]]:
    """Check `table` against `schema`; return (values with defaults, errors, warnings).

    Every problem in the table is collected; `text` (the file's source) lets each
    one point at its line, and `prefix` names where a nested table sits
    ("controls[1].")."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    clean: dict = {}

    def locate(key: str) -> int | None:
        return line_of(text, key, prefix) or table_line

    for key, value in table.items():
        if key not in schema:
            near = _closest(key, schema)
            hint = f" (did you mean '{near}'?)" if near else f" (known keys: {', '.join(schema)})"
            warnings.append(Problem(path, f"unknown key{hint}; it is ignored", locate(key), prefix + key))
    for key, option in schema.items():
        name = prefix + key
        if key not in table:
            if option.required:
                slip = misspelt(key, table, schema)
                errors.append(Problem(path, f"is required: expected {option.describe()}" + slip_hint(slip, key),
                                      locate(slip) if slip else table_line, name))
            elif option.item is not None and isinstance(option.default, dict):
                clean[key] = validate({}, option.item, path)[0]
            else:
                clean[key] = option.default
            continue
        value = table[key]
        line = locate(key)
        if not _has_type(value, option.types):
            errors.append(Problem(path, f"expected {option.describe()}, found {_describe(value)}"
                                  + _type_hint(value, option), line, name))
            continue
        if option.item is None and (message := _forbidden_in(value)):  # tables of a schema: their own keys
            errors.append(Problem(path, message, line, name))
            continue
        if option.choices and value not in option.choices:
            errors.append(Problem(path, f"expected {option.describe()}, found {value!r}"
                                  + did_you_mean(value, option.choices), line, name))
            continue
        if option.check and (message := option.check(value)):
            errors.append(Problem(path, message, line, name))
            continue
        if option.item is not None and isinstance(value, list):
            items = []
            for index, item in enumerate(value):
                where = f"{name}[{index}]"
                if not isinstance(item, dict):
                    errors.append(Problem(path, f"expected a table, found {_describe(item)}", line, where))
                    continue
                item_line = line_of(text, None, where + ".") or line
                sub, sub_errors, sub_warnings = validate(item, option.item, path, text, where + ".", item_line)
                errors += sub_errors
                warnings += sub_warnings
                items.append(sub)
            value = items
        elif option.item is not None and isinstance(value, dict):
            sub_line = line_of(text, None, name + ".") or line
            value, sub_errors, sub_warnings = validate(value, option.item, path, text, name + ".", sub_line)
            errors += sub_errors
            warnings += sub_warnings
        clean[key] = value
    return clean, errors, warnings


def _has_type(value, types) -> bool:
    if isinstance(value, bool):
        return bool in types
    if isinstance(value, _dt.datetime):
        return _dt.datetime in types
    if isinstance(value, int) and float in types:
        return True
    return isinstance(value, types)


def _describe(value) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, kind) and not isinstance(value, _dt.datetime):
            return f"{value!r} ({name})" if not isinstance(value, (list, dict)) else name
    return type(value).__name__


_HEADER = re.compile(r"^\s*\[(\[)?\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_SECTION = re.compile(r"^(.*?)(?:\[(\d+)\])?\.$")


def line_of(text: str, key: str | None, prefix: str = "") -> int | None:
    """Best-effort line of `key = ...` in the TOML table that `prefix` names
    ("" top level, "chart.", "controls[1]."), or of the table's header when
    `key` is None. Front matter is searched only up to its closing '+++'."""
    if not text:
        return None
    wanted = None
    if prefix:
        match = _SECTION.match(prefix)
        wanted = (match.group(1), int(match.group(2)) if match.group(2) else None)
    headers, keys = _line_index(text)
    return headers.get(wanted) if key is None else keys.get((wanted, key))


_KEY = re.compile(r'^\s*(?:"([^"]*)"|([^\s="]+))\s*=')


@functools.lru_cache(maxsize=1024)  # every content file: a build asks again when it computes the steps
def _line_index(text: str) -> tuple[dict, dict]:
    """Every table header's and key's first line, read in one pass: validation asks
    for the line of every key of a file, and rescanning the file each time was slow."""
    lines = text.split("\n")
    front_matter = bool(lines) and lines[0].strip() == "+++"
    headers: dict = {}
    keys: dict = {}
    current, seen = None, {}
    for number, line in enumerate(lines[1:] if front_matter else lines, start=2 if front_matter else 1):
        if front_matter and line.strip() == "+++":
            break
        header = _HEADER.match(line)
        if header:
            name = header.group(2).strip()
            if header.group(1):  # [[name]]: one more table in an array
                seen[name] = seen.get(name, -1) + 1
                current = (name, seen[name])
            else:
                current = (name, None)
            headers.setdefault(current, number)
            continue
        assigned = _KEY.match(line)
        if assigned:
            keys.setdefault((current, assigned.group(1) if assigned.group(1) is not None else assigned.group(2)),
                            number)
    return headers, keys


def misspelt(key: str, table: dict, schema: dict) -> str | None:
    """The key of `table` that is no option of `schema` but close to `key`: a required key
    written with a slip ('sumary' for 'summary'), or None."""
    unknown = [name for name in table if name not in schema]
    return closest(key, unknown, cutoff=0.75)


def slip_hint(slip: str | None, key: str) -> str:
    return f" (found {slip!r}: did you mean {key!r}?)" if slip else ""


def _type_hint(value, option: Option) -> str:
    """A nudge for the commonest slips, such as a date written in quotes."""
    if _dt.date in option.types and isinstance(value, str):
        return "; write the date without quotes, e.g. updated = 2026-01-31"
    if (int in option.types or float in option.types) and isinstance(value, str):
        return "; write the number without quotes"
    return ""


def _closest(key: str, schema: dict) -> str | None:
    return closest(key, list(schema), cutoff=0.75)


def closest(word, names, cutoff: float = 0.6) -> str | None:
    """The name among `names` nearest to `word` (a slip of a letter or two), or None."""
    matches = difflib.get_close_matches(str(word), [str(n) for n in names], n=1, cutoff=cutoff)
    return matches[0] if matches else None


def did_you_mean(word, names) -> str:
    """' (did you mean 'x'?)' for the name nearest to `word`, or '' when none is near."""
    near = closest(word, names)
    return f" (did you mean {near!r}?)" if near is not None and near != str(word) else ""
