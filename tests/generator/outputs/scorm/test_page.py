"""outputs/scorm/page.py: a page as a SCORM package holds it, built on outputs/offline.py's public
walk over a page: the LMS bridge loaded first, the files it needs listed, links to pages the
package lacks made absolute (with a base_url) or plain text, outside links in a new tab."""
import pytest

from generator.errors import BuildError
from generator.outputs.scorm.page import package_page

PAGE = ('<!doctype html><html><head><link rel="stylesheet" href="../assets/style.css?v=1">'
        '<script defer src="../assets/runtime.js?v=2"></script></head><body><a href="../b/index.html">b</a> '
        '<a href="index.html#x">here</a> <a href="https://example.org/">out</a></body></html>')
FILES = {"assets/style.css": b"body{}", "assets/runtime.js": b"1", "b/index.html": b"<p>",
         "a/index.html": PAGE.encode()}
BRIDGE = '<script src="../assets/scorm.js"></script>'


def test_a_packaged_page_and_the_files_it_needs():
    html, needed = package_page(PAGE, "a/index.html", FILES, "", BRIDGE)
    assert needed == {"assets/runtime.js", "assets/style.css"}
    assert html.index(BRIDGE) < html.index("runtime.js"), "the bridge runs before the page's scripts"
    assert "<a>b</a>" in html and '<a href="#x">here</a>' in html
    assert '<a target="_blank" href="https://example.org/">out</a>' in html


def test_with_a_base_url_a_page_outside_the_package_is_linked_where_it_is_published():
    html, _ = package_page(PAGE, "a/index.html", FILES, "https://site.org/", BRIDGE)
    assert '<a target="_blank" href="https://site.org/b/index.html">b</a>' in html


def test_a_file_the_build_lacks_is_an_error_naming_the_page():
    with pytest.raises(BuildError, match=r"a/index.html:1: .*assets/nope.css, which is not in the build"):
        package_page(PAGE.replace("style.css", "nope.css"), "a/index.html", FILES, "", BRIDGE)
