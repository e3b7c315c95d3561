"""SCORM packages (generator/outputs/scorm/): one per page and one of the whole
site, in SCORM 1.2 and 2004, with manifests valid against the official IMS and
ADL schemas, holding exactly what their pages use, reproducible, and refused
with one line per page that an LMS could not list. The LMS side, in Chromium
with scorm-again, is tests/browser/test_scorm_lms.py."""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
import zipfile
from pathlib import PurePosixPath

import pytest

from generator.cli import main
from generator.outputs.scorm import MANIFEST
from generator.outputs.scorm.manifest import EDITION, VERSIONS

from tests.conftest import FIXTURES
from tests.hosting import parse_page
from tests.lms import manifest_schema

# The packages (packaged, below) are made once per worker: keep their tests on one (make test runs pytest
# -n auto --dist loadgroup).
pytestmark = pytest.mark.xdist_group("scorm")
WHOLE = "tiny-site.site"  # the whole site's package, named after the tiny site's title

CP = {"1.2": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "2004": "http://www.imsglobal.org/xsd/imscp_v1p1"}
ADLCP = {"1.2": "http://www.adlnet.org/xsd/adlcp_rootv1p2", "2004": "http://www.adlnet.org/xsd/adlcp_v1p3"}
SCORM_TYPE = {"1.2": "scormtype", "2004": "scormType"}
SUFFIX = {"1.2": "scorm12", "2004": "scorm2004"}


def tag(version: str, name: str) -> str:
    return f"{{{CP[version]}}}{name}"


@pytest.fixture(scope="module")
def linked(tiny_game_content, tmp_path_factory):
    """The tiny site with its game, its explainer's text linking to the game: built, (out, result)."""
    from generator.build import build

    from tests.conftest import THEMES

    content = tmp_path_factory.mktemp("linked") / "content"
    shutil.copytree(tiny_game_content, content)
    step = content / "coin-flips" / "steps" / "01-runs.md"
    step.write_text(step.read_text().replace("::: hint", "Then [play](page:blanks).\n\n::: hint"))
    out = content.parent / "build"
    result = build(content, out, THEMES)
    assert 'href="../blanks/index.html"' in (out / "coin-flips" / "index.html").read_text()  # a link to leave
    return out, result


@pytest.fixture(scope="module")
def packaged(linked, tmp_path_factory):
    """Every SCORM package of that site, unpacked (tests/lms.py): (that folder, packages by zip name)."""
    from tests.lms import package_site

    root = tmp_path_factory.mktemp("scorm")
    return root, package_site(linked[1], root)


@pytest.fixture(scope="module")
def packages(packaged):
    return packaged[1]


@pytest.fixture(scope="module")
def site(linked):
    return linked[1].site


def zip_names(unpacked) -> list[str]:
    with zipfile.ZipFile(unpacked.zip_path) as archive:
        return archive.namelist()


# ---- Which packages ------------------------------------------------------------------------------


def test_every_page_and_the_whole_site_have_a_package_in_each_version(packages, site):
    pages = {f"{page.slug}-{SUFFIX[v]}.zip" for page in site.pages for v in VERSIONS}
    whole = {f"{WHOLE}-{SUFFIX[v]}.zip" for v in VERSIONS}
    assert set(packages) == pages | whole
    for name, unpacked in packages.items():
        assert name.endswith(f"-{SUFFIX[unpacked.version]}.zip")
        items = [item.slug for item in unpacked.package.items]
        assert items == ([page.slug for page in site.pages] if name in whole else [name.rsplit("-", 1)[0]])


def test_the_site_package_lists_the_pages_in_series_order(packages, site):
    config = site.config
    listed = [entry.slug for entry in config.series + config.extra]
    built = {page.slug for page in site.pages}
    expected = [slug for slug in listed if slug in built] + [p.slug for p in site.pages if p.slug not in listed]
    for version in VERSIONS:
        root = ET.fromstring((packages[f"{WHOLE}-{SUFFIX[version]}.zip"].folder / MANIFEST).read_bytes())
        items = root.findall(f"{tag(version, 'organizations')}/{tag(version, 'organization')}/{tag(version, 'item')}")
        assert [item.get("identifier") for item in items] == [f"item-{slug}" for slug in expected]
        titles = {page.slug: page.title for page in site.pages}
        assert [item.find(tag(version, "title")).text for item in items] == [titles[s] for s in expected]


# ---- The manifest --------------------------------------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_is_valid_against_the_official_schemas(packages, version):
    schema = manifest_schema(version)
    for name, unpacked in packages.items():
        if unpacked.version != version:
            continue
        errors = [str(error).splitlines()[0] for error in schema.iter_errors(str(unpacked.folder / MANIFEST))]
        assert errors == [], name


