"""Figures for slides and papers, made at build time: a chart's still drawing
(render/poster.py) as an SVG file of its own, with its title above it and its
caption, source and licence below, in the theme's light colours on white; and
the ways to cite one.

The file needs no style sheet and no script: the theme's colours, which the
page reads from CSS variables, are written in as values, read from the `:root`
rules of the theme's style sheets. Its text stays text, so a reader can edit or
restyle it. Text is wrapped by an estimate of its width (charts/common.py,
text_width), as no font is measured at build time. The browser makes the same
layout for the state a reader chose (themes/default/static/figure.js).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from html import escape

from ..errors import BuildError
from .charts.common import text_width
from .poster import Drawing

WIDTH = 720        # the chart's width in the file, in px: a slide's column, a page of a paper
PADDING = 16       # the white border around everything
TITLE_SIZE, TITLE_LINE = 15, 20
CAPTION_SIZE, CAPTION_LINE = 14, 19
SOURCE_SIZE, SOURCE_LINE = 12, 16
GAP = 8            # between the title, the chart, the caption and the source


@dataclass(frozen=True)
class Source:
    """Where a figure comes from: the lines under its caption."""
    line: str      # "Source: How Self-Attention Works, Lensa ML"
    link: str      # the address of the page, at the figure's step and state, as the figure writes it
    licence: str   # the site's reuse terms, or ""
    href: str = ""  # where the link goes from the file itself, when that differs from `link`


@dataclass(frozen=True)
class FigureFile:
    """A figure as a file: its SVG text and size."""
    svg: str
    width: int
    height: int


def figure_svg(drawing: Drawing | None, title: str, caption: str, source: Source, palette: dict[str, str],
               font: str) -> FigureFile:
    """The figure as an SVG document. `palette` gives each CSS variable the drawing
    names its value (theme_palette); `font` is the text's font family."""
    width = WIDTH + 2 * PADDING
    room = WIDTH
    parts: list[str] = []
    y = PADDING
    fg, muted, accent = (_colour(palette, name) for name in ("--fg", "--muted", "--accent"))
    title_lines = wrap(title, TITLE_SIZE, room)
    parts.append(_lines(title_lines, y, TITLE_SIZE, TITLE_LINE, f'font-weight="600" fill="{fg}"'))
    y += TITLE_LINE * len(title_lines) + GAP
    if drawing is not None:
        parts.append(_themed(drawing.placed(PADDING, y, WIDTH), palette))
        y += drawing.height + GAP
    caption_lines = wrap(caption, CAPTION_SIZE, room) if caption else []
    if caption_lines:
        parts.append(_lines(caption_lines, y, CAPTION_SIZE, CAPTION_LINE, f'fill="{fg}"'))
        y += CAPTION_LINE * len(caption_lines) + GAP
    source_lines = wrap(source.line, SOURCE_SIZE, room)
    parts.append(_lines(source_lines, y, SOURCE_SIZE, SOURCE_LINE, f'fill="{muted}"'))
    y += SOURCE_LINE * len(source_lines)
    if source.link:
        link_lines = wrap(source.link, SOURCE_SIZE, room)
        parts.append(f'<a href="{escape(source.href or source.link)}">'
                     + _lines(link_lines, y, SOURCE_SIZE, SOURCE_LINE, f'fill="{accent}"') + "</a>")
        y += SOURCE_LINE * len(link_lines)
    if source.licence:
        licence_lines = wrap(source.licence, SOURCE_SIZE, room)
        parts.append(_lines(licence_lines, y, SOURCE_SIZE, SOURCE_LINE, f'fill="{muted}"'))
        y += SOURCE_LINE * len(licence_lines)
    height = round(y + PADDING)
    described = " ".join(part for part in (caption, source.line, source.link, source.licence) if part)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="{escape(font)}" color="{fg}">'
           f'<title>{escape(title)}</title><desc>{escape(described)}</desc>'
           f'<rect width="100%" height="100%" fill="#ffffff"/>{"".join(parts)}</svg>\n')
    return FigureFile(svg, width, height)


