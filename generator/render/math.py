"""Math in an author's text: `$…$` inline and `$$…$$` display, turned at build
time into MathML Core (by latex2mathml), which browsers draw natively, so a page
needs no math script and works from file://, in copies, embeds and SCORM
packages; and each expression's faithful plain-text form (d_k, softmax(QKᵀ/√d_k)V)
wherever plain text is needed: chart summaries, titles, descriptions, JSON-LD.

Dollars follow Pandoc's rules: an opening `$` has a non-space character on its
right, a closing one a non-space on its left and no digit after it, so "$20 and
$30" is no math; `\\$` is a literal dollar. Code spans and fenced code keep their
dollars (code.prose_parts)."""
from __future__ import annotations

import functools
import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from importlib.metadata import version

import markdown
from markdown.preprocessors import Preprocessor

from ..errors import MarkupError
from .code import prose_parts

LATEX2MATHML_VERSION = version("latex2mathml")


@dataclass(frozen=True)
class Math:
    tex: str
    display: bool
    source: str   # as written, dollars included: what an error quotes


def math_pieces(text: str) -> list[str | Math]:
    """The text as pieces of plain text and Math, code left as it is."""
    pieces: list[str | Math] = []
    for is_code, part in prose_parts(text):
        pieces += [part] if is_code or "$" not in part else _math_in_prose(part)
    return pieces


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _math_in_prose(text: str) -> list[str | Math]:
    pieces: list[str | Math] = []
    plain, at, size = [], 0, len(text)
    while at < size:
        char = text[at]
        if char == "\\" and at + 1 < size:
            plain.append("$" if text[at + 1] == "$" else text[at:at + 2])  # \$ is a dollar; \\ stays
            at += 2
            continue
        if char != "$":
            plain.append(char)
            at += 1
            continue
        display = text.startswith("$$", at)
        end = _closing(text, at + 2, display=True) if display else _closing(text, at + 1, display=False)
        if end is None:
            plain.append("$$" if display else "$")
            at += 2 if display else 1
            continue
        width = 2 if display else 1
        if plain:
            pieces.append("".join(plain))
            plain = []
        pieces.append(Math(text[at + width:end].strip(), display, text[at:end + width]))
        at = end + width
    if plain:
        pieces.append("".join(plain))
    return pieces


def _closing(text: str, start: int, display: bool) -> int | None:
    """Where the math opened just before `start` closes, or None (its dollar is then text)."""
    if start >= len(text) or (not display and text[start].isspace()):
        return None
    at = start
    while True:
        found = text.find("$$" if display else "$", at)
        if found < 0 or _BLANK_LINE.search(text, start, found):
            return None
        if text[found - 1] == "\\" and not text[found - 2:found] == "\\\\":  # an escaped dollar inside the math
            at = found + 1
            continue
        if display:
            return found if text[start:found].strip() else None
        after = text[found + 1:found + 2]
        if found > start and not text[found - 1].isspace() and not after.isdigit():
            return found
        at = found + 1


# --- TeX to MathML -------------------------------------------------------------------------------

# A value a prose template prints stands in the text as a numbered marker (prose.py, _to_slot),
# so that states share one conversion. Inside math each marker becomes one private-use character,
# a single token for latex2mathml, and then a number (<mn>) holding the marker again.
_PLACEHOLDER = 0xF0000
_ARITY = {"mfrac": 2, "msub": 2, "msup": 2, "msubsup": 3, "mroot": 2, "munder": 2, "mover": 2, "munderover": 3}
_COMMAND = re.compile(r"\\[A-Za-z]+")
_NAMESPACE = ' xmlns="http://www.w3.org/1998/Math/MathML"'


def to_mathml(tex: str, display: bool = False, marker: re.Pattern | None = None) -> str:
    """The MathML of one expression; MarkupError when it is malformed or uses a command
    the converter does not know (latex2mathml would pass those through as text)."""
    return _converted(tex, display, marker.pattern if marker else "")


