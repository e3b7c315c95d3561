"""Load and validate the site: its config, and every content folder in it,
each read by its page kind (generator/kinds/).

Everything is read and checked before anything is computed or written; all
problems in all files are collected, so an author sees every error at once.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from ..errors import ContentError, Problem, did_you_mean
from ..site import DEFAULT_KIND, Site, SiteConfig
from . import schema
from .toml_lines import line_of
from .validation import record, validate
from .bibliography import Bibliography, load_bibliography
from .frontmatter import load_document, parse_toml, read_text
from .syntax import find_citations

SITE_FILE = "site.toml"

SeriesEntry = record("SeriesEntry", schema.SERIES_ENTRY, __name__)
Reference = record("Reference", schema.REFERENCE, __name__)  # a work a page cites ([[references]])


def load_site(content_dir: Path, kinds: dict, warnings: list[Problem] | None = None) -> Site:
    """Read content/: the site config and every content folder in it, each by its kind.

    `kinds` (name -> PageKind) is the build's registry (kinds.discover()), kept on the
    Site for the stages after this one. Warnings are appended to `warnings` as they are
    found (the caller's counting collector), so they are reported even when errors stop
    the build."""
    if not content_dir.is_dir():
        what = "is not a folder" if content_dir.exists() else "does not exist"
        raise ContentError.one(content_dir, f"{what}: expected the content folder, with a {SITE_FILE}")
    errors: list[Problem] = []
    warnings = [] if warnings is None else warnings
    config = collect(errors, lambda: load_config(content_dir / SITE_FILE, warnings))
    pages = []
    folders = sorted(p for p in content_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    for folder in folders:
        kind = collect(errors, lambda: kind_of_folder(folder, kinds, warnings))
        if kind is None:
            continue
        page = collect(errors, lambda: kind.load(folder, warnings))
        if page:
            pages.append(page)
    if config:
        errors += _check_slugs(config, pages, kinds)
        warnings += _entries_without_folders(config, pages)
    texts = {path: _source(path) for page in pages for path in sorted(page.path.rglob("*.md"))}
    errors += _check_page_links(pages, texts)
    bibliography = _bibliography(content_dir, config, errors) if config else None
    errors += _check_citations(pages, texts, bibliography, kinds, warnings)
    errors += _check_references(pages, bibliography, kinds)
    if errors:
        raise ContentError(errors)
    ordered = _series_order(config, pages)
    return Site(root=content_dir, config=config, pages=ordered, warnings=warnings, bibliography=bibliography,
                kinds=kinds)


def kind_of_folder(folder: Path, kinds: dict, warnings: list[Problem]):
    """The kind whose main file the folder holds, as its `kind` key (default
    explainer) confirms; None, with a warning, for a folder with no main file."""
    found = [kind for kind in kinds.values() if present(folder / kind.main_file)]
    if not found:
        names = ", ".join(sorted({kind.main_file for kind in kinds.values()}))
        warnings.append(Problem(folder, f"has no main file ({names}); the folder is skipped"))
        return None
    if len(found) > 1:
        raise ContentError.one(folder, "has the main files of two kinds ("
                               + ", ".join(sorted(kind.main_file for kind in found)) + "): keep one")
    path = folder / found[0].main_file
    doc = load_document(path, None)
    name = doc.meta.get("kind", DEFAULT_KIND if found[0].name == DEFAULT_KIND else found[0].name)
    if name not in kinds:
        raise ContentError.one(path, f"unknown page kind {name!r}: expected one of {', '.join(sorted(kinds))}"
                               + did_you_mean(name, kinds),
                               line_of(doc.text, "kind"), "kind")
    if name != found[0].name:
        raise ContentError.one(path, f"kind {name!r} keeps its content in {kinds[name].main_file}, not "
                               f"{found[0].main_file}: rename the file or change the kind",
                               line_of(doc.text, "kind"), "kind")
    return kinds[name]


def load_config(path: Path, warnings: list[Problem]) -> SiteConfig:
    if not present(path):
        raise ContentError.one(path, "is missing: every site needs a site.toml with at least a title")
    text = read_text(path)
    table = parse_toml(text, path)
    clean, errors, more_warnings = validate(table, schema.SITE, path, text)
    warnings += more_warnings
    if errors:
        raise ContentError(errors)
    entries = lambda rows: tuple(SeriesEntry(**row) for row in rows)  # noqa: E731
    clean["base_url"] = clean["base_url"].rstrip("/") + "/" if clean["base_url"] else ""
    return SiteConfig(path=path, **{**clean, "series": entries(clean["series"]),
                                    "extra": entries(clean["extra"])})


def _check_slugs(config: SiteConfig, pages: list, kinds: dict) -> list[Problem]:
    errors = []
    listed = [e.slug for e in config.series + config.extra]
    text = _source(config.path)
    for slug in sorted({s for s in listed if listed.count(s) > 1}):
        lines = [n for n, row in enumerate(text.split("\n"), start=1)
                 if row.strip().replace(" ", "") in (f'slug="{slug}"', f"slug='{slug}'")]
        errors.append(Problem(config.path, f"slug {slug!r} is listed more than once (each page once, "
                              "in series or extra)", lines[1] if len(lines) > 1 else None, "series"))
    known = set(listed) | {page.slug for page in pages}
    if config.play and config.play not in {page.slug for page in pages}:
        errors.append(Problem(config.path, f"unknown page {config.play!r}: play names a folder of content/ (a game)",
                              line_of(text, "play"), "play"))
    for page in pages:
        if schema.check_slug(page.slug):
            errors.append(Problem(page.path, schema.check_slug(page.slug).replace("slug", "folder name")))
        for slug in page.related:
            if slug not in known:
                path = page.path / kinds[page.kind].main_file
                errors.append(Problem(path, f"unknown page {slug!r}: list it in site.toml or add its folder",
                                      line_of(_source(path), "related"), "related"))
    return errors


def _entries_without_folders(config: SiteConfig, pages: list) -> list[Problem]:
    """A series or extra entry whose folder is missing and that is not marked planned: a
    warning at its line, as a deleted or renamed folder would leave a "coming soon" behind."""
    text = _source(config.path)
    slugs = {page.slug for page in pages}
    unlisted = sorted(slugs - {e.slug for e in config.series + config.extra})
    found = []
    for table, entries in (("series", config.series), ("extra", config.extra)):
        for index, entry in enumerate(entries):
            if entry.slug in slugs or entry.planned:
                continue
            where = f"{table}[{index}]"
            found.append(Problem(
                config.path, f"{entry.slug!r} has no folder in content/, so the site lists it as planned"
                f"{did_you_mean(entry.slug, unlisted)}: add the folder, remove the entry, or write "
                "planned = true in it",
                line_of(text, "slug", where + ".") or line_of(text, None, where + "."), where))
    return found


# A link to another page in an author's Markdown: [text](page:slug#step-2), a reference
# [name]: page:slug, <page:slug> or href="page:slug" (render/links.py resolves them).
_PAGE_LINK = re.compile(r"""(?:\]\(\s*<?|^[ \t]*\[[^\]\n]+\]:[ \t]*<?|<|href=["'])page:([^\s)"'#>]*)""", re.M)


def _check_page_links(pages: list, texts: dict[Path, str]) -> list[Problem]:
    """Every page: link in every page's Markdown files (`texts`, by path) names a page of
    the site: each one that does not is an error at its file and line, with the nearest slug."""
    slugs = sorted(page.slug for page in pages)
    errors = []
    for path, text in texts.items():
        if "page:" in text:
            for match in _PAGE_LINK.finditer(text):
                slug = match.group(1)
                if slug in slugs or "{" in slug:  # a slug a template prints is checked once rendered
                    continue
                hint = did_you_mean(slug, slugs) or f" (its pages: {', '.join(slugs)})"
                errors.append(Problem(path, f"a link to 'page:{slug}' names no page of the site{hint}",
                                      text.count("\n", 0, match.start(1)) + 1))
    return errors


def _bibliography(content_dir: Path, config: SiteConfig, errors: list[Problem]) -> Bibliography | None:
    """The site's BibTeX file, or None when it has none (the default file name, absent)."""
    path = content_dir / config.bibliography
    if not present(path):
        if config.bibliography != schema.SITE["bibliography"].default:
            errors.append(Problem(config.path, f"{config.bibliography} is not in {content_dir}: add the file or "
                                  "leave 'bibliography' out", line_of(_source(config.path), "bibliography"),
                                  "bibliography"))
        return None
    return load_bibliography(path, errors)


def _check_citations(pages: list, texts: dict[Path, str], bibliography: Bibliography | None, kinds: dict,
                     warnings: list[Problem]) -> list[Problem]:
    """Each page's citations, in its Markdown files (`texts`), as they will render: an unknown key
    is an error at its file and line, with the nearest key; the keys each page cites are kept
    on it (page.cites) for its reference list; a work no page cites nor lists is a warning."""
    errors: list[Problem] = []
    entries = bibliography.entries if bibliography else {}
    used: set[str] = set()
    for page in pages:
        cited: dict[str, None] = {}
        for path, text in texts.items():
            if "@" not in text or not path.is_relative_to(page.path):
                continue
            for key, line in _citations_in(text, bool(entries)):
                if key in entries:
                    cited[key] = None
                elif not entries:
                    errors.append(Problem(path, f"cites {key!r}, but the site has no bibliography "
                                          f"(content/references.bib)", line))
                else:
                    near = bibliography.closest(key)
                    errors.append(Problem(path, f"unknown citation key {key!r}"
                                          + (f" (did you mean {near!r}?)" if near else ""), line))
        page.cites = list(cited)
        main = page.path / kinds[page.kind].main_file
        for key in page.further_reading:
            if key not in entries:
                near = bibliography.closest(key) if bibliography else None
                errors.append(Problem(main, f"further_reading names {key!r}, which is not in the bibliography"
                                      + (f" (did you mean {near!r}?)" if near else ""),
                                      line_of(_source(main), "further_reading"), "further_reading"))
        used.update(page.cites, page.further_reading)
    for key, entry in entries.items():
        if key not in used:
            warnings.append(Problem(bibliography.path, f"entry {key!r} is cited by no page: cite it as [@{key}] "
                                    "or list it in a page's further_reading", entry.line))
    return errors


def _check_references(pages: list, bibliography: Bibliography | None, kinds: dict) -> list[Problem]:
    """A page's own [[references]] (their fields are checked by the schema) as the bibliography's
    entries are: a work listed twice, in the page or also in the bibliography, is an error at its
    line. None is "cited by no page", as a bibliography entry may be: the page lists each."""
    errors: list[Problem] = []
    works = {_work(entry.title, entry.year): entry for entry in (bibliography.entries.values() if bibliography else ())}
    for page in pages:
        main = page.path / kinds[page.kind].main_file
        text = _source(main) if page.references else ""
        first: dict[tuple[str, str], int] = {}
        for index, reference in enumerate(page.references):
            where = f"references[{index}]"
            line = line_of(text, None, where + ".")
            said = f"{reference.title!r} ({reference.year})"
            work = _work(reference.title, reference.year)
            if work in first:
                at = line_of(text, None, f"references[{first[work]}].")  # None for an inline array of tables
                errors.append(Problem(main, f"{said} is listed twice: it is references[{first[work]}]"
                                      + (f", at line {at}" if at else ""), line, where))
            elif work in works:
                entry = works[work]
                errors.append(Problem(main, f"{said} is entry {entry.key!r} of the bibliography "
                                      f"({bibliography.path.name}:{entry.line}): cite it as [@{entry.key}] or list "
                                      "it in further_reading instead", line, where))
            first.setdefault(work, index)
    return errors


def _work(title: str, year) -> tuple[str, str]:
    """What names a work whichever way its title is written: its words, in any case, and its year."""
    return " ".join(re.findall(r"\w+", title.casefold())), str(year).strip()


@functools.lru_cache(maxsize=1024)  # by the text: a rebuild reads every file again, most unchanged
def _citations_in(text: str, narrative: bool) -> tuple[tuple[str, int], ...]:
    """(key, line) of every work a Markdown file cites, as the render stage will read it."""
    found = []
    for citation in find_citations(_without_comments(text), narrative=narrative):
        line = text.count("\n", 0, citation.start) + 1
        found += [(item.key, line) for item in citation.items]
    return tuple(found)


_FRONT_MATTER_COMMENT = re.compile(r"^[ \t]*#[^\n]*", re.M)


def _without_comments(text: str) -> str:
    """The text with the whole-line comments of its TOML front matter blanked (lines keep
    their numbers): a comment may show the syntax of a citation without citing."""
    if not text.startswith("+++"):
        return text
    end = text.find("\n+++", 3)
    end = len(text) if end < 0 else end
    return _FRONT_MATTER_COMMENT.sub("", text[:end]) + text[end:]


def _series_order(config: SiteConfig, pages: list) -> list:
    """Pages in series order; unlisted ones follow, alphabetically."""
    rank = {entry.slug: i for i, entry in enumerate(config.series + config.extra)}
    return sorted(pages, key=lambda page: (rank.get(page.slug, len(rank)), page.slug))


def present(path: Path) -> bool:
    """True for a file that exists, and for a broken link, which reading then reports."""
    return path.exists() or path.is_symlink()


def _source(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def collect(errors: list[Problem], load):
    try:
        return load()
    except ContentError as err:
        errors += err.problems
        return None
