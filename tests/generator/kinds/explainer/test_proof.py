"""kinds/explainer/proof.py: an explainer's text for `lensa proof`: its steps, each state's prose, the
hint, and its questions."""
from generator.dev.proof import proofread


def test_the_proof_of_an_explainer(coin_flips):
    _, _, _, out = coin_flips
    text = "\n".join(proofread(out.parent / "content", ["coin-flips"]))
    assert "Runs of Heads" in text and "With 3 flips there are 8 outcomes" in text
    assert "How many outcomes do 3 flips have?" in text
