"""kinds/explainer/figures.py: an explainer's figures folder: a page of its figures and an SVG file
of each chart's default state."""


def test_the_figures_folder(coin_flips):
    _, _, _, out = coin_flips
    folder = out / "figures" / "coin-flips"
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "step-1-chart-1.svg"]
    svg = (folder / "step-1-chart-1.svg").read_text("utf-8")
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert "Probability of all heads" in svg
