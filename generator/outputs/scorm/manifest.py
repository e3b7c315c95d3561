"""imsmanifest.xml: what an LMS reads from a SCORM package, for SCORM 1.2 and
SCORM 2004 4th Edition: the title, description and language (as IEEE LOM
metadata), one organisation whose items are the package's pages in order,
and one resource per page (a SCO, launched at the page) that depends on one
resource per file it uses, so that every file of the package is listed once.

The XML is written out as text, in a fixed order, so the same package always
gives the same bytes."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ...errors import BuildError

VERSIONS = ("1.2", "2004")
EDITION = {"1.2": "1.2", "2004": "2004 4th Edition"}  # the manifest's <schemaversion>

_NAMESPACES = {
    "1.2": [
        ("", "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "imscp_rootv1p1p2.xsd"),
        ("adlcp", "http://www.adlnet.org/xsd/adlcp_rootv1p2", "adlcp_rootv1p2.xsd"),
        ("imsmd", "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1", "imsmd_rootv1p2p1.xsd"),
    ],
    "2004": [
        ("", "http://www.imsglobal.org/xsd/imscp_v1p1", "imscp_v1p1.xsd"),
        ("adlcp", "http://www.adlnet.org/xsd/adlcp_v1p3", "adlcp_v1p3.xsd"),
        ("adlseq", "http://www.adlnet.org/xsd/adlseq_v1p3", "adlseq_v1p3.xsd"),
        ("adlnav", "http://www.adlnet.org/xsd/adlnav_v1p3", "adlnav_v1p3.xsd"),
        ("imsss", "http://www.imsglobal.org/xsd/imsss", "imsss_v1p0.xsd"),
        ("lom", "http://ltsc.ieee.org/xsd/LOM", "lom.xsd"),
    ],
}
_XSI = "http://www.w3.org/2001/XMLSchema-instance"


@dataclass(frozen=True)
class Item:
    """One page of a package: a SCO, launched at its page."""
    slug: str
    title: str
    launch: str                 # the page's path in the package
    assets: tuple[str, ...]     # the other files it uses, by path in the package
    scored: int = 0             # its questions (Check your understanding): an item with some has a mastery score


@dataclass(frozen=True)
class Package:
    identifier: str
    title: str
    description: str
    language: str
    items: tuple[Item, ...]
    mastery: int = 80           # percent of a page's questions to answer right to pass (site.toml)

    @property
    def files(self) -> list[str]:
        """Every file of the package but the manifest, sorted."""
        return sorted({item.launch for item in self.items} | {a for item in self.items for a in item.assets})


def manifest(package: Package, version: str) -> bytes:
    """The imsmanifest.xml of `package` for SCORM `version` ("1.2" or "2004")."""
    if version not in VERSIONS:
        raise ValueError(f"SCORM version {version!r}: expected one of {', '.join(VERSIONS)}")
    names = _NAMESPACES[version]
    declarations = "".join(f'\n    xmlns{":" + prefix if prefix else ""}="{uri}"' for prefix, uri, _ in names)
    locations = " ".join(f"{uri} {xsd}" for prefix, uri, xsd in names if prefix != "lom")
    scorm_type = "adlcp:scormtype" if version == "1.2" else "adlcp:scormType"
    assets = _asset_ids(package)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<manifest identifier={_id(package.identifier)} version="1"{declarations}',
        f'    xmlns:xsi="{_XSI}"',
        f'    xsi:schemaLocation="{locations}">',
        "  <metadata>",
        "    <schema>ADL SCORM</schema>",
        f"    <schemaversion>{EDITION[version]}</schemaversion>",
        *_lom(package, version),
        "  </metadata>",
        '  <organizations default="organization">',
        '    <organization identifier="organization">',
        f"      <title>{escape(package.title)}</title>",
    ]
    scored = any(item.scored for item in package.items)
    for item in package.items:
        lines += [f'      <item identifier={_id("item-" + item.slug)} identifierref={_id("sco-" + item.slug)}>',
                  f"        <title>{escape(item.title)}</title>",
                  *_mastery(package, item, version, scored),
                  "      </item>"]
    if version == "2004":
        # The learner may pick any page from the LMS's table of contents, or go on to the next.
        lines += ["      <imsss:sequencing>", '        <imsss:controlMode choice="true" flow="true"/>',
                  *(_objective("mastery", package.mastery, "        ") if scored else []),
                  "      </imsss:sequencing>"]
    lines += ["    </organization>", "  </organizations>", "  <resources>"]
    for item in package.items:
        lines += [f'    <resource identifier={_id("sco-" + item.slug)} type="webcontent" {scorm_type}="sco" '
                  f"href={quoteattr(item.launch)}>",
                  f"      <file href={quoteattr(item.launch)}/>"]
        lines += [f"      <dependency identifierref={_id(assets[path])}/>" for path in item.assets]
        lines.append("    </resource>")
    for path, identifier in sorted(assets.items()):
        lines += [f'    <resource identifier={_id(identifier)} type="webcontent" {scorm_type}="asset">',
                  f"      <file href={quoteattr(path)}/>", "    </resource>"]
    lines += ["  </resources>", "</manifest>", ""]
    text = "\n".join(lines)
    _check_identifiers(text, package)
    return text.encode("utf-8")


def _check_identifiers(text: str, package: Package) -> None:
    """Every identifier of a manifest is unique (each is made so: the package's, "organization",
    "item-<slug>" and "sco-<slug>" of distinct slugs, "file-<path>" numbered where two paths
    would meet); checked, as a manifest with a repeated ID is refused by the LMS."""
    counted = Counter(re.findall(r'\sidentifier="([^"]*)"', text))
    repeated = sorted(identifier for identifier, count in counted.items() if count > 1)
    if repeated:
        raise BuildError(f"the SCORM manifest of {package.identifier!r} repeats the identifier {repeated[0]!r}")


def _mastery(package: Package, item: Item, version: str, scored: bool) -> list[str]:
    """What an item says of its score. SCORM 1.2: the mastery score (percent), which
    the LMS hands the page as cmi.student_data.mastery_score. 2004: a primary
    objective satisfied by a normalized measure of at least the mastery score (the
    LMS's cmi.scaled_passing_score), and, where the package has scored pages, the
    weight of its measure in the package's: its share of the package's questions, so
    the whole site's score is the share of all its questions answered right (docs/lms.md)."""
    if version == "1.2":
        return [f"        <adlcp:masteryscore>{package.mastery}</adlcp:masteryscore>"] if item.scored else []
    if not scored:
        return []
    lines = ["        <imsss:sequencing>"]
    if len(package.items) > 1:  # weights run from 0 to 1: its share of the package's questions
        weight = item.scored / sum(other.scored for other in package.items)
        lines.append(f'          <imsss:rollupRules objectiveMeasureWeight="{weight:.4f}"/>')
    if item.scored:
        lines += _objective(f"mastery-{item.slug}", package.mastery, "          ")
    return lines + ["        </imsss:sequencing>"]


def _objective(name: str, mastery: int, indent: str) -> list[str]:
    return [f"{indent}<imsss:objectives>",
            f"{indent}  <imsss:primaryObjective objectiveID={_id(name)} satisfiedByMeasure=\"true\">",
            f"{indent}    <imsss:minNormalizedMeasure>{mastery / 100:g}</imsss:minNormalizedMeasure>",
            f"{indent}  </imsss:primaryObjective>", f"{indent}</imsss:objectives>"]


def _lom(package: Package, version: str) -> list[str]:
    """The package's title, language and description as LOM metadata (IMS LOM 1.2.1
    for SCORM 1.2, IEEE LOM for 2004), in the order the schemas ask for."""
    if version == "1.2":
        prefix, text = "imsmd", lambda s: f"<imsmd:langstring xml:lang={quoteattr(package.language)}>{escape(s)}" \
                                          f"</imsmd:langstring>"
    else:
        prefix, text = "lom", lambda s: f"<lom:string language={quoteattr(package.language)}>{escape(s)}" \
                                        f"</lom:string>"
    return [f"    <{prefix}:lom>", f"      <{prefix}:general>",
            f"        <{prefix}:title>{text(package.title)}</{prefix}:title>",
            f"        <{prefix}:language>{escape(package.language)}</{prefix}:language>",
            f"        <{prefix}:description>{text(package.description)}</{prefix}:description>",
            f"      </{prefix}:general>", f"    </{prefix}:lom>"]


def _asset_ids(package: Package) -> dict[str, str]:
    """An identifier for each file the pages use, made from its path: "assets/runtime.js"
    -> "file-assets-runtime.js"; one that two paths would share is numbered."""
    ids: dict[str, str] = {}
    taken: set[str] = set()
    for path in sorted({a for item in package.items for a in item.assets}):
        base = "file-" + re.sub(r"[^A-Za-z0-9._-]+", "-", path.replace("/", "-"))
        identifier, n = base, 1
        while identifier in taken:
            n += 1
            identifier = f"{base}-{n}"
        taken.add(identifier)
        ids[path] = identifier
    return ids


def _id(identifier: str) -> str:
    """An XML ID, quoted: letters, digits, '.', '-' and '_', never starting with a digit or '-'."""
    identifier = re.sub(r"[^A-Za-z0-9._-]+", "-", identifier)
    if not re.match(r"[A-Za-z_]", identifier):
        identifier = "_" + identifier
    return quoteattr(identifier)