@functools.lru_cache(maxsize=8192)
def _converted(tex: str, display: bool, marker: str) -> str:
    values: list[str] = []
    if marker:
        def placeholder(match):
            values.append(match.group(0))
            return chr(_PLACEHOLDER + len(values) - 1)
        tex = re.sub(marker, placeholder, tex)
    import latex2mathml.converter  # here: a build whose math is all cached never needs it

    _check_braces(tex)
    if re.search(r"(?<!\\)\$", tex):
        raise MarkupError("a '$' inside math: write \\$ for a dollar sign that is not math")
    try:
        made = latex2mathml.converter.convert(tex, display="block" if display else "inline")
    except Exception as err:  # noqa: BLE001 (latex2mathml's own errors, and what its parser trips on)
        raise MarkupError(f"malformed math ({_reason(err)})") from None
    made = _ROMAN_LETTER.sub(_upright, made)
    if "<mi>&</mi>" in made:
        raise MarkupError("malformed math ('&' outside a matrix environment)")
    try:
        root = ET.fromstring(made.replace(_NAMESPACE, "", 1))
    except ET.ParseError:
        raise MarkupError("malformed math (the converter made no well-formed MathML of it)") from None
    _check_tree(root)
    _tidy(root, values)
    if not display:
        root.attrib.pop("display", None)
    return ET.tostring(root, encoding="unicode")


# latex2mathml reads \mathrm{d} (a letter) as one symbol of its table, the plain letter, written as
# a character reference and without the mathvariant="normal" it gives \mathrm{dx}'s letters: MathML
# would draw it in italic, as the variable d. A letter it writes so comes from such a symbol alone
# (or from \unicode{x64}, upright too), never from a letter typed as itself.
_ROMAN_LETTER = re.compile(r"<mi>&#x0*([46][1-9A-Fa-f]|[57][0-9Aa]);</mi>")


def _upright(match: re.Match) -> str:
    return f'<mi mathvariant="normal">{chr(int(match.group(1), 16))}</mi>'


def _check_braces(tex: str) -> None:
    depth = 0
    for char in re.sub(r"\\[\\{}]", "", tex):
        depth += char == "{"
        depth -= char == "}"
        if depth < 0:
            raise MarkupError("malformed math (a closing brace '}' with no opening one)")
    if depth:
        raise MarkupError("malformed math (an opening brace '{' is never closed)")


