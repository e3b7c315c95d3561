"""`lensa proof` (dev/proof.py): every text of a page as a reader meets it, state after
state, as plain text; only the pages and step asked for; a repeat written as a
pointer when asked; a page or step that is not there is one line naming it."""
import pytest

from generator.cli import main
from generator.dev.proof import plain_text, proofread

from tests.conftest import FIXTURES

TINY = FIXTURES / "tiny" / "content"


def test_every_state_of_every_step_is_written_in_order_with_its_readouts_caption_and_prose():
    lines = proofread(TINY, [])
    text = "\n".join(lines)
    assert lines[1] == "Coin Flips (coin-flips)"
    order = ["Introduction", "Question: What is a coin flip?", "A fair coin lands heads half the time.",
             "Key ideas", "- Flips are independent.",
             "Step 1 of 1: Runs of Heads (steps/01-runs.md)", "Subtitle: Each extra flip halves the chance.",
             "Step 1, state 1 of 3: Flips: 1", "Readouts: Probability: 0.50 · Outcomes: 2",
             "Chart: A run of 1 heads has probability 50%.", "With 1 flips there are 2 outcomes",
             "Step 1, state 2 of 3: Flips: 2 (the page opens here)", "Readouts: Probability: 0.25 · Outcomes: 4",
             "Step 1, state 3 of 3: Flips: 3", "With 3 flips there are 8 outcomes, so all heads has a chance of 13%",
             "Step 1: after its states", "Try this: Click 3.", "Common questions", "Is the coin fair?",
             "Yes, in this toy."]
    places = [text.index(part) for part in order]
    assert places == sorted(places)
    assert "<" not in text.replace("<!--", "")  # no markup: the text a reader reads


def test_a_repeated_text_can_be_written_as_a_pointer_to_its_first_state(tmp_site):
    step = (TINY / "coin-flips/steps/01-runs.md").read_text()
    prose = next(line for line in step.splitlines() if line.startswith("With {{ flips }}"))
    content = tmp_site({"coin-flips/steps/01-runs.md": step.replace(prose, "The same words in every state.")})
    assert proofread(content, ["coin-flips"]).count("The same words in every state.") == 3
    short = proofread(content, ["coin-flips"], skip_repeats=True)
    assert short.count("The same words in every state.") == 1 and short.count("(as in state 1)") == 2
    assert sum(line.startswith("Readouts: Probability: ") for line in short) == 3  # what differs, in full


def test_only_the_step_asked_for(capsys):
    charts = FIXTURES / "charts" / "content"
    assert main(["proof", "--content", str(charts), "chart-kinds", "--step", "2"]) == 0
    out = capsys.readouterr().out
    assert "Step 2 of 23: A line over labels" in out and "Step 2, state 3 of 3: Pair: 2" in out
    assert "Step 1 of 23" not in out and "Step 3 of 23" not in out and "Introduction" not in out


def test_a_game_writes_each_round_and_every_spotlights_announcement(capsys, tiny_game_content):
    assert main(["proof", "--content", str(tiny_game_content), "blanks", "--step", "1"]) == 0
    out = capsys.readouterr().out
    assert "Round 1 of 1: " in out and "What this round shows: " in out and "Reveal: With its own attention" in out
    spotlights = [line for line in out.splitlines() if line.startswith("Round 1, spotlight ")]
    assert spotlights[0].endswith("(the round opens here)") and spotlights[-1].startswith(
        f"Round 1, spotlight {len(spotlights)} of {len(spotlights)}: ")
    assert out.count("The model answers ") == len(spotlights)


@pytest.mark.parametrize("args, message", [
    (["chart-kind"], "'chart-kind' is not a page of the site (did you mean 'chart-kinds'?)"),
    (["chart-kinds", "--step", "24"], "chart-kinds has no step or round 24 (it has 1 to 23)")])
def test_a_page_or_step_that_is_not_there_is_one_line(args, message, capsys):
    assert main(["proof", "--content", str(FIXTURES / "charts" / "content"), *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err
    assert captured.err.strip().splitlines()[-1] == "Proof failed: 1 error."


def test_html_becomes_the_text_a_reader_reads():
    html = ("<p>One <em>and</em> &amp;\ntwo</p><ul><li><p>a</p></li><li>b<ol><li>c</li></ol></li></ul>"
            "<h3>Q?</h3><table><tr><th>x</th><th>y</th></tr><tr><td>1</td><td>−2</td></tr></table>"
            "<p>line<br>break</p><script>never()</script>")
    assert plain_text(html) == "One and & two\n\n- a\n- b\n  1. c\n\nQ?\n\nx | y\n1 | −2\n\nline\nbreak"


BIB = """@article{vaswani2017,
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki},
  title = {Attention Is All You Need},
  journal = {NeurIPS},
  year = {2017},
}
"""


def test_math_and_citations_are_written_as_a_reader_reads_them(tmp_site):
    step = (TINY / "coin-flips/steps/01-runs.md").read_text()
    content = tmp_site({"references.bib": BIB, "coin-flips/steps/01-runs.md": step.replace(
        "::: hint", "Roughly $\\sqrt{d_k} = 2$; multiplied by $1/\\sqrt{ {{ flips }} }$, "
        "the setting in which @vaswani2017 explain the scaling.\n\n::: hint")})
    text = "\n".join(proofread(content, ["coin-flips"], part=1))
    assert "Roughly √d_k = 2" in text and "multiplied by 1/√2" in text
    assert "the setting in which Vaswani et al. (2017) explain the scaling" in text
    assert "<math" not in text and "$" not in text and "@vaswani2017" not in text
