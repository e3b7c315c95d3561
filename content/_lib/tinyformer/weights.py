"""The committed weights and their card: saving, loading, checking, and the
trained model that pages use.

``load()`` refuses bad weights with a one-line ``WeightsError`` naming the
file: missing, unreadable, with a missing or extra array, of the wrong shape,
or not matching the card (the card keeps a SHA-256 of the arrays).
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import grammar
from .model import NAMES, Override, forward, shapes, softmax

HERE = Path(__file__).resolve().parent
WEIGHTS_FILE = HERE / "weights.npz"
CARD_FILE = HERE / "card.json"
DTYPE = np.float32

# The answers a task allows, for next-token accuracy: the right one must beat the others.
ANSWERS = {
    "agreement": ["is", "are"],
    "species": [verb for animal in grammar.ANIMALS for verb in animal[2:]],
    "reference": [noun for person in grammar.PEOPLE for noun in person[:2]],
}

# How close a retrain must come to the committed weights (see README.md).
TOLERANCE = {"weights_abs": 1e-3, "accuracy_abs": 0.005}


class WeightsError(Exception):
    """The weights or the card cannot be used; the message is one line naming the file."""


def digest(params: dict[str, np.ndarray]) -> str:
    """SHA-256 of every array's name, dtype, shape and bytes, in a fixed order."""
    sha = hashlib.sha256()
    for name in NAMES:
        array = np.ascontiguousarray(params[name])
        sha.update(f"{name}:{array.dtype.str}:{array.shape}:".encode())
        sha.update(array.tobytes())
    return sha.hexdigest()