def _reason(err: Exception) -> str:
    """latex2mathml's error class in words ("missing superscript or subscript")."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(err).__name__).lower().removesuffix(" error")
    words = words.replace("super script", "superscript").replace("sub script", "subscript")
    return f"{words}: {err}" if str(err) else words


def _check_tree(root: ET.Element) -> None:
    for element in root.iter():
        text = element.text or ""
        command = _COMMAND.search(text)
        if command:
            raise MarkupError(f"unknown command {command.group(0)} in math")
        if element.tag == "mi" and text == "&":
            raise MarkupError("malformed math ('&' outside a matrix environment)")
        if element.tag == "mspace" and element.get("linebreak"):
            raise MarkupError("malformed math (a line break '\\\\' outside a matrix environment)")
        if element.tag in _ARITY and len(element) != _ARITY[element.tag]:
            raise MarkupError(f"malformed math ({element.tag} needs {_ARITY[element.tag]} parts, "
                              f"found {len(element)}: a missing argument?)")


def _tidy(root: ET.Element, values: list[str]) -> None:
    """Smaller, plainer MathML with the same look: one <mi> per upright word (not one per
    letter), a true minus as an operator, no rows of a single child, printed values as numbers."""
    _tidy_element(root, values)
    if len(root) == 1 and root[0].tag == "mrow":  # <math> is a row already
        row = root[0]
        root.remove(row)
        root.extend(list(row))


def _tidy_element(element: ET.Element, values: list[str]) -> None:
    for child in element:
        _tidy_element(child, values)
    _merge_upright_letters(element)
    for index, child in enumerate(element):
        if child.tag == "mrow" and len(child) == 1 and not (child.text or "").strip():
            inner = child[0]
            inner.tail = child.tail
            element[index] = inner
    if element.tag == "mi" and element.text == "\u2212":
        element.tag = "mo"
    if element.tag == "mo" and element.text == "/" and not element.attrib:
        element.set("lspace", "0")  # TeX's slash is an ordinary symbol, with no space around it
        element.set("rspace", "0")
    if element.text and len(element.text) == 1 and ord(element.text) - _PLACEHOLDER in range(len(values)):
        if element.tag != "mtext":
            element.tag = "mn"
        element.attrib.clear()
        element.text = values[ord(element.text) - _PLACEHOLDER]


def _merge_upright_letters(element: ET.Element) -> None:
    merged: list[ET.Element] = []
    for child in element:
        previous = merged[-1] if merged else None
        if (previous is not None and _upright_letter(previous) and _upright_letter(child)
                and not (previous.tail or "").strip()):
            previous.text += child.text
            previous.tail = child.tail
            continue
        merged.append(child)
    if len(merged) != len(element):
        element[:] = merged
    for child in merged:
        if child.tag == "mi" and child.get("mathvariant") == "normal" and len(child.text or "") > 1:
            del child.attrib["mathvariant"]  # a word in <mi> is upright already


def _upright_letter(element: ET.Element) -> bool:
    return element.tag == "mi" and element.get("mathvariant") == "normal" and len(element) == 0


# --- Plain text ----------------------------------------------------------------------------------

# Unicode's small forms only where fonts and screen readers know them well: digits and signs
# (x₁, log₂, x², x⁻¹) and the transpose's ᵀ; letters are written out as plain text has long
# written them (d_k, W^O, d_model), which reads the same everywhere.
_SUBSCRIPTS = dict(zip("0123456789+-=()\u2212", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎₋"))
_SUPERSCRIPTS = dict(zip("0123456789+-=()T\u22a4\u2212", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵀᵀ⁻"))
_RELATIONS = set("=<>≤≥≠≈≡∼∝→←↦⇒⇔∈∉⊂⊆")
_BINARY = set("+−-±×·÷∗∘")
_LARGE = set("∑∏∫∮⋃⋂")
_ACCENTS = {"^": "\u0302", "\u02c6": "\u0302", "\u00af": "\u0304", "\u2192": "\u20d7", "~": "\u0303",
            "\u02dc": "\u0303", "\u02d9": "\u0307", ".": "\u0307", "\u00a8": "\u0308"}
_INVISIBLE = dict.fromkeys(map(ord, "\u2061\u2062\u2063\u2064"), None)


def mathml_text(mathml: str) -> str:
    """The plain-text form of one <math> element."""
    return _text(ET.fromstring(mathml.replace(_NAMESPACE, "", 1))).strip()


def _text(element: ET.Element) -> str:
    tag, children = element.tag, list(element)
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        return (element.text or "").translate(_INVISIBLE).replace("\u00a0", " ")
    if tag == "mspace":
        return " "
    if tag in ("mphantom", "annotation", "annotation-xml"):
        return ""
    parts = [_text(child) for child in children]
    if tag in ("msub", "msup", "msubsup", "munder", "mover", "munderover") and len(parts) >= 2:
        return _scripted(tag, children, parts)
    if tag == "mfrac" and len(parts) == 2:
        return f"{_grouped(parts[0])}/{_grouped(parts[1])}"
    if tag == "msqrt":
        return "√" + _grouped(_row(children, parts))
    if tag == "mroot" and len(parts) == 2:
        return _script(parts[1], _SUPERSCRIPTS, "^") + "√" + _grouped(parts[0])
    if tag == "mtable":
        return "[" + "; ".join(parts) + "]"
    if tag == "mtr":
        return ", ".join(parts)
    return _row(children, parts)


def _row(children: list[ET.Element], parts: list[str]) -> str:
    """A row's pieces with spaces where a reader expects them: around relations and binary
    operators, after a large operator and after a named function (log₂ p)."""
    out, previous = [], None
    for child, part in zip(children, parts):
        core = _core(child)
        if not part:
            continue
        if core.tag == "mo" and part.strip() in (",", ";"):
            out.append(part.strip() + " ")
        elif core.tag == "mo" and part.strip() in _RELATIONS:
            out.append(f" {part.strip()} ")
        elif core.tag == "mo" and part.strip() in _BINARY and previous is not None and not _is_operator(previous):
            out.append(f" {part.strip()} ")
        else:
            if previous is not None and _needs_space(previous, child, part):
                out.append(" ")
            out.append(part)
        previous = child
    return re.sub(r" {2,}", " ", "".join(out)).strip()


def _core(element: ET.Element) -> ET.Element:
    """The element an embellished operator (∑ with limits) stands for."""
    while element.tag in ("msub", "msup", "msubsup", "munder", "mover", "munderover", "mrow") and len(element):
        if element.tag == "mrow" and len(element) != 1:
            break
        element = element[0]
    return element


def _is_operator(element: ET.Element) -> bool:
    core = _core(element)
    return core.tag == "mo" and (core.text or "").strip() not in ")]}|‖⟩"


def _needs_space(previous: ET.Element, child: ET.Element, part: str) -> bool:
    """A space between two operands: after a large operator or a named function (log₂ p),
    before a named function (p log p) and around words, never before a bracket or a comma."""
    if part.startswith(("(", "[", "{", ")", "]", "}", ",", ".", ";", "!", "′", "|")):
        return False
    before, core = _core(previous), _core(child)
    if before.tag == "mo" and (before.text or "") in _LARGE:
        return True
    if before.tag == "mo" and not (before.text or "").isalpha():
        return False
    return _named(before) or _named(core) or "mtext" in (before.tag, core.tag)


def _named(element: ET.Element) -> bool:
    """A function's name (log, sin, softmax): an upright word."""
    return element.tag in ("mi", "mo") and len(element.text or "") > 1 and (element.text or "").isalpha()


