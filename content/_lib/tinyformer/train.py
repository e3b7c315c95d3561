"""Train the tiny transformer from a fixed seed and write its weights and card.

    PYTHONPATH=content/_lib python -m tinyformer.train      (what `make retrain` runs)

Each step draws a batch from the training corpus. Three quarters of the
sentences are fill-in-the-blank examples (one word replaced by ``<mask>``, every
position sees the whole sentence); the rest are next-token examples (causal
attention, every position predicts the word after it). One set of weights thus
serves pages that want either. In some fill-in examples some heads attend to the
blank only, as the game's kept heads do, and in a few every head does, as in the
game's empty spotlight (``_quiet_heads``). Adam, a fixed number of steps, no
randomness beyond the seeded generator: the same numpy on the same machine gives
the same weights.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from . import grammar, weights
from .model import Override, backward, cross_entropy, forward, init_params

# Training runs in float32: twice as fast as float64, and what is stored anyway.
DTYPE = np.float32

CONFIG = {
    "seed": 20261201,
    "d_model": 32,
    "heads": 4,
    "steps": 1200,
    "batch": 128,
    "learning_rate": 0.01,
    "final_learning_rate": 0.0005,
    "masked_share": 0.75,      # of each batch; the rest are next-token examples
    "task_blank_share": 0.8,   # of masked examples, the task's word is the one masked
    "quiet_share": 0.5,        # of masked examples, some heads see only the blank
    "blind_share": 0.1,        # of masked examples, every head sees only the blank, hidden anywhere
    "train_per_task": 10000,
    "held_out_per_task": 1000,
}


def make_batch(rng, data: dict, config: dict):
    """Inputs, causal flags, targets and loss weights for one mixed batch."""
    size = config["batch"]
    index = rng.integers(len(data["tokens"]), size=size)
    tokens = data["tokens"][index].copy()
    lengths, positions = data["lengths"][index], data["positions"][index]
    masked = rng.random(size) < config["masked_share"]
    targets = np.zeros_like(tokens)
    weights_ = np.zeros(tokens.shape)
    # Fill-in-the-blank: the task's word, or now and then any other word.
    other = (rng.random(size) * lengths).astype(np.int64)
    blank = np.where(rng.random(size) < config["task_blank_share"], positions, other)
    # Blind examples: the game's empty spotlight, where the blank sees only itself.
    blind = masked & (rng.random(size) < config["blind_share"])
    blank = np.where(blind, other, blank)
    rows = np.flatnonzero(masked)
    targets[rows, blank[rows]] = tokens[rows, blank[rows]]
    weights_[rows, blank[rows]] = 1.0
    tokens[rows, blank[rows]] = grammar.IDS[grammar.MASK]
    override = _quiet_heads(rng, blank, masked, blind, config)
    # Next token: position t predicts the word at t + 1.
    causal_rows = np.flatnonzero(~masked)
    length = tokens.shape[1]
    targets[causal_rows, :-1] = tokens[causal_rows, 1:]
    before_end = np.arange(length)[None, :] < (lengths[causal_rows] - 1)[:, None]
    weights_[causal_rows] = before_end / (lengths[causal_rows] - 1)[:, None]
    # Each half counts by its share, whatever the number of positions it has.
    share = np.where(masked, config["masked_share"], 1 - config["masked_share"])
    per_kind = np.where(masked, masked.sum(), (~masked).sum())
    weights_ *= (share / per_kind)[:, None]
    return tokens, ~masked, targets, (weights_ / weights_.sum()).astype(DTYPE), override


def _quiet_heads(rng, blank, masked, blind, config) -> Override:
    """In some fill-in examples, some heads see only the blank itself; in the
    blind ones, every head does.

    This is how the game runs the model: heads the reader does not control attend
    to the blank only. Trained this way, any one head learns to carry what the
    answer needs, and the answer does not depend on the other heads being free.
    Blind examples are the game's empty spotlight: with nothing to read, the
    model learns to guess from the blank's place alone, and since their blank
    is any word of the sentence, that guess is the word most often found there
    (not whichever answer the trained heads lean to when left with nothing).
    """
    size, heads, length = len(blank), config["heads"], grammar.MAX_LEN
    quiet = rng.random((size, heads)) < 0.5
    # Keep at least one head free, and quieten only in a share of the fill-in examples.
    quiet[np.arange(size), rng.integers(heads, size=size)] = False
    quiet &= (masked & (rng.random(size) < config["quiet_share"]))[:, None]
    quiet[blind] = True
    rows = np.zeros((size, heads, length), bool)
    weights_ = np.zeros((size, heads, length, length), DTYPE)
    b, h = np.nonzero(quiet)
    rows[b, h, blank[b]] = True
    weights_[b, h, blank[b], blank[b]] = 1.0
    return Override(rows, weights_)


def train(config: dict = CONFIG, log=print) -> tuple[dict, dict]:
    """Train from config["seed"]: (float64 parameters, corpus)."""
    rng = np.random.default_rng(config["seed"])
    corpus = grammar.corpus(config["seed"], config["train_per_task"], config["held_out_per_task"])
    data = grammar.encode_corpus(corpus["train"])
    params = init_params(rng, len(grammar.VOCAB), grammar.MAX_LEN, config["d_model"], config["heads"], DTYPE)
    first = {n: np.zeros_like(p) for n, p in params.items()}
    second = {n: np.zeros_like(p) for n, p in params.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    decay = (config["final_learning_rate"] / config["learning_rate"]) ** (1 / max(config["steps"] - 1, 1))
    for step in range(1, config["steps"] + 1):
        tokens, causal, targets, loss_weights, override = make_batch(rng, data, config)
        logits, cache = forward(params, tokens, causal, override)
        loss, d_logits = cross_entropy(logits, targets, loss_weights)
        grads = backward(params, cache, d_logits)
        rate = config["learning_rate"] * decay ** (step - 1)
        for name, grad in grads.items():
            first[name] = beta1 * first[name] + (1 - beta1) * grad
            second[name] = beta2 * second[name] + (1 - beta2) * grad * grad
            corrected = first[name] / (1 - beta1 ** step)
            params[name] -= rate * corrected / (np.sqrt(second[name] / (1 - beta2 ** step)) + eps)
        if log and (step % 500 == 0 or step == 1):
            log(f"step {step:5d}  loss {loss:.4f}")
    return params, corpus


# One BLAS thread: the matrices are small, two shared cores make threads spin
# rather than help, and one thread fixes the order of every sum.
SINGLE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tinyformer.train", description=__doc__.split("\n")[0])
    parser.add_argument("--weights", type=Path, default=weights.WEIGHTS_FILE, help="where to write the .npz")
    parser.add_argument("--card", type=Path, default=weights.CARD_FILE, help="where to write the card")
    args = parser.parse_args(argv)
    if any(os.environ.get(k) != v for k, v in SINGLE_THREAD.items()):
        # numpy reads these when it is first imported, so start again with them set.
        os.environ.update(SINGLE_THREAD)
        os.execv(sys.executable, [sys.executable, "-m", "tinyformer.train", *sys.argv[1:]])
    start = time.perf_counter()
    params, corpus = train()
    seconds = time.perf_counter() - start
    stored = {name: value.astype(weights.DTYPE) for name, value in params.items()}
    accuracy = weights.held_out_accuracy(stored, corpus["held_out"])
    card = weights.make_card(CONFIG, stored, accuracy, seconds, corpus)
    weights.save(stored, card, args.weights, args.card)
    print(f"trained in {seconds:.1f} s; held-out accuracy {accuracy}")
    print(f"wrote {args.weights} and {args.card}")


if __name__ == "__main__":
    main()
