"""kinds/game/schema.py: a game's main file as option tables; every label of the game page must
hold words, and the limits are checked."""
from generator.kinds.game.schema import GAME, GAME_LABELS, ROUND


def test_no_game_label_may_be_empty():
    assert GAME_LABELS and all(option.check is not None and option.check("") for option in GAME_LABELS.values())
    assert all(option.check(option.default) is None for option in GAME_LABELS.values())


def test_a_round_names_its_function():
    assert ROUND["compute"].check("round_one") is None and ROUND["compute"].check("round one")
    assert GAME["labels"].item is GAME_LABELS and all(option.doc.strip() for option in GAME.values())
