"""What the starter (`new`, generator/dev/starter/) wrote that an author has left as
it was: the starter's question, subtitle and description, its introduction, key ideas
and questions, its two example steps and its example question (quiz/). Each is a warning, found once the site is
loaded (build() calls `site_leftovers`: the dev layer's check, called from above the
stages), so `check --strict` refuses a page that still says what the example said.

The starter's texts are read from the starter itself, so a change to it is a change
to what is looked for. Text is compared with its whitespace collapsed, a paragraph
(or list item) at a time: a paragraph the author rewrote is theirs."""
from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import Problem

STARTER = Path(__file__).resolve().parent / "starter"
# What `new` once wrote as the subtitle of the explainer and of its site.toml entry,
# before it asked for one: a site made then still holds it.
SUBTITLE_PLACEHOLDER = "A one-line promise of what the reader will understand"
_MAIN_KEYS = ("subtitle", "question", "description")   # the metadata of explainer.md an author must write
_STEP_KEYS = ("title", "subtitle", "summary")
_SHORTEST = 20  # characters: shorter texts ("Temperature") are words an author may well use too


@dataclass(frozen=True)
class _Text:
    """A paragraph, list item or metadata value the starter wrote."""
    field: str        # where the starter had it: 'question', 'intro', ... or the step's file name
    text: str         # with whitespace collapsed
    first_line: str   # its first line as written, to find its line in an author's file
    step: str = ""    # the starter's step (its title) or question (its name) it is of; '' for explainer.md
    example: str = "step"  # which: a step, or a question of quiz/


def site_leftovers(site) -> list[Problem]:
    """starter_leftovers() of a loaded Site: its pages' Markdown files and its site.toml."""
    if site.config is None:
        return []
    pages = sorted(site.pages, key=lambda page: page.path)  # as load read them: folder by folder
    texts = {path: _read(path) for page in pages for path in sorted(page.path.rglob("*.md"))}
    return starter_leftovers(pages, texts, site.config.path, _read(site.config.path))


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def starter_leftovers(pages: list, texts: dict[Path, str], site_file: Path, site_text: str) -> list[Problem]:
    """A warning for each field or part of a page still holding the starter's text, one
    for each example step or question still there, and one for each site.toml entry whose subtitle
    is the old placeholder. `texts` holds the Markdown files of the pages, by path."""
    found = []
    for page in pages:
        for path in sorted(p for p in texts if p.is_relative_to(page.path)):
            found += _in_file(path, texts[path])
    for number, line in enumerate(site_text.split("\n"), start=1):
        if re.match(r"\s*subtitle\s*=", line) and SUBTITLE_PLACEHOLDER in line:
            found.append(Problem(site_file, "the starter's placeholder subtitle is still here "
                                 f"(\"{SUBTITLE_PLACEHOLDER}\"): write the explainer's own", number, "subtitle"))
    return found


@functools.lru_cache(maxsize=1024)  # by the text: a rebuild reads every file again, most unchanged
def _in_file(path: Path, text: str) -> tuple[Problem, ...]:
    flat = " ".join(text.split())
    hits = [unit for unit in _starter_texts() if unit.text in flat]
    if not hits:
        return ()
    problems, seen = [], set()
    for unit in hits:
        key = unit.step or unit.field
        if key in seen:
            continue
        seen.add(key)
        line = _line_of(text, unit.first_line)
        if unit.step:
            problems.append(Problem(path, f"the starter's example {unit.example} (\"{unit.step}\") is still here: "
                                    "make it your own, or delete it", line))
        else:
            excerpt = unit.text if len(unit.text) <= 60 else unit.text[:57].rstrip() + "…"
            problems.append(Problem(path, f"the starter's placeholder text is still here (\"{excerpt}\"): write "
                                    "your own", line, unit.field))
    return tuple(problems)


def _line_of(text: str, first_line: str) -> int | None:
    for number, line in enumerate(text.split("\n"), start=1):
        if first_line and first_line in line:
            return number
    return None


@functools.lru_cache(maxsize=1)
def _starter_texts() -> tuple[_Text, ...]:
    units = _units("subtitle", SUBTITLE_PLACEHOLDER)
    meta, parts = _document(STARTER / "explainer.md")
    for key in _MAIN_KEYS:
        units += _units(key, meta.get(key))
    for part in ("intro", "key-ideas", "questions"):
        for block in _blocks(parts.get(part, "")):
            units += _units(part, block)
    for path in sorted((STARTER / "steps").glob("*.md")):
        meta, parts = _document(path)
        title = meta.get("title", path.stem)
        values = [meta.get(key) for key in _STEP_KEYS]
        blocks = [block for part in parts.values() for block in _blocks(part)]
        for value in values + blocks:
            units += _units(path.name, value, title)
    for path in sorted((STARTER / "quiz").glob("*.md")):
        _, parts = _document(path)
        name = path.stem.split("-", 1)[-1]  # quiz/01-top-word.md is the question "top-word"
        for block in (block for part in parts.values() for block in _blocks(part)):
            units += _units(path.name, block, name, "question")
    return tuple(units)


def _document(path: Path) -> tuple[dict, dict[str, str]]:
    """A starter file's front matter (its __TOKENS__ filled, as `new` fills them) and parts."""
    text = path.read_text("utf-8")
    for token, value in (("__TODAY__", "2000-01-01"), ("__TITLE__", "__title__"), ("__SUBTITLE__", "__subtitle__")):
        text = text.replace(token, value)
    _, front, body = text.split("+++\n", 2)
    parts, name = {"main": []}, "main"
    for line in body.split("\n"):
        marker = re.match(r"^:::\s*([A-Za-z][\w-]*)\s*$", line)
        if marker:
            name = marker.group(1)
            parts[name] = []
        else:
            parts[name].append(line)
    return tomllib.loads(front), {key: "\n".join(lines) for key, lines in parts.items()}


def _units(field: str, value, step: str = "", example: str = "step") -> list[_Text]:
    if not isinstance(value, str) or "__" in value:  # __TITLE__ and the like are the author's
        return []
    text = " ".join(value.split())
    if len(text) < _SHORTEST:
        return []
    return [_Text(field, text, value.strip().split("\n")[0].strip()[:40], step, example)]


def _blocks(markdown: str) -> list[str]:
    """Paragraphs, list items and headings of a Markdown text."""
    blocks = []
    for paragraph in re.split(r"\n\s*\n", markdown):
        items = re.split(r"\n(?=\s*(?:[-*] |#+ ))", paragraph.strip())
        blocks += [re.sub(r"^\s*(?:[-*]|#+)\s+", "", item) for item in items if item.strip()]
    return blocks
