"""kinds/explainer/payload.py: an explainer's page data: every state's readouts, prose and charts."""
from generator.kinds.explainer.payload import chart_payload


def test_every_state_has_its_chart(coin_flips):
    site, computed, _, out = coin_flips
    charts = chart_payload(computed["coin-flips"], site.config.labels)
    [step] = charts.steps
    assert set(step["states"]) == {"0", "1", "2"}
    page = (out / "coin-flips" / "index.html").read_text("utf-8")
    assert '"0.13"' in page and '"8"' in page, "the readouts are in the page data"
