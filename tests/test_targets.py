"""numerics.memory_functions.targets: FFT convolution targets, nonlinear targets, seeded chunked data sets, RelMSE."""


import numpy as np
import pytest
from hypothesis import given, strategies as st

from numerics.memory_functions.targets import (linear_target, linear_target_direct, make_dataset, nonlinear_target,
                              relative_mse)
from theory.memory import KINDS, memory_function


def _loop_convolution(x, rho):
    """The defining sum y(t) = sum_{s<=t} rho(s) x(t-s), written as plain Python loops."""
    N, T = x.shape
    y = np.zeros((N, T))
    for t in range(T):
        for s in range(min(t + 1, len(rho))):
            y[:, t] += rho[s] * x[:, t - s]
    return y


@given(T=st.integers(1, 70), L=st.integers(1, 90), N=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_fft_equals_direct_sum(T, L, N, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((N, T))
    rho = rng.standard_normal(L) * rng.uniform(0.1, 10)
    ref = _loop_convolution(x, rho)
    scale = max(1.0, np.abs(ref).max())
    assert np.abs(linear_target(x, rho) - ref).max() <= 1e-10 * scale
    assert np.abs(linear_target_direct(x, rho) - ref).max() <= 1e-10 * scale


@pytest.mark.parametrize("kind", KINDS)
def test_fft_equals_direct_on_memory_functions(kind):
    rho = memory_function(kind, 0.8, 512)
    x = np.random.default_rng(5).standard_normal((3, 512))
    assert np.abs(linear_target(x, rho) - linear_target_direct(x, rho)).max() <= 1e-10


def test_one_dimensional_input_and_causality():
    rho = np.array([1.0, -2.0, 0.5])
    x = np.zeros(10)
    x[4] = 1.0
    y = linear_target(x, rho)
    assert y.shape == (10,)
    assert np.allclose(y[:4], 0) and np.allclose(y[4:7], rho) and np.allclose(y[7:], 0)


def test_nonlinear_target_matches_definition_and_derivative():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 40))
    rho = memory_function("poly", 0.5, 40)
    y = nonlinear_target(x, rho)
    assert np.allclose(y, np.tanh(_loop_convolution(np.tanh(x), rho)), atol=1e-12)
    y2 = nonlinear_target(x, rho, sigma1=np.sin, sigma2=lambda h: h ** 3)
    assert np.allclose(y2, _loop_convolution(np.sin(x), rho) ** 3, atol=1e-10)
    # dy(t)/dx(t-s) = sigma2'(h(t)) sigma1'(x(t-s)) rho(s) (central differences, error O(h^2) ~ 1e-10)
    t, s, h = 30, 7, 1e-5
    xp, xm = x.copy(), x.copy()
    xp[0, t - s] += h
    xm[0, t - s] -= h
    fd = (nonlinear_target(xp, rho)[0, t] - nonlinear_target(xm, rho)[0, t]) / (2 * h)
    hh = _loop_convolution(np.tanh(x), rho)[0, t]
    exact = (1 - np.tanh(hh) ** 2) * (1 - np.tanh(x[0, t - s]) ** 2) * rho[s]
    assert abs(fd - exact) <= 1e-8


@pytest.mark.parametrize("nonlinear", [False, True])
def test_dataset_is_seeded_and_chunk_independent(nonlinear):
    rho = memory_function("airy", 0.5, 100)
    a = make_dataset(rho, 50, seed=7, chunk=3, nonlinear=nonlinear)
    b = make_dataset(rho, 50, seed=7, chunk=50, nonlinear=nonlinear)
    c = make_dataset(rho, 50, seed=8, nonlinear=nonlinear)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])
    assert a[0].shape == a[1].shape == (50, 100) and a[1].dtype == np.float64
    target = nonlinear_target if nonlinear else linear_target
    assert np.allclose(a[1], target(a[0], rho), atol=1e-12)


def test_thread_count_does_not_change_results():
    rho = memory_function("poly", 0.4, 300)
    x = np.random.default_rng(4).standard_normal((64, 300))
    assert np.array_equal(linear_target(x, rho, workers=1), linear_target(x, rho, workers=2))
    a = make_dataset(rho, 40, seed=3, chunk=7, workers=2, nonlinear=True)
    b = make_dataset(rho, 40, seed=3, workers=1, nonlinear=True)
    assert np.array_equal(a[1], b[1])


def test_dataset_options():
    x, y = make_dataset([1.0, 0.5], 20, 30, seed=1, inputs="rademacher")
    assert x.shape == (20, 30) and set(np.unique(x)) == {-1.0, 1.0}
    assert np.allclose(y, _loop_convolution(x, [1.0, 0.5]))
    x, _ = make_dataset([1.0], 10, 10, inputs="uniform")
    assert np.all(np.abs(x) <= np.sqrt(3))
    x, y = make_dataset(np.ones(50), 4, 10)           # T < len(rho): lags >= T never matter
    assert np.allclose(y, np.cumsum(x, axis=1))
    x32, y32 = make_dataset([1.0, 0.5], 4, 8, dtype=np.float32)
    assert x32.dtype == np.float32 and y32.dtype == np.float32


def test_relative_mse():
    assert relative_mse([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert relative_mse(np.zeros((2, 3)), np.ones((2, 3))) == 1.0
    assert relative_mse([3.0, 0.0], [1.0, 1.0]) == 2.5


def test_bad_input():
    with pytest.raises(ValueError, match="x"):
        linear_target([[1.0, np.nan]], [1.0])
    with pytest.raises(ValueError, match="rho"):
        linear_target([1.0, 2.0], [np.inf])
    with pytest.raises(ValueError, match="rho"):
        linear_target([1.0, 2.0], [])
    with pytest.raises(ValueError, match="x"):
        linear_target(np.ones((2, 2, 2)), [1.0])
    with pytest.raises(TypeError, match="sigma1"):
        nonlinear_target([1.0], [1.0], sigma1=3)
    with pytest.raises(ValueError, match="n_seq"):
        make_dataset([1.0], 0)
    with pytest.raises(ValueError, match="workers"):
        linear_target([1.0], [1.0], workers=0)
    with pytest.raises(ValueError, match="chunk"):
        make_dataset([1.0], 3, chunk=0)
    with pytest.raises(ValueError, match="inputs"):
        make_dataset([1.0], 3, inputs="cauchy")
    with pytest.raises(ValueError, match="shape"):
        relative_mse([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="identically zero"):
        relative_mse([1.0], [0.0])
    with pytest.raises(ValueError, match="yhat"):
        relative_mse([np.nan], [1.0])


def test_relative_mse_is_scale_invariant_in_float():
    """relative_mse of two 1e300 vectors was nan (their squares overflow): computed on the scaled vectors."""
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.0, 2.0])
    ref = relative_mse(a, b)
    for s in (1e300, 1e-300, 2.0**1000):
        assert relative_mse(a * s, b * s) == pytest.approx(ref, rel=1e-15)
    assert relative_mse(np.array([1e308, -1e308]), np.array([-1e308, 1e308])) == 4.0      # the difference overflows
