"""The toy grammar the tiny transformer learns, and the corpus drawn from it.

Three tasks, each a sentence with one position that a model has to fill:

* ``agreement``: a subject, one or two prepositional phrases whose nouns may
  differ from it in number (attractors), then the verb: ``the keys to the
  cabinet are``. Things take ``is``/``are``.
* ``species``: the same frame with an animal subject, whose verb depends on
  both the animal and its number: ``these sheep near the dog bleat``. Three of
  the animals (sheep, fish, deer) have one form for both numbers, so only the
  determiner (this/these) tells their number.
* ``reference``: two people, a pronoun that fits exactly one of them (by
  gender, or by number for ``they``), and a question whose answer is that
  person: ``the king thanked the girls and they laughed . who laughed ? girls``.

Sentences are lists of word strings; ``encode`` turns them into ids. They are
drawn with Python's ``random.Random``, whose sequence for a given seed does not
depend on the numpy version.
"""
from __future__ import annotations

import random

import numpy as np

PAD, MASK = "<pad>", "<mask>"

# Things: singular, plural. They take is/are.
THINGS = [("key", "keys"), ("cabinet", "cabinets"), ("door", "doors"), ("box", "boxes"),
          ("book", "books"), ("table", "tables")]
# Animals: singular, plural, verb with a singular subject, verb with a plural one.
ANIMALS = [("dog", "dogs", "barks", "bark"), ("cat", "cats", "meows", "meow"),
           ("bird", "birds", "sings", "sing"), ("sheep", "sheep", "bleats", "bleat"),
           ("fish", "fish", "swims", "swim"), ("deer", "deer", "grazes", "graze")]
# People: singular, plural, gender of the singular ("m" or "f").
PEOPLE = [("king", "kings", "m"), ("queen", "queens", "f"), ("boy", "boys", "m"),
          ("girl", "girls", "f"), ("man", "men", "m"), ("woman", "women", "f")]
INVARIANT = {singular for singular, plural, *_ in ANIMALS if singular == plural}
PREPOSITIONS = ["to", "near", "by", "behind", "under"]
TRANSITIVE = ["met", "thanked", "helped", "saw", "called"]
INTRANSITIVE = ["won", "left", "laughed", "smiled", "slept"]
PRONOUNS = ["he", "she", "they"]
DETERMINERS = ["the", "this", "these"]
OTHER = ["is", "are", "and", "who", "?", "."]

TASKS = ("agreement", "species", "reference")
MAX_LEN = 13   # the longest sentence: the reference frame, answer included


def vocabulary() -> list[str]:
    """Every word, in a fixed order (the ids are the positions in this list)."""
    words = [PAD, MASK] + DETERMINERS + OTHER + PREPOSITIONS + PRONOUNS + TRANSITIVE + INTRANSITIVE
    for singular, plural in THINGS:
        words += [singular, plural]
    for singular, plural, verb_sg, verb_pl in ANIMALS:
        words += [singular] + ([plural] if plural != singular else []) + [verb_sg, verb_pl]
    for singular, plural, _ in PEOPLE:
        words += [singular, plural]
    assert len(words) == len(set(words)), "a word is listed twice"
    return words


VOCAB = vocabulary()
IDS = {word: i for i, word in enumerate(VOCAB)}


def encode(words: list[str]) -> list[int]:
    unknown = [w for w in words if w not in IDS]
    if unknown:
        raise ValueError(f"words not in the vocabulary: {', '.join(unknown)}")
    return [IDS[w] for w in words]


# ---------------------------------------------------------------------------
# Sentences. Each generator returns (words, position of the word to predict).
# ---------------------------------------------------------------------------

def _noun_phrase(rng, number: str | None = None) -> tuple[list[str], str]:
    """A determiner and a thing or an animal, as an attractor: (words, number)."""
    number = number or ("sg", "pl")[rng.randrange(2)]
    if rng.random() < 0.5:
        noun = THINGS[rng.randrange(len(THINGS))][number == "pl"]
    else:
        noun = ANIMALS[rng.randrange(len(ANIMALS))][number == "pl"]
    return [_determiner(rng, number, noun), noun], number


