"""The positional-encoding toy model's numerics, against cases worked by hand and
identities of the sinusoidal encoding. Also the fixtures the other
test_positional_encoding_* modules share: the model itself, and the page's states
and prose computed in Python, independent of any page or runtime."""
import dataclasses
import importlib.util
import itertools
import math

import numpy as np
import pytest

from ..conftest import CONTENT, page_states

SLUG = "positional-encoding"


@pytest.fixture(scope="module")
def model():
    path = CONTENT / SLUG / "model.py"
    spec = importlib.util.spec_from_file_location("pe_model_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def pe_states(site_states):
    """(site, step states, step prose) of this explainer alone: the site holds this page only."""
    site, steps, prose = page_states(site_states, SLUG)
    return dataclasses.replace(site, pages=[p for p in site.pages if p.slug == SLUG]), steps, prose


def test_frequencies_and_wavelengths(model):
    assert model.D_MODEL == 16 and model.N_PAIRS == 8 and model.POSITIONS == list(range(32))
    # omega_i = 10000^(−2i/16) = 10^(−i/2): 1, 0.3162..., 0.1, ...
    assert np.allclose(model.OMEGA, [10 ** (-i / 2) for i in range(8)])
    assert round(model.wavelength(0), 2) == 6.28
    assert round(model.wavelength(1), 2) == 19.87
    assert round(model.wavelength(2), 2) == 62.83
    ratios = [model.wavelength(i + 1) / model.wavelength(i) for i in range(7)]
    assert np.allclose(ratios, math.sqrt(10))  # a geometric progression


def test_encoding_matches_the_paper_formula(model):
    pe = model.PE
    assert pe.shape == (32, 16)
    for pos, i in itertools.product(range(32), range(8)):
        angle = pos / 10000 ** (2 * i / 16)
        assert pe[pos, 2 * i] == pytest.approx(math.sin(angle))
        assert pe[pos, 2 * i + 1] == pytest.approx(math.cos(angle))
    assert np.array_equal(pe[0], np.tile([0.0, 1.0], 8))  # position 0: every sine 0, every cosine 1


def test_every_encoding_has_norm_sqrt_d_over_2(model):
    assert np.allclose(np.linalg.norm(model.PE, axis=1), math.sqrt(8))
    assert round(math.sqrt(8), 2) == 2.83


def test_shift_is_a_linear_map_independent_of_position(model):
    for k in (1, 2, 3, 4, 8, 13):
        m = model.shift_matrix(k)
        far = model.encoding(range(100, 140))
        assert np.allclose(far[:-k] @ m.T, far[k:])  # also far beyond the chart's 32 positions
        # each block is a rotation: orthogonal, determinant 1
        for i in range(8):
            block = m[2 * i:2 * i + 2, 2 * i:2 * i + 2]
            assert np.allclose(block @ block.T, np.eye(2)) and np.linalg.det(block) == pytest.approx(1)


def test_dot_product_is_the_sum_of_cosines(model):
    assert round(model.offset_dot(1), 2) == 7.49
    for k in range(32):
        dots = [model.PE[p] @ model.PE[p + k] for p in range(32 - k)]
        assert np.allclose(dots, sum(math.cos(k * w) for w in model.OMEGA))


def test_attention_without_positions_is_permutation_equivariant(model):
    words = ["dog", "bites", "man"]
    out = model.attention_outputs(words, positional=False)
    for order in itertools.permutations(range(3)):
        shuffled = model.attention_outputs([words[i] for i in order], positional=False)
        assert np.allclose(shuffled, out[list(order)])
    with_pe = model.attention_outputs(["man", "bites", "dog"], positional=True)
    plain = model.attention_outputs(words, positional=True)
    assert not np.allclose(with_pe, plain[[2, 1, 0]])


def test_rotary_score_depends_only_on_the_offset(model):
    q, k = model.QUERY, model.KEY
    for m, n in [(0, 3), (5, 8), (20, 23), (100, 103)]:
        assert model.rotate(q, m) @ model.rotate(k, n) == pytest.approx(q @ model.rotate(k, n - m))
    assert np.allclose([np.linalg.norm(model.rotate(q, p)) for p in range(32)], np.linalg.norm(q))
    matrix = model.similarity("Rotary")
    assert model.diagonal_spread(matrix) < 1e-12
    assert not np.allclose(matrix, matrix.T)  # direction survives: n − m, not |n − m|


def test_similarity_matrices(model):
    sinusoidal = model.similarity("Sinusoidal")
    assert np.allclose(sinusoidal, model.PE @ model.PE.T / 8)
    assert np.allclose(np.diag(sinusoidal), 1)
    learned = model.similarity("Learned")
    assert np.allclose(np.diag(learned), 1) and model.diagonal_spread(learned) > 0.5
    for scheme in model.SCHEMES:
        assert np.abs(model.similarity(scheme)).max() <= 1 + 1e-12


def test_model_is_deterministic(model):
    again = importlib.util.module_from_spec(importlib.util.spec_from_file_location("pe_again", CONTENT / SLUG / "model.py"))
    again.__loader__.exec_module(again)
    assert np.array_equal(again.LEARNED, model.LEARNED) and np.array_equal(again.W_Q, model.W_Q)
    assert np.array_equal(again.attention_outputs(["dog", "bites", "man"], True),
                          model.attention_outputs(["dog", "bites", "man"], True))
