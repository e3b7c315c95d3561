"""kinds/explainer/pages.py: an explainer's page, its embeds (the whole page and each step) and its
single-file copy."""


def test_the_page_and_its_embeds(coin_flips):
    _, _, _, out = coin_flips
    page = (out / "coin-flips" / "index.html").read_text("utf-8")
    assert "Runs of Heads" in page and 'id="step-1"' in page
    assert {p.name for p in (out / "embed" / "coin-flips").iterdir()} == {"index.html", "step-1.html"}
    assert (out / "offline" / "coin-flips.html").is_file()