def _determiner(rng, number: str, noun: str) -> str:
    # Invariant nouns (sheep, fish, deer) need this/these to show their number.
    if noun not in INVARIANT and rng.random() < 0.6:
        return "the"
    return "this" if number == "sg" else "these"


def _attractors(rng) -> list[str]:
    words = []
    for _ in range(1 + (rng.random() < 0.4)):
        noun_phrase, _ = _noun_phrase(rng)
        words += [PREPOSITIONS[rng.randrange(len(PREPOSITIONS))]] + noun_phrase
    return words


def agreement(rng) -> tuple[list[str], int]:
    number = ("sg", "pl")[rng.randrange(2)]
    noun = THINGS[rng.randrange(len(THINGS))][number == "pl"]
    words = [_determiner(rng, number, noun), noun] + _attractors(rng)
    words.append("is" if number == "sg" else "are")
    return words, len(words) - 1


def species(rng) -> tuple[list[str], int]:
    number = ("sg", "pl")[rng.randrange(2)]
    singular, plural, verb_sg, verb_pl = ANIMALS[rng.randrange(len(ANIMALS))]
    noun = plural if number == "pl" else singular
    words = [_determiner(rng, number, noun), noun] + _attractors(rng)
    words.append(verb_sg if number == "sg" else verb_pl)
    return words, len(words) - 1


def _person(rng) -> tuple[str, str]:
    """A person noun and the pronoun that refers to it."""
    singular, plural, gender = PEOPLE[rng.randrange(len(PEOPLE))]
    if rng.random() < 1 / 3:
        return plural, "they"
    return singular, "he" if gender == "m" else "she"


def reference(rng) -> tuple[list[str], int]:
    # Draw two people whose pronouns differ, so that the pronoun picks one.
    while True:
        (first, pronoun_1), (second, pronoun_2) = _person(rng), _person(rng)
        if pronoun_1 != pronoun_2:
            break
    referent, pronoun = (first, pronoun_1) if rng.random() < 0.5 else (second, pronoun_2)
    verb = INTRANSITIVE[rng.randrange(len(INTRANSITIVE))]
    words = ["the", first, TRANSITIVE[rng.randrange(len(TRANSITIVE))], "the", second, "and",
             pronoun, verb, ".", "who", verb, "?", referent]
    return words, len(words) - 1


GENERATORS = {"agreement": agreement, "species": species, "reference": reference}


def sentences(rng, task: str, count: int) -> list[tuple[list[str], int]]:
    return [GENERATORS[task](rng) for _ in range(count)]


def corpus(seed: int, train_per_task: int, held_out_per_task: int) -> dict:
    """A training set and a held-out set with no sentence in common.

    Returns {"train": [(task, words, answer position)], "held_out": [...]}. Held-out
    sentences are drawn first, then training sentences that repeat one are dropped
    and redrawn, so that every held-out sentence is new to the model.
    """
    rng = random.Random(seed)
    held_out, seen = [], set()
    for task in TASKS:
        count = 0
        while count < held_out_per_task:
            words, position = GENERATORS[task](rng)
            if tuple(words) not in seen:
                seen.add(tuple(words))
                held_out.append((task, words, position))
                count += 1
    train = []
    for task in TASKS:
        count = 0
        while count < train_per_task:
            words, position = GENERATORS[task](rng)
            if tuple(words) not in seen:
                train.append((task, words, position))
                count += 1
    return {"train": train, "held_out": held_out}


def encode_corpus(examples) -> dict[str, np.ndarray]:
    """Padded token ids (n, MAX_LEN), lengths, answer positions and task indices."""
    n = len(examples)
    tokens = np.zeros((n, MAX_LEN), np.int64)
    lengths = np.zeros(n, np.int64)
    positions = np.zeros(n, np.int64)
    tasks = np.zeros(n, np.int64)
    for i, (task, words, position) in enumerate(examples):
        tokens[i, :len(words)] = encode(words)
        lengths[i], positions[i], tasks[i] = len(words), position, TASKS.index(task)
    return {"tokens": tokens, "lengths": lengths, "positions": positions, "tasks": tasks}
