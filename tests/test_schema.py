"""Site options that shape every page: each bad value is one clear error
that names the option."""
import pytest

from generator.content import load_site
from generator.errors import ContentError

from .conftest import FIXTURES

CONFIG = (FIXTURES / "tiny" / "content" / "site.toml").read_text("utf-8")


def problem(content):
    with pytest.raises(ContentError) as info:
        load_site(content)
    [found] = info.value.problems
    return found


def with_config(tmp_site, lines: str):
    head, _, series = CONFIG.partition("[[series]]")
    return tmp_site({"site.toml": f"{head}{lines}\n\n[[series]]{series}"})


@pytest.mark.parametrize("lines, field, message", [
    ('base_url = "https://user.github.io/repo/?ref=x"', "base_url", "without spaces, query or fragment"),
    ('base_url = "/repo/"', "base_url", "with a scheme"),
    ('language = "english please"', "language", "language tag"),
    ('[labels]\nstep_of = "Step {number} of {total}"', "labels.step_of", "unknown placeholder {number}"),
    ('[labels]\ndate_format = "{d}/{m}/{y}"', "labels.date_format", "unknown placeholder {d}"),
    ('[labels]\nmonths = ["Jan", "Feb"]', "labels.months", "expected 12 month names"),
    ('[labels]\nhome = ""', "labels.home", None),
])
def test_bad_site_options_are_named(tmp_site, lines, field, message):
    found = problem(with_config(tmp_site, lines))
    assert found.field == field and str(found.path).endswith("site.toml")
    if message:
        assert message in found.message


def test_base_url_gets_one_trailing_slash(tmp_site):
    site = load_site(with_config(tmp_site, 'base_url = "https://user.github.io/repo"'))
    assert site.config.base_url == "https://user.github.io/repo/"


def test_an_empty_question_is_an_error(tmp_site):
    content = tmp_site()
    explainer = content / "coin-flips" / "explainer.md"
    explainer.write_text(explainer.read_text("utf-8").replace('"What is a coin flip?"', '"  "'), "utf-8")
    found = problem(content)
    assert found.field == "question" and "must not be empty" in found.message
