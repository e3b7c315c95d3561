"""\\mathrm of a single letter is upright, as of a word: latex2mathml reads \\mathrm{d} as one symbol
of its table (plain d) and writes <mi>d</mi>, which MathML draws in italic like a variable."""
import pytest

from generator.render.math import mathml_text, to_mathml

UPRIGHT_D = '<mi mathvariant="normal">d</mi>'


@pytest.mark.parametrize("tex, mathml", [
    (r"\mathrm{d}x", f"<math>{UPRIGHT_D}<mi>x</mi></math>"),
    (r"\frac{\mathrm{d}L}{\mathrm{d}w}",
     f"<math><mfrac><mrow>{UPRIGHT_D}<mi>L</mi></mrow><mrow>{UPRIGHT_D}<mi>w</mi></mrow></mfrac></math>"),
    (r"W^{\mathrm{O}}", '<math><msup><mi>W</mi><mi mathvariant="normal">O</mi></msup></math>'),
    (r"\mathrm{e}^{x}", '<math><msup><mi mathvariant="normal">e</mi><mi>x</mi></msup></math>'),
    (r"\mathrm{d}_k", f"<math><msub>{UPRIGHT_D}<mi>k</mi></msub></math>"),
    (r"\mathrm {d}x", f"<math>{UPRIGHT_D}<mi>x</mi></math>"),          # as it always was
    (r"\mathrm{softmax}", "<math><mi>softmax</mi></math>"),                 # a word: upright already
    (r"d x", "<math><mi>d</mi><mi>x</mi></math>"),                           # a variable stays italic
])
def test_an_upright_letter_is_marked_normal(tex, mathml):
    assert to_mathml(tex) == mathml


def test_a_line_break_before_mathrm_is_kept():
    """In a matrix, '\\\\' then \\mathrm{d}: the line break is not read as the command's backslash."""
    found = to_mathml(r"\begin{matrix} a \\\mathrm{d} \end{matrix}")
    assert UPRIGHT_D in found and found.count("<mtr>") == 2


def test_its_plain_text_is_the_letter():
    assert mathml_text(to_mathml(r"\frac{\mathrm{d}L}{\mathrm{d}w}")) == "dL/dw"