def test_a_wrong_manifest_fails_the_schemas(packages):
    """The validation can fail: the schemas are loaded, not skipped."""
    for version in VERSIONS:
        text = (packages[f"{WHOLE}-{SUFFIX[version]}.zip"].folder / MANIFEST).read_text()
        schema = manifest_schema(version)
        broken = text.replace('type="webcontent"', 'kind="webcontent"', 1)
        assert list(schema.iter_errors(broken)), version
        assert list(schema.iter_errors(text.replace("<organization identifier", "<organization><x/></organization>"
                                                                                "<organization identifier", 1)))


def test_every_manifest_is_well_formed_and_lists_exactly_the_files_of_its_zip(packages, site):
    """What the schemas cannot say: references resolve, the files listed are the
    zip's, the metadata is the page's, and each page is a SCO launched at itself."""
    sources = {page.slug: page for page in site.pages}
    for name, unpacked in packages.items():
        version, package = unpacked.version, unpacked.package
        root = ET.fromstring((unpacked.folder / MANIFEST).read_bytes())
        assert root.tag == tag(version, "manifest"), name
        metadata = root.find(tag(version, "metadata"))
        assert metadata.find(tag(version, "schema")).text == "ADL SCORM"
        assert metadata.find(tag(version, "schemaversion")).text == EDITION[version]
        lom = "".join(metadata.itertext())
        assert package.title in lom and package.description in lom and package.description.strip()
        assert package.language == site.config.language and f">{package.language}<" in \
            (unpacked.folder / MANIFEST).read_text()

        organizations = root.find(tag(version, "organizations"))
        organization = organizations.find(tag(version, "organization"))
        assert organizations.get("default") == organization.get("identifier")
        assert organization.find(tag(version, "title")).text == package.title
        resources = {r.get("identifier"): r for r in root.find(tag(version, "resources"))}
        listed = []
        for resource in resources.values():
            listed += [file.get("href") for file in resource.findall(tag(version, "file"))]
            for dependency in resource.findall(tag(version, "dependency")):
                assert dependency.get("identifierref") in resources, name
        for item in organization.findall(tag(version, "item")):
            slug = item.get("identifier").removeprefix("item-")
            sco = resources[item.get("identifierref")]
            assert sco.get(f"{{{ADLCP[version]}}}{SCORM_TYPE[version]}") == "sco"
            assert sco.get("href") == f"{slug}/index.html" == sco.find(tag(version, "file")).get("href")
            assert item.find(tag(version, "title")).text == sources[slug].title
        assets = [r for r in resources.values() if r.get(f"{{{ADLCP[version]}}}{SCORM_TYPE[version]}") == "asset"]
        assert len(assets) + len(organization.findall(tag(version, "item"))) == len(resources)

        files = zip_names(unpacked)
        assert files[0] == MANIFEST, "imsmanifest.xml at the root"
        assert sorted(listed) == sorted(set(listed)), f"{name}: a file listed twice"
        assert sorted(listed) == sorted(files[1:]), f"{name}: listed files and the zip's differ"
        assert all(not PurePosixPath(f).is_absolute() and ".." not in PurePosixPath(f).parts for f in files)


# ---- What a package holds ------------------------------------------------------------------------


def test_a_package_holds_its_pages_and_exactly_the_files_they_load(packages):
    for name, unpacked in packages.items():
        files = set(zip_names(unpacked)) - {MANIFEST}
        pages = {item.launch for item in unpacked.package.items}
        assert {f for f in files if f.endswith(".html")} == pages, name
        loaded = set()
        for launch in pages:
            parsed = parse_page((unpacked.folder / launch).read_text(encoding="utf-8"))
            for reference in parsed.loads:
                if re.match(r"^[a-z]+:", reference):  # a data: URI holds what it shows
                    continue
                path = (PurePosixPath(launch).parent / reference.split("?")[0]).as_posix()
                loaded.add(re.sub(r"[^/]+/\.\./", "", path))
        stylesheets = [f for f in files if f.endswith(".css")]
        for sheet in stylesheets:
            for reference in re.findall(r"""url\(\s*['"]?([^'")#]+)""", (unpacked.folder / sheet).read_text()):
                if not re.match(r"^[a-z]+:", reference):
                    loaded.add(re.sub(r"[^/]+/\.\./", "", (PurePosixPath(sheet).parent / reference).as_posix()))
        assert loaded - files == set(), f"{name}: loads files it does not hold"
        assert files - pages - loaded == set(), f"{name}: holds files no page loads"


