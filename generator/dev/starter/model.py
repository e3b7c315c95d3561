"""The toy model of __TITLE__: plain numpy, one function per step.

The build calls a step's function once for every combination of its controls'
values (as keyword arguments) and expects a dict with:
  "values": numbers and words the readouts and the prose use by name;
  "chart":  the data of the step's chart kind (`lensa docs` lists them).
"""
import numpy as np

WORDS = ["mat", "sofa", "roof", "moon"]      # candidate next words after "The cat sat on the"
SCORES = np.array([2.0, 1.2, 0.4, -0.6])     # the model's raw scores (logits) for them
TEMPERATURES = [0.5, 1.0, 2.0]               # the values of the step's control


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    scaled = scores / temperature
    weights = np.exp(scaled - scaled.max())  # subtract the maximum: no overflow
    return weights / weights.sum()


def temperature_step(temperature: float) -> dict:
    probabilities = softmax(SCORES, temperature)
    top = int(np.argmax(probabilities))
    return {
        "values": {
            "temperature": temperature,
            "words": WORDS,                     # the options of the question in quiz/
            "top_word": WORDS[top],
            "top_probability": float(probabilities[top]),
            "last_word": WORDS[-1],
            "last_probability": float(probabilities[-1]),
        },
        "chart": {"x": WORDS, "y": probabilities.tolist(), "highlight": top},
    }


CURVE = np.round(np.linspace(0.25, 3.0, 12), 2)  # temperatures along the line chart's x axis


def spread_step(temperature: float, top_two: bool) -> dict:
    """Each word's probability as the temperature rises: a line per word, a rule
    at the chosen temperature. With top_two, only the two best words are kept and
    their probabilities renormalised, as top-k sampling (k = 2) would."""
    curves = np.array([softmax(SCORES, t) for t in CURVE])          # one row per temperature
    if top_two:
        curves[:, 2:] = 0.0
        curves /= curves.sum(axis=1, keepdims=True)
    chosen = softmax(SCORES, temperature)
    if top_two:
        chosen[2:] = 0.0
        chosen /= chosen.sum()
    kept = 2 if top_two else len(WORDS)
    return {
        "values": {
            "temperature": temperature,
            "top_two": top_two,
            "kept": kept,
            "top_word": WORDS[0],
            "top_probability": float(chosen[0]),
            "second_probability": float(chosen[1]),
        },
        "chart": {"x": CURVE.tolist(), "y": curves.T.tolist(), "series": WORDS, "rule": temperature,
                  "rule_label": f"T = {temperature}"},
    }