@dataclass
class TrainedModel:
    """Trained parameters (float64 for computing), the card and the vocabulary."""
    params: dict[str, np.ndarray]
    card: dict
    vocab: list[str]

    @property
    def heads(self) -> int:
        return self.card["heads"]

    def encode(self, words: list[str]) -> np.ndarray:
        return np.array([grammar.encode(words)])

    def forward(self, tokens: np.ndarray, causal=False, override: Override | None = None):
        """Logits (batch, T, vocab) and the cache, whose ``attention`` is what was used."""
        return forward(self.params, tokens, causal, override, grammar.IDS[grammar.PAD])

    def fill_in(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """For a sentence with ``<mask>`` words: (probabilities over the vocabulary at
        each mask (masks, vocab), attention (heads, T, T)); every position sees all."""
        logits, cache = self.forward(self.encode(words), causal=False)
        masks = [i for i, w in enumerate(words) if w == grammar.MASK]
        return softmax(logits[0, masks]), cache["attention"][0]

    def next_token(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(probabilities of the next word after each position (T, vocab), causal
        attention (heads, T, T))."""
        logits, cache = self.forward(self.encode(words), causal=True)
        return softmax(logits[0]), cache["attention"][0]


def held_out_accuracy(params: dict, examples: list) -> dict:
    """Accuracy per task and overall on held-out sentences, in both modes.

    ``fill_in``: the answer word is replaced by ``<mask>``; correct when it is the
    most probable word of the whole vocabulary. ``next_token``: causal attention,
    the word before the answer predicts it; correct when the answer is more probable
    than every other answer of its task (``ANSWERS``), since the grammar lets other
    words (a preposition, say) come next too.
    """
    params = {n: np.asarray(p, np.float64) for n, p in params.items()}
    data = grammar.encode_corpus(examples)
    rows = np.arange(len(examples))
    answers = data["tokens"][rows, data["positions"]]
    masked = data["tokens"].copy()
    masked[rows, data["positions"]] = grammar.IDS[grammar.MASK]
    logits, _ = forward(params, masked, False)
    fill_right = logits[rows, data["positions"]].argmax(axis=-1) == answers
    logits, _ = forward(params, data["tokens"], True)
    before = logits[rows, data["positions"] - 1]
    next_right = np.zeros(len(examples), bool)
    for t, task in enumerate(grammar.TASKS):
        allowed = np.array(grammar.encode(ANSWERS[task]))
        mine = data["tasks"] == t
        best = allowed[before[mine][:, allowed].argmax(axis=-1)]
        next_right[mine] = best == answers[mine]
    result = {}
    for mode, right in (("fill_in", fill_right), ("next_token", next_right)):
        result[mode] = {task: round(float(right[data["tasks"] == t].mean()), 4)
                        for t, task in enumerate(grammar.TASKS)}
        result[mode]["overall"] = round(float(right.mean()), 4)
    return result


def make_card(config: dict, params: dict, accuracy: dict, seconds: float, corpus: dict) -> dict:
    def sizes(examples):
        return {task: sum(1 for t, *_ in examples if t == task) for task in grammar.TASKS}

    return {
        "model": "tinyformer: one attention layer, no MLP, no layer norm",
        "seed": config["seed"],
        "steps": config["steps"],
        "batch": config["batch"],
        "training_seconds": round(seconds, 2),
        "accuracy_held_out": accuracy,
        "corpus": {"train": sizes(corpus["train"]), "held_out": sizes(corpus["held_out"]),
                   "train_distinct": len({tuple(w) for _, w, _ in corpus["train"]}),
                   "overlap_train_held_out": len({tuple(w) for _, w, _ in corpus["train"]}
                                                 & {tuple(w) for _, w, _ in corpus["held_out"]})},
        "vocab_size": len(grammar.VOCAB),
        "max_len": grammar.MAX_LEN,
        "d_model": config["d_model"],
        "heads": config["heads"],
        "d_head": config["d_model"] // config["heads"],
        "parameters": int(sum(p.size for p in params.values())),
        "dtype": np.dtype(DTYPE).name,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "training": {k: v for k, v in config.items() if k not in ("seed", "steps", "batch")},
        "retrain_tolerance": TOLERANCE,
        "weights_sha256": digest(params),
    }


def _write_atomically(path: Path, write) -> None:
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    try:
        write(temp)
        os.chmod(temp, 0o644)   # mkstemp makes files private; these are committed
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.remove(temp)


def save(params: dict, card: dict, weights_file: Path = WEIGHTS_FILE, card_file: Path = CARD_FILE) -> None:
    _write_atomically(Path(weights_file), lambda p: np.savez_compressed(p, **{n: params[n] for n in NAMES}))
    text = json.dumps(card, indent=2) + "\n"
    _write_atomically(Path(card_file), lambda p: Path(p).write_text(text, encoding="utf-8"))


def load(weights_file: Path = WEIGHTS_FILE, card_file: Path = CARD_FILE) -> TrainedModel:
    """The trained model, after checking the weights against the card."""
    weights_file, card_file = Path(weights_file), Path(card_file)
    if not card_file.is_file():
        raise WeightsError(f"{card_file}: model card not found (run `make retrain`)")
    try:
        card = json.loads(card_file.read_text(encoding="utf-8"))
        d_model, heads, expected_hash = card["d_model"], card["heads"], card["weights_sha256"]
    except (ValueError, KeyError, TypeError) as error:
        raise WeightsError(f"{card_file}: not a readable model card ({error!r})") from None
    if not weights_file.is_file():
        raise WeightsError(f"{weights_file}: weights file not found (run `make retrain`)")
    try:
        with np.load(weights_file, allow_pickle=False) as archive:
            params = {name: archive[name] for name in archive.files}
    except Exception as error:  # a truncated or foreign file: zipfile, OSError, ValueError...
        raise WeightsError(f"{weights_file}: not a readable .npz file ({type(error).__name__})") from None
    missing = [n for n in NAMES if n not in params]
    extra = sorted(set(params) - set(NAMES))
    if missing or extra:
        raise WeightsError(f"{weights_file}: arrays missing: {', '.join(missing) or 'none'}; "
                           f"unexpected: {', '.join(extra) or 'none'}")
    expected = shapes(len(grammar.VOCAB), grammar.MAX_LEN, d_model, heads)
    for name in NAMES:
        if params[name].shape != expected[name]:
            raise WeightsError(f"{weights_file}: {name} has shape {params[name].shape}, expected "
                               f"{expected[name]} (vocabulary {len(grammar.VOCAB)}, max_len "
                               f"{grammar.MAX_LEN}, d_model {d_model}, heads {heads} in {card_file.name})")
    found = digest(params)
    if found != expected_hash:
        raise WeightsError(f"{weights_file}: weights do not match {card_file.name} (sha256 {found[:12]}…, "
                           f"card says {expected_hash[:12]}…; run `make retrain`)")
    return TrainedModel({n: params[n].astype(np.float64) for n in NAMES}, card, list(grammar.VOCAB))
