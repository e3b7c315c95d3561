"""SCORM packages (`lensa dist --scorm`): each page of the site, and the
whole site, as a zip an LMS imports and tracks, in SCORM 1.2 and SCORM 2004
4th Edition.

A package holds imsmanifest.xml at its root and, at their build paths, its
pages as package_page() rewrites them and exactly the files they use, the
LMS bridge (the theme's scorm.js) among them. The zips are reproducible like
`make dist`'s: sorted entries, one timestamp. Everything is made in memory
and checked before the first zip is written."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ...errors import BuildError, ContentError, Problem
from ...site import Site
from ...render.seo import description_of
from ...render.urls import ASSETS_DIR, page_path
from ..archive import archive_name, write_zip
from ..offline import Files, content_of
from .manifest import VERSIONS, Item, Package, manifest
from .page import package_page

BRIDGE = "scorm.js"             # the theme's script that talks to the LMS, loaded only in packages
MANIFEST = "imsmanifest.xml"
_SUFFIX = {"1.2": "scorm12", "2004": "scorm2004"}


@dataclass(frozen=True)
class Built:
    """One package: its zip's file name, its SCORM version and its entries, in order."""
    name: str
    version: str
    package: Package
    entries: tuple[tuple[str, bytes], ...]


def scorm_packages(site: Site, files: Files, versions: tuple[str, ...] = VERSIONS) -> list[Built]:
    """A package of each page of the site, then one of the whole site (its pages in
    series order), in each of `versions`, made from the build's `files`.

    Raises ContentError, one line per page, for pages an LMS could not list (no title
    or description), and BuildError when the theme has no bridge."""
    _check_described(site)
    bridge = f"{ASSETS_DIR}/{BRIDGE}"
    if bridge not in files:
        raise BuildError(f"the theme has no static/{BRIDGE}, the script that reports to the LMS "
                         f"(themes/default/static/{BRIDGE} is one)")
    bridge_version = hashlib.sha256(content_of(files[bridge])).hexdigest()[:10]
    site_name = archive_name(site.config.title)
    slugs = [page.slug for page in site.pages]
    built = []
    for version in versions:
        pages = {source.slug: _page(source, site.kind_of(source).scored(source), files, site.config.base_url,
                                    f"{bridge}?v={bridge_version}", version)
                 for source in site.pages}
        for source in site.pages:
            package = Package(page_identifier(site_name, source.slug), source.title, description_of(source),
                              site.config.language, (pages[source.slug][0],), site.config.mastery_score)
            built.append(_zip(page_package(source.slug, version), version, package, pages, files))
        package = Package(site_identifier(site_name), site.config.title, site.config.description,
                          site.config.language, tuple(pages[slug][0] for slug in slugs), site.config.mastery_score)
        built.append(_zip(site_package(site_name, version), version, package, pages, files))
    _check_unique(built)
    return built


# Names and identifiers, unique by construction: a slug and a site's archive name are
# lowercase letters, digits and hyphens, so the whole site's package, whose name has a
# dot before its suffix, is never a page's, and its identifier, with no dot, never
# another's ("<site>.<slug>"), whatever the slugs (a "site" or a "<site>-site" among them).
def page_package(slug: str, version: str) -> str:
    return f"{slug}-{_SUFFIX[version]}.zip"


def site_package(site_name: str, version: str) -> str:
    return f"{site_name}.site-{_SUFFIX[version]}.zip"


def page_identifier(site_name: str, slug: str) -> str:
    return f"{site_name}.{slug}"


def site_identifier(site_name: str) -> str:
    return site_name


def _check_unique(built: list[Built]) -> None:
    """Checked all the same, before anything is written: a zip would replace another,
    and an LMS takes a package with a known identifier for an update of that one."""
    names: dict[str, Built] = {}
    identifiers: dict[tuple[str, str], Built] = {}
    for package in built:
        for table, key, what in ((names, package.name, "file name"),
                                 (identifiers, (package.package.identifier, package.version), "manifest identifier")):
            if key in table:
                shown = key if isinstance(key, str) else key[0]
                raise BuildError(f"SCORM packages {table[key].name} and {package.name} would share the {what} "
                                 f"{shown!r}")
            table[key] = package


def write_scorm_packages(built: list[Built], folder: Path) -> list[Path]:
    """Write each package into `folder`; the paths written, in order."""
    paths = []
    for package in built:
        write_zip(package.entries, folder / package.name)
        paths.append(folder / package.name)
    return paths


def _page(source, scored: int, files: Files, base_url: str, bridge: str, version: str) -> tuple[Item, bytes]:
    """A page's item in a package, and its page as packages hold it."""
    path = page_path(source.slug)
    if path not in files:
        raise BuildError(f"{path}: the page of {source.slug!r} is not in the build")
    root = "../" * path.count("/")
    tag = f'<script src="{root}{bridge}" data-scorm="{version}"></script>'
    html, needed = package_page(content_of(files[path]).decode("utf-8"), path, files, base_url, tag)
    needed.add(bridge.split("?")[0])
    return (Item(source.slug, source.title, path, tuple(sorted(needed - {path})), scored),
            html.encode("utf-8"))


def _zip(name: str, version: str, package: Package, pages: dict, files: Files) -> Built:
    launches = {item.launch: pages[item.slug][1] for item in package.items}
    entries = [(MANIFEST, manifest(package, version))]
    entries += [(path, launches[path] if path in launches else content_of(files[path])) for path in package.files]
    return Built(name, version, package, tuple(entries))


def _check_described(site: Site) -> None:
    """Every package is listed in the LMS by its title and description: each page
    needs both, and so does the site, for the package of the whole site."""
    problems = []
    for source in site.pages:
        missing = [what for what, text in (("title", source.title), ("description", description_of(source)))
                   if not text.strip()]
        if missing:
            problems.append(Problem(source.path / site.kind_of(source).main_file,
                                    f"page {source.slug!r} has no {' and no '.join(missing)}, which "
                                    f"its SCORM package needs for the LMS to list it (set {_keys(missing)})",
                                    field=missing[0]))
    if not site.config.title.strip() or not site.config.description.strip():
        missing = [what for what, text in (("title", site.config.title), ("description", site.config.description))
                   if not text.strip()]
        problems.append(Problem(site.config.path, f"the site has no {' and no '.join(missing)}, which the SCORM "
                                f"package of the whole site needs for the LMS to list it", field=missing[0]))
    if problems:
        raise ContentError(problems)


def _keys(missing: list[str]) -> str:
    keys = {"title": "`title`", "description": "`description`, or at least `subtitle`"}
    return " and ".join(keys[what] for what in missing)
