"""kinds/game/proof.py: a game's text for `lensa proof`, section by section, every spotlight's sentence."""
from generator.dev.proof import proofread


def test_the_proof_of_a_game(tiny_game):
    out, _ = tiny_game
    lines = proofread(out.parent / "content", ["blanks"])
    text = "\n".join(lines)
    assert "Round 1 of 1: The verb" in text and "the cat" in text and "sat" in text