def test_the_bridge_is_loaded_first_in_packages_and_never_by_the_sites_pages(packages, linked):
    out, _ = linked
    for page in out.rglob("*.html"):  # pages, embeds and single-file copies
        html = page.read_text(encoding="utf-8")
        assert "scorm.js?" not in html and "API_1484_11" not in html, page
    for unpacked in packages.values():
        for item in unpacked.package.items:
            html = (unpacked.folder / item.launch).read_text(encoding="utf-8")
            # A script held in a <template> (plotly.js, the figure kit) is not run by loading the page.
            scripts = re.findall(r"<script\b[^>]*>", re.sub(r"<template\b.*?</template>", "", html, flags=re.S))
            first = next(s for s in scripts if "src=" in s)
            assert re.fullmatch(rf'<script src="\.\./assets/scorm\.js\?v=[0-9a-f]{{10}}" '
                                rf'data-scorm="{unpacked.version}">', first), first
            assert html.index(first) < html.index("</head>") and html.count("scorm.js") == 1
            assert "defer" not in first, "it runs before the page's own scripts read the address"


def test_links_to_other_pages_stop_being_links_without_a_base_url(packages, site):
    """The site has no base_url: its pages' links to each other become text,
    as in the single-file copy; the Embed buttons and Save offline are left out."""
    assert not site.config.base_url
    for unpacked in packages.values():
        for item in unpacked.package.items:
            html = (unpacked.folder / item.launch).read_text(encoding="utf-8")
            for href in parse_page(html).links:
                assert href.startswith("#") or re.match(r"^https?://", href), (item.launch, href)
            for href in re.findall(r'href=\\"([^"\\]*)\\"', html):  # the prose of every state, in the page data
                assert href.startswith("#") or re.match(r"^https?://", href), (item.launch, href)
            assert "data-offline" not in html and "data-embed-code" not in html
            assert 'rel="canonical"' not in html


def test_every_link_that_leaves_the_page_opens_a_new_tab(packages):
    """Followed in the LMS's frame, it would unload the page and end the session."""
    for unpacked in packages.values():
        for item in unpacked.package.items:
            html = (unpacked.folder / item.launch).read_text(encoding="utf-8")
            for anchor in re.findall(r"<a\b[^>]*>", html):
                href = re.search(r'href="([^"]*)"', anchor)
                if href and not href.group(1).startswith("#"):
                    assert 'target="_blank"' in anchor, (item.launch, anchor)


def test_a_page_is_the_same_in_every_package_but_for_the_version_it_names(packages, site):
    for page in site.pages:
        path = f"{page.slug}/index.html"
        html = {v: (packages[f"{page.slug}-{SUFFIX[v]}.zip"].folder / path).read_bytes() for v in VERSIONS}
        assert html["1.2"].replace(b'data-scorm="1.2"', b'data-scorm="2004"') == html["2004"]
        for version in VERSIONS:
            assert (packages[f"{WHOLE}-{SUFFIX[version]}.zip"].folder / path).read_bytes() == html[version]


# ---- The command line, on a small site -------------------------------------------------------------


def _tiny_with_base_url(tmp_site):
    """The tiny site with a base_url and a second page that links to the first."""
    explainer = (FIXTURES / "tiny" / "content" / "coin-flips" / "explainer.md").read_text()
    step = (FIXTURES / "tiny" / "content" / "coin-flips" / "steps" / "01-runs.md").read_text()
    model = (FIXTURES / "tiny" / "content" / "coin-flips" / "model.py").read_text()
    site = (FIXTURES / "tiny" / "content" / "site.toml").read_text()
    return tmp_site({
        "site.toml": 'base_url = "https://example.org/course/"\n' + site +
                     '\n[[series]]\nslug = "more-coins"\ntitle = "More Coins"\n',
        "more-coins/explainer.md": explainer.replace('title = "Coin Flips"', 'title = "More Coins"', 1).replace(
            "A fair coin lands heads half the time.",
            "See [the first page](page:coin-flips#step-1) and [its source](https://example.org/coins)."),
        "more-coins/steps/01-runs.md": step,
        "more-coins/model.py": model,
    })


def test_pages_links_are_absolute_under_the_base_url_and_open_a_new_tab(tmp_site, tmp_path, capsys):
    content = _tiny_with_base_url(tmp_site)
    assert main(["dist", "--scorm", "2004", "--content", str(content), "--scorm-dir", str(tmp_path / "out")]) == 0
    assert "Packed 3 SCORM packages (2 pages and the whole site, SCORM 2004)" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "coin-flips-scorm2004.zip", "more-coins-scorm2004.zip", "tiny-site.site-scorm2004.zip"]
    with zipfile.ZipFile(tmp_path / "out" / "more-coins-scorm2004.zip") as archive:
        html = archive.read("more-coins/index.html").decode()
    assert '<a target="_blank" href="https://example.org/course/coin-flips/index.html#step-1">the first page</a>' \
        in html
    assert '<a target="_blank" href="https://example.org/coins">its source</a>' in html
    assert 'href="#" aria-current="page"' in html, "a link to the page itself stays on it"


