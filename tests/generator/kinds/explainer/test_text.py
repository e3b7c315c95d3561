"""kinds/explainer/text.py: each state's prose (Markdown and Jinja over its values), the hint, and a
script's end in the text kept from closing the page's script."""


def test_the_prose_of_each_state(coin_flips):
    _, _, prose, _ = coin_flips
    [step] = prose["coin-flips"]
    html, _ = step.states["2"]
    assert html.startswith("<p>With 3 flips there are 8 outcomes, so all heads has a chance of 13%")
    assert "&lt;!--" in html and step.hint == "<p>Click <strong>3</strong>.</p>"