def _scripted(tag: str, children: list[ET.Element], parts: list[str]) -> str:
    base = parts[0]
    if tag in ("mover", "munder") and children[1].tag == "mo" and parts[1] in _ACCENTS and tag == "mover":
        return base + _ACCENTS[parts[1]] if len(base) == 1 else f"{base}{parts[1]}"
    if tag in ("msub", "munder"):
        return base + _script(parts[1], _SUBSCRIPTS, "_")
    if tag in ("msup", "mover"):
        return base + _script(parts[1], _SUPERSCRIPTS, "^")
    return base + _script(parts[1], _SUBSCRIPTS, "_") + _script(parts[2], _SUPERSCRIPTS, "^")


def _script(text: str, table: dict[str, str], mark: str) -> str:
    """A sub- or superscript in Unicode's small forms when it has them all (x², Kᵀ, log₂),
    else written out (d_k, d_model, W^Q, x_(i+1))."""
    text = text.strip()
    if text and all(char in table for char in text):
        return "".join(table[char] for char in text)
    if text in ("′", "″", "‴"):
        return text
    return mark + (text if re.fullmatch(r"\w+", text) or _bracketed(text) else f"({text})")


def _bracketed(text: str) -> bool:
    """Text in one pair of brackets from end to end: "(pos,2i)", not "(a)(b)"."""
    if text[:1] not in "([" or text[-1:] not in ")]":
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += char in "(["
        depth -= char in ")]"
        if depth == 0 and index < len(text) - 1:
            return False
    return True


def _grouped(text: str) -> str:
    simple = re.fullmatch(r"[\w.′ᵀ⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉]+", text)
    return text if simple or _bracketed(text) else f"({text})"


@functools.lru_cache(maxsize=4096)
def plain_math(text: str) -> str:
    """A plain text (a chart summary, a title) with each expression in its plain form and
    \\$ as a dollar. MarkupError, quoting the expression, when one is malformed."""
    if "$" not in text:
        return text
    return "".join(piece if isinstance(piece, str) else _plain(piece) for piece in math_pieces(text))


def _plain(math: Math) -> str:
    try:
        return mathml_text(to_mathml(math.tex, math.display))
    except MarkupError as err:
        raise MarkupError(str(err), math.source) from None


_MATH_ELEMENT = re.compile(r"<math\b[^>]*>.*?</math>", re.S)


def html_with_plain_math(fragment: str) -> str:
    """An HTML fragment with each <math> element replaced by its plain text (for striptags)."""
    if "<math" not in fragment:
        return fragment
    return _MATH_ELEMENT.sub(lambda m: html.escape(mathml_text(m.group(0)), quote=False), fragment)


# --- In Markdown ---------------------------------------------------------------------------------

class _MathPreprocessor(Preprocessor):
    """Runs after fenced code is put aside (its priority is below fenced_code's 25): each
    expression becomes MathML kept in Markdown's stash, so no Markdown rule touches TeX."""

    def __init__(self, md, marker: re.Pattern | None):
        super().__init__(md)
        self.marker = marker

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if "$" not in text:
            return lines
        out = []
        for piece in math_pieces(text):
            if isinstance(piece, str):
                out.append(piece)
                continue
            try:
                out.append(self.md.htmlStash.store(to_mathml(piece.tex, piece.display, self.marker)))
            except MarkupError as err:
                raise MarkupError(str(err), _unmarked(piece.source, self.marker)) from None
        return "".join(out).split("\n")


def _unmarked(source: str, marker: re.Pattern | None) -> str:
    """An expression as the author wrote it, up to the first value a template printed in it."""
    found = marker.search(source) if marker else None
    return source[:found.start()] + "{{ … }}" if found else source


class MathExtension(markdown.Extension):
    def __init__(self, marker: re.Pattern | None = None):
        super().__init__()
        self.marker = marker

    def extendMarkdown(self, md):
        md.preprocessors.register(_MathPreprocessor(md, self.marker), "lensa_math", 20)
