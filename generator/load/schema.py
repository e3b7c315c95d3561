"""The site's schema: site.toml (its settings, its series and extra entries, the theme's
words under [labels]) and what every page kind's main file shares (`kind`, references,
further reading), one `Option` per key (load/validation.py is the engine that checks them).
"""
from __future__ import annotations

import re
import unicodedata

from ..site import ROOT_FOLDERS, ROOT_NAMES
from .validation import Option, language, nonempty, url_check
from .words import LABELS

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


def base_url(value: str) -> str | None:
    """The site's own address: pages, the sitemap and canonical links are built from it."""
    if not value:
        return None
    if message := url_check(value):
        return message
    if re.search(r"[\s?#]", value):
        return f"expected an address without spaces, query or fragment, found {value!r}"
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
