"""kinds/game/content.py: game.md read into a Game: its rounds, parts and labels; problems at their lines."""
import pytest

from generator.errors import ContentError
from generator.kinds.game import KIND

from tests.tiny_game import GAME, MODEL


def test_a_game_is_read(tmp_path):
    folder = tmp_path / "blanks"
    folder.mkdir()
    (folder / "game.md").write_text(GAME, "utf-8")
    (folder / "model.py").write_text(MODEL, "utf-8")
    game = KIND.load(folder, [])
    assert game.title == "Blanks" and [r.title for r in game.rounds] == ["The verb"]
    assert "spotlight" in game.intro and game.facts == "facts" and game.labels


def test_a_game_without_rounds_is_an_error_at_its_line(tmp_path):
    folder = tmp_path / "blanks"
    folder.mkdir()
    (folder / "game.md").write_text(GAME.replace("[[rounds]]", "[[round]]"), "utf-8")
    with pytest.raises(ContentError) as failed:
        KIND.load(folder, [])
    assert any(problem.field == "rounds" for problem in failed.value.problems)
