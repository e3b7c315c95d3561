"""tinyformer: a one-layer transformer trained with numpy on a toy grammar.

    import tinyformer
    model = tinyformer.load()                 # checks weights.npz against card.json
    probs, attention = model.fill_in("the keys to the cabinet <mask>".split())
    probs, attention = model.next_token("the keys to the cabinet".split())
    outcome = tinyformer.play_round(model, tinyformer.ROUNDS[0])   # the Spotlight game

The build never trains: ``make retrain`` does (``python -m tinyformer.train``).
"""
from .grammar import IDS, MASK, PAD, VOCAB, encode
from .model import Override, spotlight
from .rounds import ROUNDS
from .spotlight import Outcome, Round, describe, play, play_round, smallest_spotlight
from .weights import CARD_FILE, WEIGHTS_FILE, TrainedModel, WeightsError, load

__all__ = ["IDS", "MASK", "PAD", "VOCAB", "encode", "Override", "spotlight", "ROUNDS", "Outcome",
           "Round", "describe", "play", "play_round", "smallest_spotlight", "CARD_FILE",
           "WEIGHTS_FILE", "TrainedModel", "WeightsError", "load"]
