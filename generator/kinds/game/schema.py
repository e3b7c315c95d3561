"""The schema of a game's main file (game.md): its front matter, each round,
and the words the game page adds around them. Declared once here; the field
reference of docs/authoring.md is generated from these tables."""
from __future__ import annotations

import datetime as _dt

from ...load.schema import FURTHER_READING, KIND, REFERENCE
from ...load.validation import Option, identifier, nonempty, placeholders


def _names(value: dict) -> str | None:
    bad = [key for key, name in value.items() if not isinstance(name, str) or not name.strip()]
    return f"each name must be a non-empty string, found {bad[0]!r} = {value[bad[0]]!r}" if bad else None


def _positive(limit: int):
    def check(value: int) -> str | None:
        return None if 1 <= value <= limit else f"expected 1 to {limit:,}, found {value}"
    return check


ROUND = {
    "title": Option((str,), "The round's heading, also its name in the list of rounds.", required=True,
                    check=nonempty),
    "compute": Option((str,), "Name of the function in model.py that returns the round: its sentence, "
                      "target, heads and the answer to every spotlight (see 'A game's model.py').",
                      required=True, check=identifier),
    "goal": Option((str,), "What the reader is asked to do, shown above the words (Markdown).", required=True,
                   check=nonempty),
    "lesson": Option((str,), "What the round teaches, shown once it is solved (Markdown), about 100 words at "
                     "most. Link the explainer step that covers it, relative to the game's page, e.g. "
                     "'../multi-head-attention/index.html#step-3'.", required=True, check=nonempty),
    "more": Option((str,), "The rest of the lesson, behind a closed 'More on this round' under it (Markdown).",
                   default=""),
}

GAME_LABELS = {
    "round": Option((str,), "Readout: which round this is.", default="Round"),
    "round_of": Option((str,), "The Round readout's value; {n} and {total} are replaced.", default="{n} of {total}",
                       check=placeholders("n", "total")),
    "target": Option((str,), "Readout: the answer to reach.", default="Target"),
    "answer": Option((str,), "Readout: the model's answer for the current spotlight.", default="Answer"),
    "confidence": Option((str,), "Readout: the probability the model gives its answer.", default="Confidence"),
    "words": Option((str,), "Readout: how many words are in the spotlight.", default="Words in the spotlight"),
    "score": Option((str,), "Readout: the stars of every round added up.", default="Score"),
    "score_of": Option((str,), "The Score readout's value; {score} and {total} are replaced.",
                       default="{score} of {total} stars", check=placeholders("score", "total")),
    "stars_of": Option((str,), "A round's stars, said in words; {stars} and {total} are replaced.",
                       default="{stars} of {total} stars", check=placeholders("stars", "total")),
    "rounds": Option((str,), "Heading of the list of rounds.", default="Rounds"),
    "spotlight": Option((str,), "Names the group of word buttons of a round with one head.",
                        default="Spotlight"),
    "head_spotlight": Option((str,), "Names a head's group of word buttons; {head} is the head's name.",
                             default="{head} spotlight", check=placeholders("head")),
    "word_number": Option((str,), "Tells apart two buttons with the same word, for screen readers; {n} is the "
                          "word's place in the sentence.", default="word {n}", check=placeholders("n")),
    "blank": Option((str,), "How the blank is shown in a sentence.", default="___"),
    "blank_word": Option((str,), "The blank, named in a table.", default="the blank"),
    "sentence": Option((str,), "Names the round's sentence for screen readers.", default="Sentence"),
    "says": Option((str,), "Announced after every change; {answer} and {confidence} are replaced.",
                   default="The model answers {answer} ({confidence}).", check=placeholders("answer", "confidence")),
    "solved": Option((str,), "Announced and shown when the answer is the target; {stars} is the stars in words.",
                     default="Solved: {stars}.", check=placeholders("stars")),
    "best": Option((str,), "Shown once a round is solved; {stars} is its best stars in words.",
                   default="Best in this round: {stars}.", check=placeholders("stars")),
    "lesson": Option((str,), "Heading of the lesson shown once a round is solved.", default="What this round shows"),
    "more": Option((str,), "Opens the rest of a round's lesson (its 'more').", default="More on this round"),
    "looks": Option((str,), "Announced before the answer, for each head; {head} is its name and {words} the words "
                    "in its spotlight.", default="{head} looks at {words}.", check=placeholders("head", "words")),
    "looks_blank": Option((str,), "Announced for a head with an empty spotlight; {head} is its name.",
                          default="{head} looks at the blank only.", check=placeholders("head")),
    "and": Option((str,), "Joins the last two words of a list.", default="and"),
    "top": Option((str,), "Names the bars of the model's likeliest answers.", default="The model's top answers"),
    "attention": Option((str,), "Names the drawing of where each head's attention goes.",
                        default="Where the blank's attention goes"),
    "model": Option((str,), "Heading of the note on the model (the '::: model' part).", default="About the model"),
    "reveal": Option((str,), "The button that shows the model's own attention.", default="Reveal"),
    "own_attention": Option((str,), "Caption of the table of the model's own attention at the blank.",
                            default="The trained model's own attention at the blank"),
    "own_answer": Option((str,), "Under that table; {answer} and {confidence} are replaced.",
                         default="With its own attention the model answers {answer} ({confidence}).",
                         check=placeholders("answer", "confidence")),
    "next_round": Option((str,), "The button that moves on to the next round.", default="Next round"),
    "table": Option((str,), "Caption of the data table of the current spotlight and answer.",
                    default="The blank's attention in this spotlight"),
    "word": Option((str,), "Data table heading of the words.", default="Word"),
    "embed": Option((str,), "The button that shows the game's iframe code.", default="Embed the game"),
    "open_full": Option((str,), "Link from the game's embed to its full page.", default="Open the full game"),
    "no_script": Option((str,), "Shown where the word buttons would work when JavaScript is off.",
                        default="Turn on JavaScript to play; the rounds below show their sentences and lessons."),
}
GAME_LABELS = {key: o if o.check else Option(o.types, o.doc, default=o.default, check=nonempty)
               for key, o in GAME_LABELS.items()}

