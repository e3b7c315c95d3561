"""Math in an author's text: the TeX the series writes, each to its MathML and its
plain-text form; values a template prints inside math; dollars that are no math;
and malformed TeX, an error at its file and line."""
import json
import re

import pytest

from generator.build import build
from generator.errors import ContentError, MarkupError
from generator.render.math import Math, math_pieces, mathml_text, plain_math, to_mathml

from tests.conftest import FIXTURES, THEMES

# The notation of the series, as latex2mathml renders it after tidying: one <mi> per word,
# a true minus, no rows of one child.
SERIES = {
    r"d_k": ("<math><msub><mi>d</mi><mi>k</mi></msub></math>", "d_k"),
    r"W^O": ("<math><msup><mi>W</mi><mi>O</mi></msup></math>", "W^O"),
    r"x^2 + K^\top": (None, "x² + Kᵀ"),
    r"W^Q, W^K, W^V": (None, "W^Q, W^K, W^V"),
    r"\mathrm{softmax}(QK^\top/\sqrt{d_k})V": (
        '<math><mi>softmax</mi><mo stretchy="false">(</mo><mi>Q</mi><msup><mi>K</mi><mo>⊤</mo></msup>'
        '<mo lspace="0" rspace="0">/</mo><msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>'
        '<mo stretchy="false">)</mo><mi>V</mi></math>', "softmax(QKᵀ/√d_k)V"),
    r"H = -\sum_i p_i \log_2 p_i": (
        "<math><mi>H</mi><mo>=</mo><mo>−</mo><msub><mo>∑</mo><mi>i</mi></msub><msub><mi>p</mi><mi>i</mi></msub>"
        "<msub><mi>log</mi><mn>2</mn></msub><msub><mi>p</mi><mi>i</mi></msub></math>", "H = −∑_i p_i log₂ p_i"),
    r"PE_{(pos, 2i)} = \sin(pos / 10000^{2i/d_{\text{model}}})": (
        None, "PE_(pos, 2i) = sin(pos/10000^(2i/d_model))"),
    r"4 \cdot d_{\text{model}}^2": (
        "<math><mn>4</mn><mo>·</mo><msubsup><mi>d</mi><mtext>model</mtext><mn>2</mn></msubsup></math>",
        "4 · d_model²"),
    r"\frac{d_{\text{model}}}{h}": (None, "d_model/h"),
    r"h \times d_k = d_{\text{model}}": (None, "h × d_k = d_model"),
    r"\mathbb{R}^{n \times d}": (None, "ℝ^(n × d)"),
}


@pytest.mark.parametrize("tex", SERIES)
def test_the_series_notation_as_mathml_and_as_plain_text(tex):
    expected, text = SERIES[tex]
    mathml = to_mathml(tex)
    if expected:
        assert mathml == expected
    assert "\\" not in mathml and "mrow><mrow" not in mathml
    assert mathml_text(mathml) == text


def test_display_math_is_a_block():
    assert to_mathml("x^2", display=True) == '<math display="block"><msup><mi>x</mi><mn>2</mn></msup></math>'


@pytest.mark.parametrize("tex, reason", [
    (r"\frac{a}", "mfrac needs 2 parts, found 1"),
    ("x^", "missing superscript or subscript"),
    (r"\foo + 1", r"unknown command \foo"),
    ("{a + b", "opening brace '{' is never closed"),
    ("a + b}", "closing brace '}' with no opening one"),
    (r"\left( x", "extra left or missing right"),
    (r"\begin{aligned} a &= b \end{aligned}", "'&' outside a matrix"),
    ("5 and $6", "a '$' inside math"),
])
def test_malformed_tex_is_an_error_saying_why(tex, reason):
    with pytest.raises(MarkupError) as info:
        to_mathml(tex)
    assert reason in str(info.value)


def test_dollars_that_are_no_math():
    pieces = math_pieces(r"It costs \$5, or $20 and $30 for two; `$x$` is code; $ x$ and $x $ are text.")
    assert pieces == ["It costs $5, or $20 and $30 for two; ", "`$x$`", " is code; $ x$ and $x $ are text."]
    assert math_pieces("Between $a$ and $$b$$.") == ["Between ", Math("a", False, "$a$"), " and ",
                                                     Math("b", True, "$$b$$"), "."]
    fenced = "```python\ncost = '$5' + '$6'\n```\n"
    assert "".join(math_pieces(fenced)) == fenced and all(isinstance(p, str) for p in math_pieces(fenced))
    assert math_pieces("$20,000 and $30,000") == ["$20,000 and $30,000"]  # no closing $ before a digit


def test_plain_math_writes_each_expression_plainly():
    assert plain_math(r"A head of $d_k = 64$ and $\sqrt{d_k} = 8$ costs \$5.") == \
        "A head of d_k = 64 and √d_k = 8 costs $5."
    with pytest.raises(MarkupError) as info:
        plain_math(r"Broken $\frac{a}$ here")
    assert info.value.fragment == r"$\frac{a}$"


# --- In a site: Jinja values inside math, errors at their line ------------------------------------

MODEL_STEP_LINE = "With {{ flips }} flips there are"


def built_prose(content) -> tuple[dict, str]:
    html = build(content, None, THEMES).files["coin-flips/index.html"].decode()
    data = json.loads(re.search(r'id="explainer-data">(.*?)</script>', html, re.S).group(1))
    return {key: state for key, state in data["steps"][0]["states"].items()}, html


def test_values_a_template_prints_inside_math_follow_the_state(tmp_site):
    step = (FIXTURES / "tiny/content/coin-flips/steps/01-runs.md").read_text()
    content = tmp_site({"coin-flips/steps/01-runs.md": step.replace(
        MODEL_STEP_LINE, "With $n = {{ flips }}$ and $2^n = {{ outcomes }}$ flips there are").replace(
        "A run of {{ flips }} heads", "A run of $n = {{ flips }}$ heads")})
    states, html = built_prose(content)
    for key, flips in (("0", 1), ("2", 3)):
        prose = states[key]["prose"]
        assert f"<math><mi>n</mi><mo>=</mo><mn>{flips}</mn></math>" in prose
        assert f"<msup><mn>2</mn><mi>n</mi></msup><mo>=</mo><mn>{2 ** flips}</mn>" in prose
        # The chart's summary is plain text: the expression in its plain form.
        assert states[key]["charts"][0]["summary"].startswith(f"A run of n = {flips} heads")
    assert "$" not in re.sub(r"<script.*?</script>", "", html, flags=re.S)


def test_a_malformed_expression_names_the_file_the_line_and_the_expression(tmp_site):
    content = tmp_site({"coin-flips/explainer.md": (FIXTURES / "tiny/content/coin-flips/explainer.md").read_text().replace(
        "A fair coin lands heads half the time.", "A fair coin lands heads\nwith $p = \\frac{1}$.")})
    with pytest.raises(ContentError) as info:
        build(content, None, THEMES)
    [problem] = info.value.problems
    assert problem.path.name == "explainer.md" and problem.line == 16
    assert "malformed math" in problem.message and "$p = \\frac{1}$" in problem.message


def test_a_malformed_summary_points_at_its_line(tmp_site):
    step = (FIXTURES / "tiny/content/coin-flips/steps/01-runs.md").read_text()
    content = tmp_site({"coin-flips/steps/01-runs.md": step.replace(
        "A run of {{ flips }} heads", "A run of $\\\\sqrt{n$ heads")})
    with pytest.raises(ContentError) as info:
        build(content, None, THEMES)
    [problem] = info.value.problems
    assert problem.path.name == "01-runs.md" and problem.line == 5 and "never closed" in problem.message
