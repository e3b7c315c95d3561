"""Figures for slides and papers, made at build time: a chart's still drawing
(render/poster.py) as an SVG file of its own, with its title above it and its
caption, source and licence below, in the theme's light colours on white; and
the ways to cite one.

The file needs no style sheet and no script: the theme's colours, which the
page reads from CSS variables, are written in as values, read from the `:root`
rules of the theme's style sheets. Its text stays text, so a reader can edit or
restyle it. No font is measured at build time, so text is wrapped by the widths
of DejaVu Sans, the widest of the sans-serif fonts the figure's font family
falls back to on common systems (Segoe UI, San Francisco, Roboto, Arial and
Liberation Sans are all narrower), and a line judged to fit does, whichever
of them draws it. The browser makes the same layout for the state a reader
chose, measuring its own font (themes/default/static/figure.js).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from html import escape

from ..errors import BuildError
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
    title_lines = wrap(title, TITLE_SIZE, room, bold=True)
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


def wrap(text: str, size: float, room: float, bold: bool = False) -> list[str]:
    """`text` in lines no wider than `room` pixels (line_width), broken between
    words; a word longer than a line (an address) is broken where it must."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line_width(candidate, size, bold) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        while line_width(word, size, bold) > room:
            cut = max(1, next(i for i in range(len(word), 0, -1) if line_width(word[:i], size, bold) <= room))
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


def line_width(text: str, size: float, bold: bool = False) -> float:
    """The width in px of one line of `text` at `size` px in DejaVu Sans (bold for the
    title's weight), with 2% to spare; a letter it does not list counts as 1 em."""
    widths = _BOLD if bold else _REGULAR
    return sum(widths.get(letter, 1000) for letter in text) * size / 1000 * 1.02


# DejaVu Sans's advance widths, in thousandths of an em, as Chromium measures them (canvas
# measureText, rounded up): printable ASCII, then the typographic marks the pages write.
_LETTERS = "".join(chr(code) for code in range(32, 127)) + "−×–—’“”‘…·é•"
_REGULAR = dict(zip(_LETTERS, (
    318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361, 318, 337, 637, 637, 637, 637, 637,
    637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 531, 1000, 685, 687, 699, 771, 632, 576, 775, 752, 295,
    295, 656, 558, 863, 749, 788, 604, 788, 695, 635, 611, 732, 685, 989, 686, 611, 686, 391, 337, 391, 838,
    500, 500, 613, 635, 550, 635, 616, 353, 635, 634, 278, 278, 580, 278, 975, 634, 612, 635, 635, 412, 521,
    393, 634, 592, 818, 592, 592, 525, 637, 337, 637, 838, 838, 838, 500, 1000, 318, 519, 519, 318, 1000, 318,
    616, 590
)))
_BOLD = dict(zip(_LETTERS, (
    349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366, 696, 696, 696, 696, 696,
    696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 581, 1000, 774, 763, 734, 831, 684, 684, 821, 837, 373,
    373, 775, 638, 996, 837, 851, 733, 851, 771, 721, 683, 813, 774, 1104, 771, 725, 726, 458, 366, 458, 838,
    500, 500, 675, 716, 593, 716, 679, 436, 716, 712, 343, 343, 666, 343, 1042, 712, 688, 716, 716, 494, 596,
    479, 712, 652, 924, 646, 652, 583, 712, 366, 712, 838, 838, 838, 500, 1000, 380, 658, 658, 380, 1000, 380,
    679, 640
)))


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
