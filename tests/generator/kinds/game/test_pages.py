"""kinds/game/pages.py: a game's page, its embed and its single-file copy, from the theme."""


def test_the_game_has_its_page_embed_and_copy(tiny_game):
    out, result = tiny_game
    page = (out / "blanks" / "index.html").read_text("utf-8")
    assert "Blanks" in page and "The verb" in page and "game.js" in page
    assert (out / "embed" / "blanks" / "index.html").is_file() and (out / "offline" / "blanks.html").is_file()
    assert 'href="blanks/index.html"' in (out / "index.html").read_text("utf-8")
