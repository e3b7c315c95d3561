"""kinds/game/text.py: a game's text: intro and model note (with the facts), each round's goal and
lesson as Markdown, and what is announced for every spotlight."""


def test_the_text_of_a_game(tiny_game):
    out, result = tiny_game
    [states] = result.computed["blanks"].rounds
    assert [s.values["answer"] for s in states.states] == ["and", "the", "sat"]
    page = (out / "blanks" / "index.html").read_text("utf-8")
    assert "A hand-set toy with 1 head." in page, "the model note prints the facts"
    assert "<em>sat</em>" in page and "<em>cat</em>" in page, "goal and lesson are Markdown"
