"""Spotlight's line of feedback after a wrong try (issue 42): every spotlight of
every round is enumerated, and the line each wrong answer gets is checked
against the toy grammar's own tables (content/_lib/tinyformer/grammar.py), not
against the code that chose it: "the right verb, the wrong number" is shown
only where the answer is the target's verb in the other number, and so on for
every kind. A right answer gets no line, a wrong one exactly one, and the page
announces it."""
from __future__ import annotations

import sys

import pytest

from ..conftest import CONTENT

LIB = CONTENT / "_lib"
if str(LIB) not in sys.path:
    sys.path.insert(0, str(LIB))   # as the build does while a model runs

import tinyformer  # noqa: E402
from tinyformer import feedback, grammar  # noqa: E402

SLUG = "spotlight"

# The grammar's verbs: (whose, number) for each form.
VERBS = {"is": ("thing", "sg"), "are": ("thing", "pl")}
for _name, _, _singular, _plural in grammar.ANIMALS:
    VERBS[_singular], VERBS[_plural] = (_name, "sg"), (_name, "pl")
ANIMAL_NAMES = {a[0] for a in grammar.ANIMALS} | {a[1] for a in grammar.ANIMALS}
THING_NAMES = {w for pair in grammar.THINGS for w in pair}
PERSON_VERBS = set(grammar.TRANSITIVE + grammar.INTRANSITIVE)
PEOPLE = {}
for _singular, _plural, _gender in grammar.PEOPLE:
    PEOPLE[_singular], PEOPLE[_plural] = (_gender, "sg"), (None, "pl")


def pronoun_fits(pronoun: str, person: str) -> bool:
    gender, number = PEOPLE[person]
    if pronoun == "they":
        return number == "pl"
    return number == "sg" and gender == {"he": "m", "she": "f"}[pronoun]


def holds(kind: str, round_, answer: str) -> bool:
    """Whether what the line of `kind` says is true of `answer` in `round_`, by the grammar's tables."""
    words, target = list(round_.words), round_.target
    subject = words[round_.roles["subject"]] if "subject" in round_.roles else None
    pronouns = [w for w in words if w in grammar.PRONOUNS]
    if kind in ("plural", "singular"):       # "The right verb, the wrong number: this form is for ..."
        return answer in VERBS and VERBS[answer][0] == VERBS[target][0] \
            and VERBS[answer][1] == {"plural": "pl", "singular": "sg"}[kind] != VERBS[target][1]
    if kind in ("animal", "animal_number"):  # "The right number, the wrong animal." / "The wrong animal and ..."
        same_number = kind == "animal"
        return answer in VERBS and "thing" not in (VERBS[answer][0], VERBS[target][0]) \
            and VERBS[answer][0] != VERBS[target][0] and (VERBS[answer][1] == VERBS[target][1]) == same_number
    if kind == "animal_verb":                # "A verb for an animal, and the subject is not an animal."
        return answer in VERBS and VERBS[answer][0] != "thing" and subject not in ANIMAL_NAMES
    if kind == "thing_verb":                 # "A verb for things, and the subject is an animal."
        return answer in ("is", "are") and subject in ANIMAL_NAMES
    if kind == "person_verb":                # "A verb for people, and the subject is not a person."
        return answer in PERSON_VERBS and subject not in PEOPLE
    if kind == "not_verb":                   # "Not a verb, and the blank needs one."
        return answer not in VERBS and answer not in PERSON_VERBS and target in VERBS
    if kind == "person_in_sentence":         # "A person in the sentence, but not one the pronoun fits."
        return answer in PEOPLE and answer in words and not pronoun_fits(pronouns[0], answer)
    if kind == "person_fits":                # "A person the pronoun fits, but not one in the sentence."
        return answer in PEOPLE and answer not in words and pronoun_fits(pronouns[0], answer)
    if kind == "person":                     # "A person neither in the sentence nor one the pronoun fits."
        return answer in PEOPLE and answer not in words and not pronoun_fits(pronouns[0], answer)
    if kind == "not_person":                 # "Not a person, and the question asks who."
        return answer not in PEOPLE and "who" in words and target in PEOPLE
    raise AssertionError(f"no check for the kind {kind!r}")


@pytest.fixture(scope="module")
def game(site_states):
    site, computed, prose = site_states
    source = next(page for page in site.pages if page.slug == SLUG)
    rounds = computed[SLUG].rounds
    return source, rounds, prose[SLUG]


def test_the_game_has_a_line_for_every_kind_and_no_other(game):
    source, _, _ = game
    assert set(source.feedback) == set(feedback.KINDS)


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_every_wrong_try_gets_one_line_true_of_its_answer(game, number):
    """Every state of the round: a right answer no line, a wrong one the line of its kind, whose words hold."""
    source, rounds, text = game
    states, round_ = rounds[number - 1], tinyformer.ROUNDS[number - 1]
    shown = set()
    for state in states.states:
        answer, kind = state.values["answer"], state.values["feedback"]
        says = text.rounds[number - 1].says[state.key]
        if answer == states.target:
            assert kind is None and not any(line in says for line in source.feedback.values())
            continue
        assert kind in source.feedback, (state.key, answer)
        assert holds(kind, round_, answer), f"round {number}, {state.key}: {answer!r} is not {kind}"
        assert [line for line in source.feedback.values() if line in says] == [source.feedback[kind]]
        shown.add(kind)
    # Each round's wrong answers are of more than one kind: the line tells them apart.
    assert len(shown) >= 2, shown


def test_the_brief_s_example_right_animal_wrong_number(game):
    """Round 3: sheep alone in Head 4 gives bleat, the sheep's verb for many: the wrong number."""
    _, rounds, text = game
    states = rounds[2]
    sheep = states.words.index("sheep")
    state = next(s for s in states.states if s.choice == {"Head 2": [], "Head 4": [sheep]})
    assert state.values["answer"] == "bleat" and state.values["feedback"] == "plural"
    assert "The right verb, the wrong number" in text.rounds[2].says[state.key]


def test_the_kinds_are_the_grammar_s():
    """feedback.kind agrees with these checks on every pair of a target and an answer the model can give."""
    for round_ in tinyformer.ROUNDS:
        for answer in grammar.VOCAB[2:]:
            kind = feedback.kind(round_.words, round_.target, answer)
            if answer == round_.target:
                assert kind is None
            else:
                assert holds(kind, round_, answer), (round_.title, answer, kind)


def test_a_kind_without_its_line_is_one_error_naming_the_file(tmp_path):
    import shutil
    import subprocess

    from ..conftest import ROOT

    content = tmp_path / "content"
    shutil.copytree(CONTENT, content, ignore=shutil.ignore_patterns("__pycache__"))
    main = content / SLUG / "game.md"
    text = main.read_text()
    line = next(row for row in text.splitlines() if row.startswith("plural = "))
    main.write_text(text.replace(line + "\n", ""))
    run = subprocess.run([sys.executable, "-m", "generator", "check", "--content", str(content)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    errors = [row for row in run.stderr.splitlines() if "feedback has no line for" in row]
    assert len(errors) == 1 and str(main) in errors[0] and "for plural," in errors[0], run.stderr
