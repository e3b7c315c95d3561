"""kinds/explainer/quiz/view.py: the questions as the page shows them and carries them as data, and
as `lensa proof` reads them."""
from generator.kinds.explainer.quiz.view import quiz_proof, quiz_view


def test_the_view_and_the_proof(coin_flips):
    site, _, prose, _ = coin_flips
    view = quiz_view(prose["coin-flips"].quiz, "coin-flips", site.config.labels, 80)
    assert len(view["questions"]) == 1 and view["script"]
    [section] = quiz_proof(prose["coin-flips"].quiz)
    assert [(t.label, t.text) for t in section.texts if t.label == "Answer"] == [("Answer", "8")]
