"""kinds/game/compute.py: a game's computed data is typed (GameStates), and states kept by an
earlier build are attached to this build's rounds."""
import dataclasses

from generator.kinds.game.compute import GameStates, adopt


def test_adopting_keeps_the_states_and_takes_the_new_rounds():
    @dataclasses.dataclass
    class Kept:
        round: str

    @dataclasses.dataclass
    class Game:
        rounds: list

    computed = GameStates([Kept("old 1"), Kept("old 2")], {"answer": 1})
    adopted = adopt(computed, Game(["new 1", "new 2"]))
    assert [r.round for r in adopted.rounds] == ["new 1", "new 2"] and adopted.facts == {"answer": 1}
    assert dataclasses.is_dataclass(adopted) and [r.round for r in computed.rounds] == ["old 1", "old 2"]
