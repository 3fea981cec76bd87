"""Synthetic sequence targets driven by a memory function (data generators for the benchmark).

Spec: ``docs/papers/memory-functions.md`` (after Jiang, Bao, Wang, Li, arXiv:2506.05678, Sec. 2).

* linear target     ``y(t) = sum_{s=0}^{t} rho(s) x(t-s)``  (causal, time-homogeneous; Theorem 2.1)
* nonlinear target  ``y(t) = sigma2( sum_{s=0}^{t} rho(s) sigma1(x(t-s)) )``, default ``tanh, tanh``,
  so that ``dy(t)/dx(t-s) = sigma2'(.) sigma1'(x(t-s)) rho(s)`` is still governed by rho.

Sequences are the rows of ``x`` (shape ``(N, T)``). The causal convolution is computed with a real FFT
of length ``>= 2T - 1`` (no wrap-around), O(T log T) per sequence; :func:`linear_target_direct` is the
O(T^2) direct sum kept as a reference (tests, benchmark).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import scipy.fft

from theory._args import MAX_LENGTH, as_choice, as_int, as_real_array

INPUTS = ("normal", "rademacher", "uniform")
DEFAULT_CHUNK = 1024


def _as_inputs(x) -> np.ndarray:
    arr = as_real_array("x", x)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] < 1:
        raise ValueError(f"x must have shape (N, T) (or (T,)), got {np.shape(x)}")
    return arr


def _as_rho(rho, T: int) -> np.ndarray:
    r = as_real_array("rho", rho)
    if r.ndim != 1 or r.size < 1:
        raise ValueError(f"rho must be a non-empty 1-d array of lags, got shape {r.shape}")
    # lags >= T never reach an output of a length-T sequence
    return r[:T]


def linear_target(x, rho, *, workers: int | None = None) -> np.ndarray:
    """Causal convolution ``y(t) = sum_{s=0}^{t} rho(s) x(t-s)`` along the last axis, by real FFT.

    ``x`` has shape ``(N, T)`` (a 1-d ``x`` is one sequence and gives a 1-d result); ``rho`` has any
    length (lags ``>= T`` are ignored). Accuracy: absolute error ``~ 1e-16 ||x|| ||rho||`` (FFT
    round-off), checked against the direct sum to 1e-10 in the tests. ``workers``: threads of
    ``scipy.fft`` (rows are split between threads and each row is transformed by the same code, so the
    result does not depend on the thread count; tested bit for bit).

    >>> linear_target([1.0, 2.0, 3.0], [1.0, 0.5]).round(12).tolist()
    [1.0, 2.5, 4.0]
    """
    one = np.ndim(x) == 1
    xa = _as_inputs(x)
    T = xa.shape[1]
    r = _as_rho(rho, T)
    if workers is not None:
        workers = as_int("workers", workers, minimum=1, maximum=1024)
    n = scipy.fft.next_fast_len(T + r.size - 1, real=True)
    X = scipy.fft.rfft(xa, n, axis=-1, workers=workers)
    X *= scipy.fft.rfft(r, n)
    y = scipy.fft.irfft(X, n, axis=-1, workers=workers, overwrite_x=True)[:, :T]
    return y[0] if one else y


def linear_target_direct(x, rho) -> np.ndarray:
    """The same causal convolution by the direct O(T^2) sum (``numpy.convolve`` row by row).

    Reference implementation for tests and the benchmark.

    >>> linear_target_direct([1.0, 2.0, 3.0], [1.0, 0.5]).tolist()
    [1.0, 2.5, 4.0]
    """
    one = np.ndim(x) == 1
    xa = _as_inputs(x)
    T = xa.shape[1]
    r = _as_rho(rho, T)
    y = np.empty_like(xa)
    for i in range(xa.shape[0]):
        y[i] = np.convolve(xa[i], r)[:T]
    return y[0] if one else y


def nonlinear_target(x, rho, sigma1: Callable = np.tanh, sigma2: Callable = np.tanh, *,
                     workers: int | None = None) -> np.ndarray:
    """``y(t) = sigma2( sum_{s<=t} rho(s) sigma1(x(t-s)) )`` (elementwise activations, default tanh).

    >>> import numpy as np
    >>> bool(np.allclose(nonlinear_target([0.3, -1.0], [1.0]), np.tanh(np.tanh([0.3, -1.0]))))
    True
    """
    if not callable(sigma1) or not callable(sigma2):
        raise TypeError("sigma1 and sigma2 must be callables (elementwise activations)")
    xa = _as_inputs(x)
    h = linear_target(np.asarray(sigma1(xa), dtype=float), rho, workers=workers)
    y = np.asarray(sigma2(h), dtype=float)
    return y[0] if np.ndim(x) == 1 else y


def _draw(rng: np.random.Generator, shape, inputs: str) -> np.ndarray:
    # every distribution has mean 0 and variance 1 (the closed forms assume unit white inputs)
    if inputs == "normal":
        return rng.standard_normal(shape)
    if inputs == "rademacher":
        return rng.integers(0, 2, size=shape).astype(float) * 2.0 - 1.0
    return rng.uniform(-np.sqrt(3.0), np.sqrt(3.0), size=shape)


def make_dataset(rho, n_seq: int, T: int | None = None, *, nonlinear: bool = False, seed: int = 0,
                 chunk: int = DEFAULT_CHUNK, inputs: str = "normal", sigma1: Callable = np.tanh,
                 sigma2: Callable = np.tanh, dtype=np.float64, workers: int | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n_seq`` input sequences of length ``T`` and their targets: ``(x, y)``, shape ``(n_seq, T)``.

    Inputs iid with mean 0, variance 1 (``inputs``: "normal" (default), "rademacher", "uniform"),
    drawn from ``numpy.random.default_rng(seed)`` row by row in one stream, so the data do not depend
    on ``chunk`` (the number of rows convolved at a time, which only bounds the temporary memory).
    ``T`` defaults to ``len(rho)``; a longer T pads rho with zeros. ``nonlinear=True`` uses
    :func:`nonlinear_target` with ``sigma1``, ``sigma2``. ``dtype`` is the storage type of the result
    (computation is float64). ``workers``: FFT threads (results independent of it).

    >>> x, y = make_dataset([1.0, 0.5], 3, 4, seed=1)
    >>> x.shape, bool(np.allclose(y, linear_target_direct(x, [1.0, 0.5])))
    ((3, 4), True)
    """
    n_seq = as_int("n_seq", n_seq, minimum=1)
    r = as_real_array("rho", rho)
    if r.ndim != 1 or r.size < 1:
        raise ValueError(f"rho must be a non-empty 1-d array of lags, got shape {r.shape}")
    T = r.size if T is None else as_int("T", T, minimum=1, maximum=MAX_LENGTH)
    if n_seq * T > MAX_LENGTH:
        raise ValueError(f"n_seq * T must be <= {MAX_LENGTH} (one array), got n_seq={n_seq}, T={T}")
    chunk = as_int("chunk", chunk, minimum=1)
    inputs = as_choice("inputs", inputs, INPUTS)
    if not isinstance(nonlinear, (bool, np.bool_)):
        raise TypeError(f"nonlinear must be a bool, got {nonlinear!r}")
    rng = np.random.default_rng(as_int("seed", seed, minimum=0))
    x = np.empty((n_seq, T), dtype=dtype)
    y = np.empty((n_seq, T), dtype=dtype)
    for start in range(0, n_seq, chunk):
        stop = min(n_seq, start + chunk)
        xb = _draw(rng, (stop - start, T), inputs)
        yb = (nonlinear_target(xb, r, sigma1, sigma2, workers=workers) if nonlinear
              else linear_target(xb, r, workers=workers))
        x[start:stop] = xb
        y[start:stop] = yb
    return x, y


def relative_mse(yhat, y) -> float:
    """``RelMSE = sum (yhat - y)^2 / sum y^2`` over all entries (normalises across output scales).

    >>> relative_mse([1.0, 1.0], [2.0, 0.0])
    0.5
    """
    yh = as_real_array("yhat", yhat)
    yy = as_real_array("y", y)
    if yh.shape != yy.shape:
        raise ValueError(f"yhat and y must have the same shape, got {yh.shape} and {yy.shape}")
    den = float(np.sum(yy * yy))
    if den == 0.0:
        raise ValueError("y must not be identically zero (the relative MSE is undefined)")
    return float(np.sum((yh - yy) ** 2)) / den
