"""What HTML prose may hold (generator/render/markup.py): markup, but nothing that
runs code or loads a file; checked on the HTML every Markdown text becomes."""
import pytest

from generator.errors import ContentError
from generator.render.markup import UnsafeHtml, check_html
from generator.render.prose import MarkdownRenderer


@pytest.fixture(autouse=True)
def no_disk_cache(monkeypatch):
    monkeypatch.setenv("LENSA_CACHE_DIR", "")


@pytest.mark.parametrize("markdown_text", [
    "A <abbr title=\"Key-value\">KV</abbr> cache, <kbd>Ctrl</kbd>+<kbd>C</kbd>, x<sup>2</sup>.",
    "<span class=\"note\" style=\"color: teal\">Teal</span>, <details><summary>More</summary>Text</details>",
    "[A paper](https://example.org/paper), [mail](mailto:a@example.org), [a step](#step-2), [here](page:x)",
    "![A picture](figure.png) and <img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"dot\">",
    "`<script>alert(1)</script>` and `onclick=` in code are text, as is an online (onset) = 3.",
    "A script, a background, a data: point and a source: all words.",
    "Ends a block: </script><!-- as the tiny site's prose does.",
])
def test_markup_is_welcome(markdown_text):
    MarkdownRenderer()(markdown_text)


@pytest.mark.parametrize("markdown_text, said", [
    ("<script>alert(1)</script>", "a <script> element"),
    ("<SCRIPT SRC=x.js></SCRIPT>", "a <script> element"),
    ("<iframe src=\"https://example.org\"></iframe>", "a <iframe> element"),
    ("<style>body { display: none }</style>", "a <style> element"),
    ("<object data=\"x.swf\"></object>", "a <object> element"),
    ("<meta http-equiv=\"refresh\" content=\"0; url=https://example.org\">", "a <meta> element"),
    ("<base href=\"https://example.org/\">", "a <base> element"),
    ("<form action=\"https://example.org\"><button>Go</button></form>", "a <form> element"),
    ("<img src=x onerror=alert(1)>", "the event handler onerror= (on <img>)"),
    ("<b onclick=\"steal()\">bold</b>", "the event handler onclick= (on <b>)"),
    ("<svg/onload=alert(1)>", "the event handler onload= (on <svg>)"),
    ("![i](x.png){: onerror=\"alert(1)\" }", "the event handler onerror= (on <img>)"),
    ("[click](javascript:alert(1))", "the address 'javascript:alert(1)' (href= on <a>)"),
    ("[click][r]\n\n[r]: JavaScript:alert(1)", "the address 'JavaScript:alert(1)'"),
    ("<a href=\"java&#x09;script:alert(1)\">x</a>", "(href= on <a>)"),
    ("<a href=\"  javascript&colon;alert(1)\">x</a>", "(href= on <a>)"),
    ("<a href=\"vbscript:msgbox(1)\">x</a>", "the address 'vbscript:msgbox(1)'"),
    ("[x](data:text/html;base64,PHNjcmlwdD4=)", "the address 'data:text/html;base64,PHNjcmlwdD4='"),
    ("<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>", "(xlink:href= on <a>)"),
    ("![tracker](https://example.org/pixel.gif)", "<img src='https://example.org/pixel.gif'> loads a file"),
    ("<video poster=\"//example.org/p.jpg\"></video>", "<video poster='//example.org/p.jpg'> loads a file"),
])
def test_what_runs_code_or_loads_a_file_is_refused(markdown_text, said):
    with pytest.raises(UnsafeHtml) as refused:
        MarkdownRenderer()(markdown_text)
    assert said in str(refused.value) and "not allowed in prose" in str(refused.value) \
        or "loads a file from another host" in str(refused.value)


def test_a_refusal_names_the_file_and_the_line(tmp_path):
    source = tmp_path / "explainer.md"
    source.write_text("+++\ntitle = \"T\"\n+++\n::: intro\nFine.\nSee <b onmouseover=\"x()\">this</b>.\n")
    with pytest.raises(ContentError) as refused:
        MarkdownRenderer()("Fine.\nSee <b onmouseover=\"x()\">this</b>.", source)
    [problem] = refused.value.problems
    assert (problem.path, problem.line) == (source, 6) and "onmouseover=" in problem.message


def test_a_refused_text_is_never_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("LENSA_CACHE_DIR", str(tmp_path))
    memory: dict = {}
    for _ in range(2):
        with pytest.raises(UnsafeHtml):
            MarkdownRenderer(memory)("<script>x</script>")
    assert not memory and not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_check_html_passes_what_it_does_not_suspect():
    check_html("<p>Plain <em>text</em> with &amp; and &lt;tags&gt;.</p>")