def test_two_runs_give_byte_identical_zips(tmp_site, tmp_path):
    content = tmp_site()
    for run in ("one", "two"):
        assert main(["dist", "--scorm", "--content", str(content), "--scorm-dir", str(tmp_path / run)]) == 0
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == ["coin-flips-scorm12.zip", "coin-flips-scorm2004.zip", "tiny-site.site-scorm12.zip",
                     "tiny-site.site-scorm2004.zip"]
    for name in names:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name
        with zipfile.ZipFile(tmp_path / "one" / name) as archive:
            assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in archive.infolist())
            assert archive.testzip() is None


def test_a_page_with_no_description_is_one_line_naming_it_and_nothing_is_written(tmp_site, tmp_path, capsys):
    explainer = (FIXTURES / "tiny" / "content" / "coin-flips" / "explainer.md").read_text()
    content = tmp_site({"coin-flips/explainer.md": explainer.replace(
        'subtitle = "How likely is a run of heads?"\n', "")})
    build = tmp_path / "build-before"
    assert main(["dist", "--scorm", "--content", str(content), "--scorm-dir", str(tmp_path / "out"),
                 "--out", str(build)]) == 1
    errors = capsys.readouterr().err.strip().splitlines()
    assert errors == [f"error: {content / 'coin-flips' / 'explainer.md'}: description: page 'coin-flips' has no "
                      "description, which its SCORM package needs for the LMS to list it (set `description`, or at "
                      "least `subtitle`)", "Dist failed: 1 error."]
    assert not (tmp_path / "out").exists() and not build.exists()


def test_a_site_with_no_description_is_named_too(tmp_site, tmp_path, capsys):
    site = (FIXTURES / "tiny" / "content" / "site.toml").read_text()
    content = tmp_site({"site.toml": site.replace('description = "A one-explainer site the tests build."\n', "")})
    assert main(["dist", "--scorm", "--content", str(content), "--scorm-dir", str(tmp_path / "out")]) == 1
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2 and errors[0].startswith(f"error: {content / 'site.toml'}: description: the site has no "
                                                     "description")
    assert not (tmp_path / "out").exists()


def test_package_names_and_identifiers_never_collide_whatever_the_slugs(tmp_site, tmp_path, capsys):
    """A site titled "Foo" with pages foo, foo-site and site: each package has a zip and an
    identifier of its own (the whole site's once replaced foo-site's zip, and shared site's identifier)."""
    base = FIXTURES / "tiny" / "content" / "coin-flips"
    pages = {}
    for slug in ("foo", "foo-site", "site"):
        pages[f"{slug}/explainer.md"] = (base / "explainer.md").read_text().replace('related = ["dice"]\n', "")
        pages[f"{slug}/model.py"] = (base / "model.py").read_text()
        pages[f"{slug}/steps/01-runs.md"] = (base / "steps" / "01-runs.md").read_text()
    content = tmp_site({"site.toml": 'title = "Foo"\ndescription = "Three pages."\n', **pages})
    shutil.rmtree(content / "coin-flips")
    out = tmp_path / "out"
    assert main(["dist", "--scorm", "--content", str(content), "--scorm-dir", str(out)]) == 0
    assert "Packed 8 SCORM packages (3 pages and the whole site" in capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([f"{slug}-{suffix}.zip" for slug in ("foo", "foo-site", "site")
                            for suffix in SUFFIX.values()] + [f"foo.site-{suffix}.zip" for suffix in SUFFIX.values()])
    for version, suffix in SUFFIX.items():
        identifiers = []
        for name in names:
            if name.endswith(f"-{suffix}.zip"):
                with zipfile.ZipFile(out / name) as archive:
                    identifiers.append(ET.fromstring(archive.read(MANIFEST)).get("identifier"))
        assert sorted(identifiers) == ["foo", "foo.foo", "foo.foo-site", "foo.site"], version


def test_a_repeated_manifest_identifier_is_refused():
    from generator.errors import BuildError
    from generator.outputs.scorm.manifest import Item, Package, manifest

    item = Item("a", "A", "a/index.html", ())
    with pytest.raises(BuildError, match="repeats the identifier 'item-a'"):
        manifest(Package("p", "P", "About P.", "en", (item, item)), "2004")
