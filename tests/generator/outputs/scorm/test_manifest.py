"""outputs/scorm/manifest.py: imsmanifest.xml, well-formed, every file listed once, the same
bytes for the same package, a mastery score only where a page asks scored questions."""
import xml.etree.ElementTree as ET

import pytest

from generator.outputs.scorm.manifest import VERSIONS, Item, Package, manifest

PACKAGE = Package("site.a", "A & B", "About <a>.", "en", (
    Item("a", "Page A", "a/index.html", ("assets/runtime.js", "assets/style.css"), scored=3),
    Item("b", "Page B", "b/index.html", ("assets/style.css",)),
))


@pytest.mark.parametrize("version", VERSIONS)
def test_a_manifest_lists_every_file_once(version):
    text = manifest(PACKAGE, version)
    root = ET.fromstring(text)
    files = [f.get("href") for f in root.iter() if f.tag.endswith("}file")]
    assert sorted(files) == PACKAGE.files == ["a/index.html", "assets/runtime.js", "assets/style.css", "b/index.html"]
    assert b"A &amp; B" in text and manifest(PACKAGE, version) == text


def test_only_a_scored_page_has_a_mastery_score():
    text = manifest(PACKAGE, "1.2").decode()
    assert text.count("<adlcp:masteryscore>") == 1


def test_an_unknown_version_is_refused():
    with pytest.raises(ValueError):
        manifest(PACKAGE, "3")