def wrap(text: str, size: float, room: float) -> list[str]:
    """`text` in lines no wider than `room` pixels (by estimate), broken between
    words; a word longer than a line (an address) is broken where it must."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, size) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        while text_width(word, size) > room:
            cut = max(1, next(i for i in range(len(word), 0, -1) if text_width(word[:i], size) <= room))
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


def _lines(lines: list[str], top: float, size: int, height: int, attributes: str) -> str:
    """Lines of text from `top` down, a line every `height` pixels."""
    baseline = top + (height + size * 0.7) / 2
    spans = "".join(f'<tspan x="{PADDING}" y="{baseline + i * height:.1f}">{escape(line)}</tspan>'
                    for i, line in enumerate(lines))
    return f'<text font-size="{size}" {attributes}>{spans}</text>'


_VARIABLE = re.compile(r"var\((--[\w-]+)\)")


def _themed(svg: str, palette: dict[str, str]) -> str:
    return _VARIABLE.sub(lambda match: _colour(palette, match.group(1)), svg)


def _colour(palette: dict[str, str], name: str) -> str:
    if name not in palette:
        raise BuildError(f"figures: the theme's style sheets give no value to {name} in a :root rule, "
                         "so a figure file cannot show its colour")
    return palette[name]


_DECLARATION = re.compile(r"(--[\w-]+)\s*:\s*([^;]+)")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@functools.lru_cache(maxsize=8)
def theme_palette(css: str) -> dict[str, str]:
    """Every custom property that the `:root` rules at the top level of the style
    sheets `css` declare (not those inside @media: the dark colours), later rules
    winning as in the browser, with var() references resolved: the light colours,
    as the page shows them and prints them."""
    declared: dict[str, str] = {}
    for selector, body in _top_level_rules(_COMMENT.sub("", css)):
        if selector == ":root":
            for name, value in _DECLARATION.findall(body):
                declared[name] = value.strip()

    def resolved(name: str, seen: tuple = ()) -> str | None:
        value = declared.get(name)
        if value is None or name in seen:
            return None
        return _VARIABLE.sub(lambda match: resolved(match.group(1), seen + (name,)) or match.group(0), value)

    return {name: value for name in declared if (value := resolved(name)) and "var(" not in value}


def _top_level_rules(css: str):
    """(selector, declarations) of each rule outside any block (@media and the like)."""
    depth, start, selector = 0, 0, ""
    for at, character in enumerate(css):
        if character == "{":
            if depth == 0:
                selector, start = css[start:at].strip(), at + 1
            depth += 1
        elif character == "}":
            depth -= 1
            if depth == 0:
                yield selector, css[start:at]
                start = at + 1
            depth = max(depth, 0)


def citation_text(title: str, page: str, site: str, year: int, link: str, licence: str) -> str:
    """A figure cited as a sentence, for a slide's notes or a paper's caption."""
    text = f"“{title}”. Figure from “{page}”, {site}, {year}."
    if link:
        text += f" {link}"
    if licence:
        text += f" {licence}"
    return text


def bibtex(key: str, title: str, page: str, site: str, year: int, link: str, licence: str) -> str:
    """A figure cited as a BibTeX @misc entry."""
    fields = [("title", _tex(title)), ("author", "{" + _tex(site) + "}"),
              ("howpublished", f"Figure from {_tex(page)}"), ("year", str(year))]
    if link:
        fields.append(("url", link))
    if licence:
        fields.append(("note", _tex(licence)))
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name.ljust(width)} = {{{value}}}" for name, value in fields)
    return f"@misc{{{key},\n{body}\n}}"


_TEX_SPECIAL = re.compile(r"([&%$#_{}])")


def _tex(text: str) -> str:
    return _TEX_SPECIAL.sub(r"\\\1", text).replace("~", r"\textasciitilde{}").replace("^", r"\^{}")
