"""kinds/explainer/quiz/schema.py: a question file's options, each kind of question with the
keys it takes."""
from generator.kinds.explainer.quiz.schema import KEYS, KINDS, QUESTION
from generator.kinds.explainer.schema import format_check


def test_each_kind_takes_its_own_keys_and_every_key_is_an_option():
    assert set(KEYS) == set(KINDS) == set(QUESTION["kind"].choices)
    assert all(key in QUESTION for keys in KEYS.values() for key in keys)


def test_a_step_is_a_number_from_one_or_a_name():
    check = QUESTION["step"].check
    assert check(1) is None and check("attention") is None and check(0) and check(" ")


def test_a_numbers_format_is_a_readouts():
    assert QUESTION["format"].check is format_check
