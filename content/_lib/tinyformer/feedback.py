"""What a wrong answer of the Spotlight game is, by the toy grammar: the kind of
word it is beside the target (the target's verb in the other number, another
animal's verb, a person the pronoun does not fit, ...). The game shows one
line of feedback per kind; each kind is a fact about the answer and the
round's sentence, so its line is true of every spotlight that gives it."""
from __future__ import annotations

from . import grammar

# The kinds, in the order a game's text lists them.
KINDS = ("plural", "singular", "animal", "animal_number", "animal_verb", "thing_verb", "person_verb", "not_verb",
         "person_in_sentence", "person_fits", "person", "not_person")

_VERBS = {"is": ("thing", "sg"), "are": ("thing", "pl")}
for _animal in grammar.ANIMALS:
    _VERBS[_animal[2]] = (_animal[0], "sg")
    _VERBS[_animal[3]] = (_animal[0], "pl")
# Every form of a person: its gender ("m", "f"; None for a plural) and number.
_PEOPLE = {}
for _singular, _plural, _gender in grammar.PEOPLE:
    _PEOPLE[_singular] = (_gender, "sg")
    _PEOPLE[_plural] = (None, "pl")


def fits(pronoun: str, person: str) -> bool:
    """Whether ``pronoun`` can refer to ``person`` in the grammar: he and she by gender, they to a plural."""
    gender, number = _PEOPLE[person]
    return number == "pl" if pronoun == "they" else (gender == "m") == (pronoun == "he") and number == "sg"


def kind(words, target: str, answer: str) -> str | None:
    """The kind of wrong answer ``answer`` is in the round whose sentence is ``words``
    and whose answer should be ``target``; None when it is the target."""
    if answer == target:
        return None
    if target in _VERBS:
        return _verb_kind(target, answer)
    if target in _PEOPLE:
        return _person_kind(words, answer)
    raise ValueError(f"{target!r} is neither a verb nor a person of the grammar")


def _verb_kind(target: str, answer: str) -> str:
    if answer not in _VERBS:
        return "person_verb" if answer in grammar.TRANSITIVE + grammar.INTRANSITIVE else "not_verb"
    (subject, number), (other, other_number) = _VERBS[target], _VERBS[answer]
    if subject == other:
        return "plural" if other_number == "pl" else "singular"
    if subject == "thing":
        return "animal_verb"
    if other == "thing":
        return "thing_verb"
    return "animal" if number == other_number else "animal_number"


def _person_kind(words, answer: str) -> str:
    if answer not in _PEOPLE:
        return "not_person"
    pronouns = [w for w in words if w in grammar.PRONOUNS]
    if len(pronouns) != 1:
        raise ValueError(f"a reference round has one pronoun, found {pronouns}")
    if answer in words:
        if fits(pronouns[0], answer):
            raise ValueError(f"the pronoun fits {answer!r} as well as the target: the round has two answers")
        return "person_in_sentence"
    return "person_fits" if fits(pronouns[0], answer) else "person"