GAME = {
    "kind": KIND,
    "title": Option((str,), "The game's title.", required=True, check=nonempty),
    "subtitle": Option((str,), "One line under the title.", default=""),
    "description": Option((str,), "One sentence for the index, link previews and the 'Play with this concept' box "
                          "of the explainers (site.toml's play).", default=""),
    "updated": Option((_dt.date,), "Date of the last content change, shown as 'Last updated'.", required=True),
    "related": Option((list,), "Slugs of related pages.", default=[]),
    "references": Option((list,), "Works the game cites, each written out here (authors, year, title, url). "
                         "Prefer the site's bibliography (content/references.bib): its works are cited in the text "
                         "as [@key], shown on hover, and listed with their BibTeX.", default=[], item=REFERENCE),
    "further_reading": FURTHER_READING,
    "facts": Option((str,), "Name of a function in model.py returning the values (a dict) that the '::: model' "
                    "part may print, such as the model's accuracy.", default=None, check=identifier),
    "stars": Option((int,), "Stars for the smallest spotlight that reaches the target holding every key word "
                    "(a round's key_words in model.py); each word more costs one star, and missing a key word one "
                    "more, down to one.", default=3, check=_positive(5)),
    "max_states": Option((int,), "Largest number of spotlights one round may have (the game's own limit; "
                         "site.toml's max_states bounds explainer steps).", default=4096,
                         check=_positive(65536)),
    "labels": Option((dict,), "Words the game page adds around the rounds.", default={}, item=GAME_LABELS),
    "feedback": Option((dict,), "One line shown and announced after a wrong answer, for each kind of wrong answer "
                       "the rounds' model.py names (a state's 'feedback'): e.g. plural = \"The right verb, the wrong "
                       "number.\"", default={}, check=_names),
    "answer_names": Option((dict,), "How the page names an answer of the model that would not read as a word in a "
                           "sentence, in the Answer readout, the announcements and Reveal's answer: a table of "
                           "the model's token and its name, e.g. \".\" = \"a full stop\". Other answers are "
                           "shown as the model gives them.", default={}, check=_names),
    "rounds": Option((list,), "The rounds, in playing order.", required=True, item=ROUND),
}
