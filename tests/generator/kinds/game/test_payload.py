"""kinds/game/payload.py: a game's page data: every spotlight in the order of its controls' values, the shares of
the blank's attention; names for each word button."""
from generator.kinds.game.payload import shares, word_names


def test_word_names_and_shares(tiny_game):
    _, result = tiny_game
    [states] = result.computed["blanks"].rounds
    game = next(page for page in result.site.pages if page.slug == "blanks")
    names = word_names(states, game.labels)
    assert len(names) == len(states.words) and any("cat" in name for name in names)
    one = next(s for s in states.states if s.choice == {"Head 1": [1]})
    [row] = shares(states, one.choice)
    assert len(row) == len(states.words)


def test_the_page_carries_its_data(tiny_game):
    out, _ = tiny_game
    assert 'id="game-data"' in (out / "blanks" / "index.html").read_text("utf-8")
