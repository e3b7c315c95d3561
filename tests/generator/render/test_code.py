"""Code in an author's text: fenced blocks highlighted by Pygments at build time;
where code sits in Markdown source (math and citations leave it alone); a value
a template prints inside code."""
import json
import re

from generator.build import build
from generator.render.code import prose_parts
from generator.render.prose import MarkdownRenderer

from tests.conftest import FIXTURES, THEMES


def test_a_fenced_block_with_a_language_is_highlighted():
    html = MarkdownRenderer()("Before.\n\n```python\nimport numpy as np\nx = np.ones(3)  # three\n```\n")
    assert html.startswith('<p>Before.</p>\n<div class="code-block"><pre tabindex="0"><code class="language-python">'
                           '<span class="kn">import</span> <span class="nn">numpy</span> <span class="k">as</span> '
                           '<span class="nn">np</span>')
    assert '<span class="c1"># three</span>' in html and 'class="w"' not in html
    # Its Copy button is the theme script's (it could do nothing without scripts).
    assert html.endswith("</code></pre></div>") and "button" not in html


def test_a_block_without_a_language_stays_plain_text():
    html = MarkdownRenderer()("```\nplain <text> & $5 @here\n```\n")
    assert '<code class="language-text">plain &lt;text&gt; &amp; $5 @here\n</code>' in html


def test_code_spans_and_fences_are_code_to_math_and_citations():
    text = "a `$x$` b\n```\n$y$\n```\nc ``` `@k` ``` d\n~~~~\nopen to the end"
    assert [part for code, part in prose_parts(text) if code] == ["`$x$`", "```\n$y$\n```", "``` `@k` ```",
                                                                  "~~~~\nopen to the end"]
    assert prose_parts("an ` unmatched backtick") == [(False, "an ` unmatched backtick")]


def test_a_value_printed_inside_code_is_the_states_own(tmp_site):
    step = (FIXTURES / "tiny/content/coin-flips/steps/01-runs.md").read_text()
    content = tmp_site({"coin-flips/steps/01-runs.md": step.replace(
        "With {{ flips }} flips", "```python\nflips = {{ flips }}  # then {{ outcomes }}\n```\n\nWith {{ flips }} flips")})
    html = build(content, None, THEMES).files["coin-flips/index.html"].decode()
    data = json.loads(re.search(r'id="explainer-data">(.*?)</script>', html, re.S).group(1))
    prose = data["steps"][0]["states"]["2"]["prose"]
    assert '<span class="n">flips</span> <span class="o">=</span> <span class="err">3</span>' in prose
    assert "# then 8" in prose and "\ue000" not in prose
