"""The series (content/) as a whole passes `lensa check --strict`: no error and no warning."""
import subprocess
import sys

from tests.conftest import CONTENT, ROOT


def test_the_bundled_content_checks_clean_under_strict():
    result = subprocess.run([sys.executable, "-m", "generator", "check", "--strict", "--content", str(CONTENT)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
