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
    """The linear target of a memory function: the causal convolution ``y(t) = sum_{s=0}^{t} rho(s) x(t-s)``.

    The linear, causal, time-homogeneous target of Jiang, Bao, Wang, Li (2025), arXiv:2506.05678, Sec. 2
    (Theorem 2.1: such a target has a unique memory function ``rho``), as in
    ``docs/papers/memory-functions.md``; computed along the last axis by a zero-padded real FFT (no
    wrap-around), O(T log T) per sequence. Accuracy: absolute error ``~ 1e-16 ||x|| ||rho||`` (FFT
    round-off), checked against the direct sum (:func:`linear_target_direct`) to 1e-10 in the tests.

    Parameters
    ----------
    x : array_like of float
        Input sequences, shape ``(N, T)`` (rows), or ``(T,)`` for one sequence.
    rho : array_like of float
        Memory function over lags ``0, 1, ...``, 1-d, any length (lags ``>= T`` never reach an output).
    workers : int, optional
        Threads of ``scipy.fft`` (1..1024); rows are split between threads and each row is transformed by
        the same code, so the result does not depend on it (tested bit for bit).

    Returns
    -------
    numpy.ndarray
        float64 targets of the shape of ``x``.

    Raises
    ------
    TypeError
        ``x`` or ``rho`` not arrays of real numbers, ``workers`` not an integer.
    ValueError
        ``x`` not of shape ``(N, T)`` or ``(T,)``, an empty or non-1-d ``rho``, non-finite values,
        ``workers`` out of range.

    Examples
    --------
    >>> linear_target([1.0, 2.0, 3.0], [1.0, 0.5]).round(12).tolist()      # 1, 2 + 0.5, 3 + 1
    [1.0, 2.5, 4.0]
    >>> linear_target([[1.0, 2.0, 3.0]], [0.0, 1.0]).round(12).tolist()    # rho = delta_1: a one-step delay
    [[0.0, 1.0, 2.0]]
    >>> x, rho = np.random.default_rng(0).standard_normal((2, 50))
    >>> bool(np.allclose(linear_target(x, rho), np.convolve(x, rho)[:50]))
    True
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
                 chunk: int | None = None, inputs: str = "normal", sigma1: Callable = np.tanh,
                 sigma2: Callable = np.tanh, dtype=np.float64, workers: int | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n_seq`` random input sequences of length ``T`` and their targets: ``(x, y)``, shape ``(n_seq, T)``.

    The synthetic data of Jiang, Bao, Wang, Li (2025), arXiv:2506.05678, Sec. 2, with the toolkit's
    conventions (``docs/papers/memory-functions.md``): inputs iid with mean 0 and variance 1, targets by
    :func:`linear_target` or, with ``nonlinear=True``, :func:`nonlinear_target`
    (``y(t) = sigma2(sum_s rho(s) sigma1(x(t-s)))``). The inputs come from ``numpy.random.default_rng(seed)``
    row by row in one stream, so the data do not depend on ``chunk`` (the number of rows convolved at a
    time, which only bounds the temporary memory) nor on ``workers``.

    Parameters
    ----------
    rho : array_like of float
        Memory function over lags ``0, 1, ...`` (1-d, non-empty).
    n_seq : int
        Number of sequences (>= 1).
    T : int, optional
        Sequence length, ``1 <= T``, ``n_seq * T <= MAX_LENGTH`` (2**24); default ``len(rho)`` (a longer T
        pads rho with zeros).
    nonlinear : bool, default False
        Nonlinear target with ``sigma1``, ``sigma2`` (elementwise callables, default ``numpy.tanh``).
    seed : int, default 0
        Seed (>= 0) of the inputs.
    chunk : int, optional
        Rows convolved at a time (>= 1; None: ``DEFAULT_CHUNK`` = 1024).
    inputs : {"normal", "rademacher", "uniform"}, default "normal"
        Input law: ``N(0, 1)``, random signs, or uniform on ``[-sqrt(3), sqrt(3)]``.
    sigma1, sigma2 : callable, default numpy.tanh
        Activations of the nonlinear target.
    dtype : numpy dtype, default numpy.float64
        Storage type of the result (the computation is float64).
    workers : int, optional
        FFT threads (the result does not depend on it).

    Returns
    -------
    x, y : numpy.ndarray
        Inputs and targets, each of shape ``(n_seq, T)`` and type ``dtype``.

    Raises
    ------
    TypeError
        An argument of the wrong type (named), ``nonlinear`` not a bool, activations that are not callable.
    ValueError
        An empty or non-1-d ``rho``, a size out of range (named), ``n_seq * T > MAX_LENGTH``, an unknown
        ``inputs``.

    Examples
    --------
    >>> x, y = make_dataset([1.0, 0.5], 3, 4, seed=1)
    >>> x.shape, y.dtype, bool(np.allclose(y, linear_target_direct(x, [1.0, 0.5])))
    ((3, 4), dtype('float64'), True)
    >>> bool(np.array_equal(make_dataset([1.0, 0.5], 3, 4, seed=1, chunk=2)[0], x))   # chunk does not matter
    True
    >>> x, _ = make_dataset([1.0], 2, 5, inputs="rademacher", dtype=np.float32)
    >>> x.dtype, sorted(set(x.ravel().tolist())) == [-1.0, 1.0]
    (dtype('float32'), True)
    """
    n_seq = as_int("n_seq", n_seq, minimum=1)
    r = as_real_array("rho", rho)
    if r.ndim != 1 or r.size < 1:
        raise ValueError(f"rho must be a non-empty 1-d array of lags, got shape {r.shape}")
    T = r.size if T is None else as_int("T", T, minimum=1, maximum=MAX_LENGTH)
    if n_seq * T > MAX_LENGTH:
        raise ValueError(f"n_seq * T must be <= {MAX_LENGTH} (one array), got n_seq={n_seq}, T={T}")
    chunk = DEFAULT_CHUNK if chunk is None else as_int("chunk", chunk, minimum=1)
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
    """The relative mean squared error of a prediction: ``sum (yhat - y)^2 / sum y^2`` over all entries.

    The error measure of Jiang, Bao, Wang, Li (2025), arXiv:2506.05678 (``docs/papers/memory-functions.md``):
    normalised by the target's energy, so that targets of different output scales compare.

    Parameters
    ----------
    yhat : array_like of float
        Prediction.
    y : array_like of float
        Target, of the shape of ``yhat``, not identically zero.

    Returns
    -------
    float
        ``RelMSE >= 0``; 0 for a perfect prediction, 1 for the prediction 0.

    Raises
    ------
    TypeError
        ``yhat`` or ``y`` not arrays of real numbers.
    ValueError
        Different shapes, non-finite values, or ``y`` identically zero (the ratio is undefined).

    Examples
    --------
    >>> relative_mse([1.0, 1.0], [2.0, 0.0])               # (1 + 1) / 4
    0.5
    >>> relative_mse([0.0, 0.0], [3.0, -4.0]), relative_mse([3.0, -4.0], [3.0, -4.0])
    (1.0, 0.0)
    """
    yh = as_real_array("yhat", yhat)
    yy = as_real_array("y", y)
    if yh.shape != yy.shape:
        raise ValueError(f"yhat and y must have the same shape, got {yh.shape} and {yy.shape}")
    den = float(np.sum(yy * yy))
    if den == 0.0:
        raise ValueError("y must not be identically zero (the relative MSE is undefined)")
    return float(np.sum((yh - yy) ** 2)) / den
