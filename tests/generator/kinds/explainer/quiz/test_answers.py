"""kinds/explainer/quiz/answers.py: a question resolved against the computed states: its answer from
the model's values, the state that shows why and its deep link."""


def test_the_answer_comes_from_the_state(coin_flips):
    _, _, prose, _ = coin_flips
    [resolved] = prose["coin-flips"].quiz
    assert resolved.key == "2" and resolved.fragment == "step-1&s1=flips:3" and resolved.step_number == 1
    assert resolved.legend == "How many outcomes do 3 flips have?" and "8 outcomes" in resolved.right
