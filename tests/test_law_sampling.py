"""Tests of numerics.signal_propagation.law_sampling (the samplers of the initialisation laws).

Independent references: scipy.stats' distributions (their moments), the laws' exact moments (theory.init_laws), and
z-tests with the standard error from the same sample (numerics.stats.z_for_false_alarm). A sample moment of order j
has the standard error sqrt((m_{2j} - m_j^2) / N), estimated from the same draws.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats

from numerics.signal_propagation.law_sampling import has_sampler, sample_entries
from numerics.stats import z_for_false_alarm
from theory.init_laws.laws import as_law

N = 400_000
ORDERS = (2, 4, 6)
Z = z_for_false_alarm(1e-6, m=5 * len(ORDERS) * 2)


def scipy_law(name):
    """The same law built from scipy.stats (not from the code under test)."""
    if name == "gaussian":
        return scipy.stats.norm()
    if name == "uniform":
        return scipy.stats.uniform(loc=-math.sqrt(3), scale=2 * math.sqrt(3))
    if name == "rademacher":
        return scipy.stats.rv_discrete(values=([-1, 1], [0.5, 0.5]))
    if name.startswith("student:"):
        nu = float(name.split(":")[1])
        return scipy.stats.t(nu, scale=math.sqrt((nu - 2) / nu))
    raise KeyError(name)


def sparse_moment(p, j):
    return p * scipy.stats.norm(scale=1 / math.sqrt(p)).moment(j)


@pytest.mark.parametrize("name", ["gaussian", "uniform", "rademacher", "sparse:0.05", "student:13"])
def test_sample_moments_against_scipy_and_exact(name):
    x = sample_entries(name, (N,), np.random.default_rng(2026))
    assert x.dtype == np.float64 and x.shape == (N,)
    assert abs(x.mean()) <= Z * x.std() / math.sqrt(N)
    for j in ORDERS:
        xj = x**j
        est, se = xj.mean(), xj.std(ddof=1) / math.sqrt(N)
        ref = sparse_moment(0.05, j) if name.startswith("sparse") else scipy_law(name).moment(j)
        assert abs(est - ref) <= Z * se, (name, j, est, ref, se)
        assert float(as_law(name).moment(j)) == pytest.approx(ref, rel=1e-9)


def test_sparse_fraction_of_zeros():
    x = sample_entries("sparse:0.05", (N,), np.random.default_rng(1))
    frac = float(np.mean(x != 0))
    assert abs(frac - 0.05) <= Z * math.sqrt(0.05 * 0.95 / N)


def test_seeded_and_shaped():
    a = sample_entries("uniform", (3, 4), np.random.default_rng(5))
    b = sample_entries("uniform", (3, 4), np.random.default_rng(5))
    assert a.shape == (3, 4) and np.array_equal(a, b)
    assert np.all(np.abs(a) <= math.sqrt(3))


def test_refusals():
    assert has_sampler("student:6") and not has_sampler("moments:3,15")
    with pytest.raises(ValueError, match="given by its moments only"):
        sample_entries("moments:3,15", (2,), np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        sample_entries("uniform", (2,), 0)
    with pytest.raises(ValueError, match="law must be a law"):
        sample_entries("cauchy", (2,), np.random.default_rng(0))
