r"""Exponential-sum (Prony) fits of memory functions: exact recovery, best m-term fits, conditioning.

Source: Jiang, Bao, Wang, Li, arXiv:2506.05678 (2025) (seed: recurrent models struggle on polynomial
decay because they must fit a Prony series ``rho(s) ~ sum_i c_i lambda_i^s`` whose modes spread over
many time scales, an ill-conditioned problem). Methods: de Prony (1795); matrix pencil (Hua and
Sarkar, IEEE TASSP 38, 1990); variable projection (Golub and Pereyra, SINUM 10, 1973; Kaufman's
Jacobian, BIT 15, 1975). Conventions here are the toolkit's (``docs/papers/memory-functions.md``).

An m-term exponential sum is ``rhohat(s) = sum_{i=1}^{m} c_i lambda_i^s`` (``0^0 = 1``), with the pole
set closed under conjugation so that rhohat is real: real poles and complex-conjugate pairs, a pair
counting as **two** terms. Optionally a free ``D delta_0(s)`` term (``skip=True``), the skip term of an
SSM.

Why it matters (the lower bound)
--------------------------------
A linear diagonal SSM ``h(t) = Lambda h(t-1) + B x(t)``, ``y = Re(C h) + D x`` has memory function
``D delta_0 + sum_n C_n B_n lambda_n^s``, an exponential sum. By :func:`theory.memory.expected_linear_relmse`
its expected RelMSE is the weighted relative error ``sum_s w_s (rhohat - rho)^2 / sum_s w_s rho^2``,
``w_s = T - s``. Hence the **true** minimum of that weighted error over m-term sums (stable poles,
``|lambda| < 1``) is a lower bound for every linear diagonal SSM with m terms. S4D with N/2 complex modes
and kernel ``2 Re(.)`` has N terms (N/2 conjugate pairs) plus D: compare with
``best_mterm_fit(rho, N, poles="pairs", skip=True)`` (or the larger class ``poles="complex"``, whose
minimum is lower still and also a bound).

What is computed
----------------
:func:`best_mterm_fit` minimises by variable projection (the coefficients are eliminated by weighted
least squares; Levenberg-Marquardt on the log-rates ``log(-log|lambda|)`` and angles ``arg lambda``) with a
**continuation in the order**: for k = 1..m, order k is started from matrix pencil, log-spaced time scales
and spread angles, and from the best fit of order k - 1 plus one new real pole (beyond both ends of its
time scales and in every gap) or with one real pole turned into a pair, and of order k - 2 plus one new
pair; every start is screened by a short run and the best few are run to convergence. The new term of a
continuation start has a free coefficient, so the start is at least as good as the smaller fit: the
residual is non-increasing in m. On polynomial memory (alpha 0.25-1, T = 64, 256, m <= 8) it agrees with
(or beats) a brute-force random multi-start and with trained S4Ds of the same class (tests/test_prony.py);
without the continuation (single-shot starts only) the fit misses the optimum by up to four decades at m >= 4
(S4D class, T = 64, m = 8: 1.3e-3 against 1.5e-7). Still, the result is a local minimum from many starts, not certified global:
its residual is the exact weighted error of the returned poles and coefficients, hence an **upper bound** on
the true best-m error. A trained model that beats it proves the search was not global; it cannot invalidate
the lower bound itself.

Precision
---------
The toolkit's one convention: ``method="float"`` (default) or ``method="mp"`` with ``dps`` digits (default
the ambient ``mpmath.mp.dps``), local ``workdps`` contexts only. In :func:`best_mterm_fit` the pole search
is float64; the final coefficients, residual and condition number are recomputed in mpmath when the
Vandermonde matrix is ill-conditioned (normalised condition ``> 1e8``, also with ``method="float"``) or when
``method="mp"``, so that the reported residual is that of the returned exponential sum to full accuracy.
:func:`prony` recovers a K-term sum exactly from 2K noise-free samples; with ``method="mp"`` it runs
entirely in mpmath (Hankel solve, ``polyroots``, Vandermonde solve), which is needed when the samples are
clustered poles (double precision fails there). :func:`vandermonde_condition` falls back to mpmath by
itself when float64 cannot resolve the answer (condition ``>= 1e10``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Iterable, Sequence

import mpmath
import numpy as np
from scipy.optimize import least_squares

from theory._args import DEFAULT_DPS, MAX_LENGTH, as_bool, as_choice, as_int, as_method_dps, as_real, as_real_array
from theory._args import FloatOrMp   # the Literal type of the method argument

__all__ = ["POLE_CLASSES", "AUTO_MP_CONDITION", "ExpSumFit", "OrderSelection", "exp_sum", "vandermonde",
           "vandermonde_condition", "prony", "matrix_pencil", "best_mterm_fit", "gauss_newton_condition",
           "mterm_scan", "select_order"]

POLE_CLASSES = ("complex", "real", "pairs")
AUTO_MP_CONDITION = 1e8
_FLOAT_CONDITION_MAX = 1e10  # above, float64's SVD cannot resolve the condition number: mpmath takes over
_REAL_POLE_TOL = 1e-9        # a pole with |Im z| <= tol max(1, |z|) is real (one tolerance for every test)
_DISTINCT_TOL = 1e-13        # poles closer than this (relative) coincide: a degenerate optimum


def _is_real(lam) -> np.ndarray:
    """Mask of the real poles of ``lam`` (imaginary part below :data:`_REAL_POLE_TOL`, relative)."""
    lam = np.asarray(lam, dtype=complex)
    return np.abs(lam.imag) <= _REAL_POLE_TOL * np.maximum(1.0, np.abs(lam))


# ----------------------------------------------------------------------------------------------------
# result object
# ----------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class ExpSumFit:
    r"""An exponential sum fitted to a memory function, and how well it fits: ``sum_i c_i lambda_i^s (+ D delta_0)``.

    ``rhohat(s) = sum_i coeffs[i] poles[i]**s + skip * delta_0(s)``, ``s = 0..T-1`` (``0^0 = 1``; the pole set
    closed under conjugation, a pair counting as two terms: module docstring). Returned by :func:`prony`,
    :func:`matrix_pencil` and :func:`best_mterm_fit`. Its properties: ``m`` (number of terms),
    ``timescales`` (``-1/log|lambda_i|``, decreasing), ``timescale_spread`` (largest over smallest), and
    ``kernel(T)`` gives ``rhohat``. Source: de Prony (1795) for the model; the conventions are the toolkit's
    (``docs/papers/memory-functions.md``).

    Parameters
    ----------
    poles : numpy.ndarray
        The poles ``lambda_i`` (complex128 from the fitters).
    coeffs : numpy.ndarray
        The coefficients ``c_i``, one per pole.
    residual : float
        Weighted relative squared error ``sum_s w_s (rhohat - rho)^2 / sum_s w_s rho^2`` of the returned sum
        (with ``w_s = T - s`` it equals :func:`theory.memory.expected_linear_relmse`).
    condition : float
        2-norm condition number of the column-normalised Vandermonde matrix ``V_{s i} = lambda_i^s``,
        ``s = 0..T-1`` (:func:`vandermonde_condition`).
    method : str
        The algorithm and precision that produced the fit.
    T : int
        Number of lags fitted.
    skip : float
        The coefficient ``D`` of the ``delta_0`` term (0 without one).
    weights : {"lag", "uniform", "custom"}
        The weights ``w_s`` of ``residual``.
    success : bool
        Whether the optimiser reported convergence.
    info : dict
        Diagnostics of the search (e.g. ``requested_m``).

    Returns
    -------
    ExpSumFit
        The record (a dataclass).

    Examples
    --------
    >>> fit = ExpSumFit(np.array([0.5, 0.25]), np.array([2.0, 4.0]), 0.0, 1.0, "by hand", 4)
    >>> fit.kernel().tolist()                # 2 (1/2)^s + 4 (1/4)^s
    [6.0, 2.0, 0.75, 0.3125]
    >>> fit.m, round(fit.timescale_spread, 12)        # tau = 1/ln 2 and 1/ln 4
    (2, 2.0)
    """
    poles: np.ndarray
    coeffs: np.ndarray
    residual: float
    condition: float
    method: str
    T: int
    skip: float = 0.0
    weights: str = "lag"
    success: bool = True
    info: dict = dataclasses.field(default_factory=dict)

    @property
    def m(self) -> int:
        """Number of exponential terms (a conjugate pair counts two)."""
        return int(self.poles.size)

    @property
    def timescales(self) -> np.ndarray:
        """``-1/log|lambda_i|`` (decreasing); ``inf`` for ``|lambda| = 1``, ``0`` for ``lambda = 0``."""
        mod = np.abs(self.poles)
        with np.errstate(divide="ignore"):
            tau = np.where(mod == 0, 0.0, -1.0 / np.log(np.where(mod == 0, 0.5, mod)))
        return np.sort(tau)[::-1]

    @property
    def timescale_spread(self) -> float:
        """``max tau / min tau`` over the modes (1 for a single mode)."""
        tau = self.timescales
        return float(tau[0] / tau[-1]) if tau[-1] > 0 else math.inf

    def kernel(self, T: int | None = None) -> np.ndarray:
        """Values ``rhohat(s)``, ``s = 0..T-1`` (default the fitted length), float64."""
        T = self.T if T is None else as_int("T", T, minimum=1)
        out = exp_sum(self.poles, self.coeffs, T)
        out[0] += self.skip
        return out


# ----------------------------------------------------------------------------------------------------
# building blocks
# ----------------------------------------------------------------------------------------------------
def exp_sum(poles, coeffs, T: int) -> np.ndarray:
    """``sum_i coeffs[i] poles[i]**s`` for ``s = 0..T-1`` (real part; the pole set should be
    conjugation-closed so that the imaginary part vanishes).

    >>> exp_sum([0.5], [2.0], 3).tolist()
    [2.0, 1.0, 0.5]
    >>> (exp_sum([1j, -1j], [0.5, 0.5], 4).round(12) + 0.0).tolist()      # cos(pi s / 2)
    [1.0, 0.0, -1.0, 0.0]
    """
    T = as_int("T", T, minimum=1)
    lam = _as_poles(poles).astype(complex)
    try:
        c = np.asarray(coeffs, dtype=complex).ravel()
    except (TypeError, ValueError):
        raise TypeError(f"coeffs must be numbers or an array of numbers, got {coeffs!r}") from None
    if not np.all(np.isfinite(c)):          # one NaN or inf coefficient would make every lag NaN
        raise ValueError(f"coeffs must be finite (no NaN or infinity), got {coeffs!r:.80}")
    if lam.shape != c.shape:
        raise ValueError(f"poles and coeffs must have the same length, got {lam.size} and {c.size}")
    return np.real(vandermonde(lam, T) @ c)


def vandermonde(poles, T: int) -> np.ndarray:
    """``V_{s i} = lambda_i^s``, ``s = 0..T-1`` (``0^0 = 1``), complex128 unless all poles are real.

    >>> vandermonde([2.0, 0.0], 3).tolist()
    [[1.0, 1.0], [2.0, 0.0], [4.0, 0.0]]
    """
    T = as_int("T", T, minimum=1, maximum=MAX_LENGTH)
    lam = _as_poles(poles)
    if lam.size * T > MAX_LENGTH:
        raise ValueError(f"T * len(poles) must be <= {MAX_LENGTH}, got T={T}, {lam.size} poles")
    top = float(np.max(np.abs(lam))) if lam.size else 0.0
    if top > 1.0 and (T - 1) * math.log(top) > 709.0:
        raise ValueError(f"poles too large for T={T}: |pole|^(T-1) = exp({(T - 1) * math.log(top):.4g}) "
                         "overflows float64")
    s = np.arange(T)[:, None]
    with np.errstate(under="ignore"):
        return np.power(lam[None, :], s)


def _as_poles(poles) -> np.ndarray:
    """Finite real or complex poles as a 1-d numpy array (real dtype kept when all are real)."""
    if isinstance(poles, (str, bytes, bool, np.bool_)) or poles is None:
        raise TypeError(f"poles must be numbers or an array of numbers, got {poles!r}")
    try:
        lam = np.asarray(poles).ravel()
        if lam.dtype.kind not in "iufc":
            lam = lam.astype(complex)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"poles must be numbers or an array of numbers, got {poles!r}") from None
    if lam.dtype.kind == "b" or not np.all(np.isfinite(lam)):
        raise ValueError("poles must be finite numbers")
    return lam


def vandermonde_condition(poles, T: int, *, normalize: bool = True, method: FloatOrMp = "float",
                          dps: int | None = None) -> float:
    """2-norm condition number of the Vandermonde matrix ``V_{s i} = lambda_i^s``, ``s < T``.

    ``normalize=True`` (default) scales every column to unit norm first: this removes the trivial
    dependence on the magnitude of the poles and leaves the near-collinearity of the modes (the
    quantity that makes the coefficients of an exponential-sum fit ill-determined). ``method="float"``:
    float64 (SVD) when the result is below 1e10, otherwise recomputed in mpmath; ``method="mp"``: always
    mpmath from the Gram matrix, at ``dps`` digits or more (the precision is raised until the answer is
    stable). A float either way.

    >>> vandermonde_condition([0.5], 10)
    1.0
    >>> round(vandermonde_condition([1j, -1j], 4), 12)    # orthogonal columns
    1.0
    """
    T = as_int("T", T, minimum=1, maximum=10**5)       # the mp path is O(T) per column in Python
    normalize = as_bool("normalize", normalize)
    method, dps = as_method_dps(method, dps)
    lam = _as_poles(poles).astype(complex)
    if lam.size == 0:
        raise ValueError("poles must not be empty")
    V = vandermonde(lam, T)
    if normalize:
        V = V / np.linalg.norm(V, axis=0)
    sv = np.linalg.svd(V, compute_uv=False)
    cond = float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf
    if method == "float" and cond < _FLOAT_CONDITION_MAX:
        return cond
    return _mp_condition(lam, T, normalize, dps, cond)


def _mp_condition(lam: np.ndarray, T: int, normalize: bool, dps: int | None, guess: float) -> float:
    digits = 2 * (math.log10(guess) if math.isfinite(guess) and guess > 1 else 20) + 30
    work = max(int(digits), dps or 0)
    for _ in range(6):
        with mpmath.workdps(work):
            G = _mp_gram(_mp_columns(lam, T), normalize)
            ev = mpmath.eighe(G, eigvals_only=True)
            ev = sorted([abs(e) for e in ev])
            if ev[0] > 0 and ev[-1] / ev[0] < mpmath.mpf(10) ** (work - 20):
                return float(mpmath.sqrt(ev[-1] / ev[0]))
        work *= 2
    return math.inf


def _mp_columns(lam: np.ndarray, T: int) -> list[list]:
    """Columns ``[lambda^0, ..., lambda^(T-1)]`` in the current mpmath precision (poles taken exactly)."""
    cols = []
    for z in lam:
        zz = mpmath.mpc(float(z.real), float(z.imag)) if z.imag != 0 else mpmath.mpf(float(z.real))
        col, v = [], mpmath.mpf(1)
        for _ in range(T):
            col.append(v)
            v *= zz
        cols.append(col)
    return cols


def _mp_gram(cols: list[list], normalize: bool):
    p = len(cols)
    G = mpmath.matrix(p, p)
    conj = [[mpmath.conj(v) for v in c] for c in cols]
    for i in range(p):
        for j in range(i, p):
            G[i, j] = mpmath.fdot(conj[i], cols[j])
            G[j, i] = mpmath.conj(G[i, j])
    if normalize:
        d = [1 / mpmath.sqrt(mpmath.re(G[i, i])) for i in range(p)]
        for i in range(p):
            for j in range(p):
                G[i, j] *= d[i] * d[j]
    return G


# ----------------------------------------------------------------------------------------------------
# Prony and matrix pencil (exact data)
# ----------------------------------------------------------------------------------------------------
def _as_samples(h, dps: int | None):
    """The samples as a float64/complex array (``dps=None``) or as mpf at ``dps`` digits (taken exactly)."""
    if dps is None:
        arr = np.asarray(h, dtype=complex).ravel() if np.iscomplexobj(h) else as_real_array("h", h).ravel()
        if not np.all(np.isfinite(arr)):
            raise ValueError("h must be finite")
        if not np.any(arr):
            raise ValueError("h must not be identically zero (no poles to fit)")
        return arr
    if isinstance(h, (str, bytes)) or not isinstance(h, Iterable):
        raise TypeError(f"h must be a sequence of samples (numbers, mpf or decimal strings), got {h!r:.60}")
    out = []
    with mpmath.workdps(dps):
        for i, v in enumerate(h):
            try:
                x = mpmath.mpmathify(v)
            except (TypeError, ValueError):
                raise TypeError(f"h[{i}] must be a number, an mpf or a decimal string, got {v!r:.60}") from None
            if not mpmath.isfinite(x):
                raise ValueError(f"h must be finite, got h[{i}] = {v!r:.60}")
            out.append(x)
    return out


def prony(h, K: int, *, method: FloatOrMp = "float", dps: int | None = None) -> ExpSumFit:
    r"""Classical Prony: the K-term sum ``h(k) = sum_i c_i lambda_i^k`` from ``N >= 2K`` samples.

    The poles are the roots of ``z^K + a_{K-1} z^{K-1} + ... + a_0``, whose coefficients solve the
    linear-prediction (Hankel) system ``sum_j a_j h(k+j) = -h(k+K)``, ``k = 0..N-K-1`` (least squares
    when ``N > 2K``); the weights then solve the Vandermonde system. Exact for noise-free data of a
    K-term sum with distinct nonzero poles. ``method="float"``: float64 (numpy ``lstsq``/``roots``);
    ``method="mp"``: everything in a local mpmath context of ``dps`` digits (samples may be ``mpf`` or
    strings, taken exactly), needed for clustered poles where the Hankel matrix is ill-conditioned.
    ``residual`` is the unweighted relative squared error on the N samples (``weights="uniform"``).

    Parameters
    ----------
    h : array_like
        The samples ``h(0), ..., h(N-1)``, ``N >= 2K`` (for "mp" also ``mpf`` or decimal strings).
    K : int
        Number of terms, ``K >= 1``.
    method : {"float", "mp"}
        float64, or mpmath at ``dps`` digits throughout.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps`` (docs/conventions.md).

    Returns
    -------
    ExpSumFit
        ``poles``, ``coeffs``, ``residual`` and ``condition`` of the fitted sum (``timescales`` derived).

    Raises
    ------
    TypeError
        ``K`` not an integer, samples that are not numbers.
    ValueError
        Fewer than ``2K`` samples, non-finite samples, an unknown ``method`` or a bad ``dps``.

    Examples
    --------
    >>> fit = prony([3.0, 1.5, 0.75, 0.375], 1)
    >>> fit.poles.real.round(12).tolist(), fit.coeffs.real.round(12).tolist()
    ([0.5], [3.0])
    >>> fit = prony(["1", "0.9", "0.81", "0.729"], 1, method="mp", dps=50)
    >>> float(fit.poles[0].real)
    0.9
    """
    K = as_int("K", K, minimum=1)
    method, dps = as_method_dps(method, dps)
    x = _as_samples(h, dps)
    N = len(x)
    if N < 2 * K:
        raise ValueError(f"h must have at least 2K = {2 * K} samples for prony, got {N}")
    if dps is None:
        return _prony_float(np.asarray(x), K)
    return _prony_mp(x, K, dps)


def _prony_float(h: np.ndarray, K: int) -> ExpSumFit:
    N = h.size
    H = np.array([h[k:k + K] for k in range(N - K)])
    a = np.linalg.lstsq(H, -h[K:N], rcond=None)[0]
    lam = np.roots(np.concatenate([[1.0], a[::-1]]))
    V = vandermonde(lam, N)
    c = np.linalg.lstsq(V, h.astype(complex), rcond=None)[0]
    fit_vals = V @ c
    res = float(np.sum(np.abs(fit_vals - h) ** 2) / np.sum(np.abs(h) ** 2))
    lam, c = _sort_poles(lam, c)
    return ExpSumFit(lam, c, res, vandermonde_condition(lam, N), "prony (float64)", N, weights="uniform")


def _prony_mp(h: list, K: int, dps: int) -> ExpSumFit:
    N = len(h)
    with mpmath.workdps(dps):
        if N == 2 * K:
            H = mpmath.matrix([[h[k + j] for j in range(K)] for k in range(K)])
            a = mpmath.lu_solve(H, mpmath.matrix([-h[k + K] for k in range(K)]))
        else:
            H = mpmath.matrix([[h[k + j] for j in range(K)] for k in range(N - K)])
            a = mpmath.qr_solve(H, mpmath.matrix([-h[k + K] for k in range(N - K)]))[0]
        coeffs = [mpmath.mpf(1)] + [a[j] for j in range(K - 1, -1, -1)]
        roots = mpmath.polyroots(coeffs, maxsteps=400, extraprec=2 * dps) if K > 1 else [-coeffs[1]]
        # Vandermonde system on the first K samples (exact data: interpolation)
        V = mpmath.matrix([[r ** k for r in roots] for k in range(K)])
        c = mpmath.lu_solve(V, mpmath.matrix(h[:K]))
        num = sum(abs(sum(c[i] * roots[i] ** k for i in range(K)) - h[k]) ** 2 for k in range(N))
        den = sum(abs(v) ** 2 for v in h)
        res = float(num / den)
        lam = np.array([complex(r) for r in roots])
        cc = np.array([complex(c[i]) for i in range(K)])
        mp_roots = list(roots)
        mp_c = [c[i] for i in range(K)]
    order = _pole_order(lam)
    lam, cc = lam[order], cc[order]
    info = {"mp_poles": [mp_roots[i] for i in order], "mp_coeffs": [mp_c[i] for i in order], "dps": dps}
    return ExpSumFit(lam, cc, res, vandermonde_condition(lam, N, method="mp", dps=dps), f"prony (mpmath, dps={dps})",
                     N, weights="uniform", info=info)


def _pole_order(lam: np.ndarray) -> np.ndarray:
    """Order poles by decreasing modulus, then by angle (deterministic; conjugates adjacent)."""
    return np.lexsort((np.round(np.angle(lam), 12), -np.round(np.abs(lam), 12)))


def _sort_poles(lam, c):
    o = _pole_order(np.asarray(lam))
    return np.asarray(lam)[o], np.asarray(c)[o]


def matrix_pencil(h, K: int, *, L: int | None = None) -> ExpSumFit:
    r"""Estimate a K-term exponential sum from its samples by the matrix-pencil method (float64).

    Source: Y. Hua and T. K. Sarkar, IEEE TASSP 38 (1990). The Hankel matrix ``Y_{ij} = h(i+j)``
    (``N-L`` rows, ``L+1`` columns, default ``L = N//2``) is truncated to its K dominant right singular
    vectors ``V``; the poles are the eigenvalues of ``pinv(V[:-1]) V[1:]`` and the coefficients solve the
    Vandermonde least-squares problem. Exact (up to round-off) for a noise-free sum of K exponentials with
    distinct poles; robust to round-off (the SVD truncation filters it) and the standard initial guess for
    :func:`best_mterm_fit`. Model and conventions as :class:`ExpSumFit` (``0^0 = 1``).

    Parameters
    ----------
    h : array_like of float
        The samples ``h(0), ..., h(N-1)`` (flattened), ``N >= 2K``.
    K : int
        Number of terms, ``K >= 1``.
    L : int, optional
        Pencil parameter, ``K <= L <= N - K`` (default ``N // 2``).

    Returns
    -------
    ExpSumFit
        Poles and coefficients (complex), ``residual`` the uniform relative squared error
        ``sum_s |rhohat - h|^2 / sum_s h^2`` (``weights="uniform"``), ``condition`` of the Vandermonde matrix.

    Raises
    ------
    TypeError
        ``h`` not an array of reals, ``K`` or ``L`` not an integer.
    ValueError
        ``h`` not finite or shorter than ``2K``, ``K < 1``, ``L`` outside ``K..N-K``.

    Examples
    --------
    >>> fit = matrix_pencil(0.5 * 0.8 ** np.arange(20) + 0.25 * 0.3 ** np.arange(20), 2)
    >>> fit.poles.real.round(10).tolist(), fit.coeffs.real.round(10).tolist()
    ([0.8, 0.3], [0.5, 0.25])
    >>> s = np.arange(24)                    # 0.9^s cos(pi s/2) = (0.9i)^s / 2 + (-0.9i)^s / 2
    >>> fit = matrix_pencil(0.9 ** s * np.cos(np.pi * s / 2), 2)
    >>> lam = fit.poles[np.argsort(fit.poles.imag)]
    >>> bool(np.abs(lam.real).max() < 1e-10), lam.imag.round(10).tolist(), fit.coeffs.real.round(10).tolist()
    (True, [-0.9, 0.9], [0.5, 0.5])
    """
    K = as_int("K", K, minimum=1)
    x = as_real_array("h", h).ravel()
    N = x.size
    if N < 2 * K:
        raise ValueError(f"h must have at least 2K = {2 * K} samples for matrix_pencil, got {N}")
    L = N // 2 if L is None else as_int("L", L, minimum=K, maximum=N - K)
    L = min(max(L, K), N - K)
    Y = np.array([x[i:i + L + 1] for i in range(N - L)])
    _, _, Vt = np.linalg.svd(Y, full_matrices=False)
    V = Vt[:K].T
    lam = np.linalg.eigvals(np.linalg.pinv(V[:-1]) @ V[1:])
    W = vandermonde(lam, N)
    c = np.linalg.lstsq(W, x.astype(complex), rcond=None)[0]
    res = float(np.sum(np.abs(W @ c - x) ** 2) / max(np.sum(x * x), np.finfo(float).tiny))
    lam, c = _sort_poles(lam, c)
    return ExpSumFit(lam, c, res, vandermonde_condition(lam, N), "matrix pencil (float64)", N,
                     weights="uniform")


# ----------------------------------------------------------------------------------------------------
# best m-term fit by variable projection
# ----------------------------------------------------------------------------------------------------
def _weights(weights: Any, T: int) -> tuple[np.ndarray, str]:
    if isinstance(weights, str):
        w = as_choice("weights", weights, ("lag", "uniform"))
        return (np.arange(T, 0, -1, dtype=float) if w == "lag" else np.ones(T)), w
    arr = as_real_array("weights", weights)
    if arr.shape != (T,) or np.any(arr <= 0):
        raise ValueError(f"weights must be 'lag', 'uniform' or {T} positive numbers")
    return arr, "custom"


@dataclasses.dataclass
class _Problem:
    s: np.ndarray
    sqw: np.ndarray
    bw: np.ndarray          # sqrt(w) * rho
    n_real: int
    n_pair: int
    skip: bool

    @property
    def n_params(self) -> int:
        return self.n_real + 2 * self.n_pair

    def basis(self, theta: np.ndarray):
        """Weighted real basis columns and the pieces needed for their derivatives."""
        s = self.s
        nr, npair = self.n_real, self.n_pair
        rates = _rates(theta[: nr + npair], s.size)
        angles = theta[nr + npair:]
        with np.errstate(under="ignore", over="ignore"):
            env = np.exp(-np.outer(s, rates))             # T x (nr + np)
        cols = [env[:, :nr]]
        if npair:
            ph = np.outer(s, angles)
            cols += [env[:, nr:] * np.cos(ph), env[:, nr:] * np.sin(ph)]
        B = np.concatenate(cols, axis=1)
        if self.skip:
            e0 = np.zeros((s.size, 1))
            e0[0, 0] = 1.0
            B = np.concatenate([B, e0], axis=1)
        return B * self.sqw[:, None], rates

    def solve(self, theta):
        # least_squares asks for the residual and then the Jacobian at the same point: reuse it
        key = theta.tobytes()
        cached = getattr(self, "_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        out = self._solve(theta)
        self._cache = (key, out)
        return out

    def _solve(self, theta):
        Bw, rates = self.basis(theta)
        norms = np.linalg.norm(Bw, axis=0)
        norms[norms == 0] = 1.0
        Bn = Bw / norms
        U, S, Vt = np.linalg.svd(Bn, full_matrices=False)
        keep = S > S[0] * 1e-13 if S.size and S[0] > 0 else np.zeros(S.size, bool)
        U, S, Vt = U[:, keep], S[keep], Vt[keep]
        beta = U.T @ self.bw
        c = (Vt.T @ (beta / S)) / norms
        r = self.bw - U @ beta
        return r, c, U, Bw, rates

    def residual(self, theta):
        return self.solve(theta)[0]

    def jacobian(self, theta):
        # Kaufman's variable-projection Jacobian: J_k = -P_perp (dB/dtheta_k) c
        r, c, U, Bw, rates = self.solve(theta)
        nr, npair = self.n_real, self.n_pair
        s = self.s[:, None]
        J = np.empty((self.s.size, self.n_params))
        lo, hi = _log_rate_bounds(self.s.size)
        a = theta[: nr + npair]
        rates = np.where((a > lo) & (a < hi), rates, 0.0)   # clipped rates do not move
        if nr:
            J[:, :nr] = -rates[:nr] * s * (Bw[:, :nr] * c[:nr])
        if npair:
            u = Bw[:, nr:nr + npair]
            v = Bw[:, nr + npair:nr + 2 * npair]
            cu, cv = c[nr:nr + npair], c[nr + npair:nr + 2 * npair]
            comb = u * cu + v * cv
            J[:, nr:nr + npair] = -rates[nr:] * s * comb
            J[:, nr + npair:] = s * (u * cv - v * cu)
        return -(J - U @ (U.T @ J))


def _theta_from_poles(lam: np.ndarray, n_real: int, n_pair: int, T: int) -> np.ndarray | None:
    """Map a pole set onto the (n_real, n_pair) parametrisation; None if it does not fit."""
    lam = np.asarray(lam, dtype=complex)
    real = _is_real(lam)
    reals = list(lam[real])
    pairs = [z for z, r in zip(lam, real) if not r and z.imag > 0]
    if len(reals) != n_real or len(pairs) != n_pair:
        return None

    def log_rate(z):
        mod = min(max(abs(z), 1e-300), 1.0 - 1e-12)
        return math.log(max(-math.log(mod), 1e-12 / T))

    a = [log_rate(z) for z in reals] + [log_rate(z) for z in pairs]
    b = [float(np.angle(z)) for z in pairs]
    return np.array(a + b, dtype=float)


def _structure_of(lam: np.ndarray) -> tuple[int, int]:
    """(number of real poles, number of conjugate pairs) of a pole set (negative reals count as real)."""
    real = _is_real(lam)
    return int(np.sum(real)), int(np.sum(~real & (lam.imag > 0)))


def _log_rate_bounds(T: int) -> tuple[float, float]:
    # rates below 1e-6/T are constant over the window, above 40 the mode is a delta at lag 0
    return math.log(1e-6 / T), math.log(40.0)


def _rates(a: np.ndarray, T: int) -> np.ndarray:
    lo, hi = _log_rate_bounds(T)
    return np.exp(np.clip(a, lo, hi))


def _poles_from_theta(theta, n_real, n_pair, T):
    rates = _rates(theta[: n_real + n_pair], T)
    angles = theta[n_real + n_pair:]
    reals = np.exp(-rates[:n_real]).astype(complex)
    pr = np.exp(-rates[n_real:] + 1j * angles)
    return reals, pr


def _structures(m: int, poles: str) -> list[tuple[int, int]]:
    """The splits given default starts: all real and most pairs, where the class allows them (:func:`_allowed`)."""
    allowed = _allowed(m, poles)
    return [s for s in dict.fromkeys([(m, 0), (m % 2, m // 2)]) if s in allowed]


def _default_starts(rho: np.ndarray, m: int, structures) -> list[tuple[int, int, np.ndarray]]:
    T = rho.size
    starts = []
    # matrix pencil on the raw samples: its own structure (negative real poles -> their modulus)
    try:
        # a short pencil (L ~ 4m) is enough for a starting guess and keeps the SVD O(T m^2)
        pencil = matrix_pencil(rho, m, L=min(T // 2, max(64, 4 * m))) if T >= 2 * m else None
    except np.linalg.LinAlgError:
        pencil = None
    if pencil is not None and np.all(np.isfinite(pencil.poles)):
        lam = np.where(_is_real(pencil.poles), np.abs(pencil.poles), pencil.poles)
        nr = int(np.sum(_is_real(lam)))
        npair = (m - nr) // 2
        if nr + 2 * npair == m:
            th = _theta_from_poles(lam, nr, npair, T)
            if th is not None:
                starts.append((nr, npair, th))
    for nr, npair in structures:
        k = nr + npair
        rates = np.log(1.0 / np.geomspace(0.5, max(1.0, T), k))
        angles = np.pi * (np.arange(1, npair + 1) / (npair + 1)) if npair else np.array([])
        starts.append((nr, npair, np.concatenate([rates[np.argsort(-rates)] if k else rates, angles])))
        if npair:
            # slow envelopes with spread angles (oscillatory and sparse kernels)
            slow = np.full(k, math.log(1.0 / max(1.0, T / 4)))
            starts.append((nr, npair, np.concatenate([slow, angles])))
    return starts


def _run_varpro(prob: _Problem, theta0: np.ndarray, max_nfev: int):
    if prob.n_params == 0:
        return theta0, prob.residual(theta0), True, 0
    sol = least_squares(prob.residual, theta0, jac=prob.jacobian, method="lm", x_scale="jac",
                        max_nfev=max_nfev, ftol=1e-13, xtol=1e-13, gtol=1e-13)
    return sol.x, sol.fun, bool(sol.success), int(sol.nfev)


def best_mterm_fit(rho, m: int, *, weights: Any = "lag", poles: str = "complex", skip: bool = False,
                   method: FloatOrMp = "float", dps: int | None = None,
                   starts: Sequence[Sequence[complex]] | None = None, max_nfev: int | None = None) -> ExpSumFit:
    r"""Best m-term exponential-sum fit of ``rho`` in the weighted least-squares norm (multi-start search).

    Minimises ``sum_s w_s (rho(s) - rhohat(s))^2 / sum_s w_s rho(s)^2`` over exponential sums with m
    terms (module docstring), ``w_s = T - s`` by default (``weights="lag"``: then the residual is
    :func:`theory.memory.expected_linear_relmse` of the fit); ``"uniform"`` or an array are allowed.

    ``poles``: ``"complex"`` (default: any mix of real poles in (0, 1) and complex-conjugate pairs inside
    the unit disc), ``"real"`` (m real poles in (0, 1)) or ``"pairs"`` (m/2 conjugate pairs, plus one real
    pole if m is odd: the S4D class; a pair at angle 0 is a real pole, so this class contains the
    ``"pairs"`` fits of every smaller order). ``skip=True`` adds a free ``D delta_0`` term. ``starts``:
    extra initial pole sets (conjugation-closed, length m). ``max_nfev``: Levenberg-Marquardt evaluations
    per start (default ``100 (k + 2)`` at order k). ``method="mp"``: the final coefficients, residual and
    condition number in mpmath at ``dps`` digits or more; ``method="float"`` (default) does so only when
    the normalised Vandermonde condition exceeds 1e8 (module docstring, "Precision").

    Search (module docstring): continuation in the order, ``k = 1..m``, each order started from the
    default starts and from the best fit of order ``k - 1`` plus a new real pole (every gap of its time
    scales and beyond both ends) or with one real pole turned into a pair, and of order ``k - 2`` plus a
    new pair; the residual is therefore non-increasing in m. Guarantee: a local minimum; ``residual`` is
    exact for the returned sum, hence an upper bound on the global best-m residual. If the optimum is
    degenerate (coinciding poles, e.g. extra modes on an exponential kernel) the returned sum has fewer
    distinct terms (``fit.m < m``; ``fit.info["requested_m"]`` keeps m).

    Parameters
    ----------
    rho : array_like of float
        The memory function to fit, a 1-d array of ``T`` lags.
    m : int
        Number of terms, ``1 <= m <= T // 2``.
    weights : {"lag", "uniform"} or array_like
        ``w_s = T - s`` (default), uniform, or an array of ``T`` non-negative weights.
    poles : {"complex", "real", "pairs"}
        The class of exponential sums searched.
    skip : bool
        Add a free ``D delta_0`` term.
    method : {"float", "mp"}
        Where the final coefficients, residual and condition are computed (see above).
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.
    starts : sequence of sequences of complex, optional
        Extra initial pole sets, conjugation-closed, each of length ``m``.
    max_nfev : int, optional
        Levenberg-Marquardt evaluations per start.

    Returns
    -------
    ExpSumFit
        The best sum found: ``poles``, ``coeffs``, ``residual`` (exact for it), ``condition``, ``info``.

    Raises
    ------
    TypeError
        An argument of the wrong kind (e.g. ``starts`` not a list of pole sets).
    ValueError
        A value out of its range, an unknown ``weights`` / ``poles`` / ``method``.

    Examples
    --------
    >>> import numpy as np
    >>> fit = best_mterm_fit(0.9 ** np.arange(64), 1)
    >>> fit.residual < 1e-24, round(float(fit.poles[0].real), 12), round(float(fit.coeffs[0].real), 12)
    (True, 0.9, 1.0)
    """
    r, opts = _fit_options(rho, weights, poles, skip, method, dps, max_nfev)
    r, scale = _unit_scale(r)
    m = as_int("m", m, minimum=1, maximum=max(1, r.size // 2))
    if starts is not None and (isinstance(starts, (str, bytes)) or not isinstance(starts, Iterable)):
        raise TypeError(f"starts must be a list of pole sets, got {starts!r}")
    user = {m: _user_starts(starts, m, r.size)}
    for search in _continuation(r, opts, user):
        if search.order == m:
            return _rescaled(_finish(r, opts.weights, search, opts.dps), scale)
    raise AssertionError("unreachable: the continuation yields every order")


@dataclasses.dataclass
class _Options:
    """The validated options shared by :func:`best_mterm_fit` and :func:`mterm_scan`."""

    weights: tuple[np.ndarray, str]
    poles: str
    skip: bool
    dps: int | None
    max_nfev: int | None


def _unit_scale(r: np.ndarray) -> tuple[np.ndarray, float]:
    """``r`` divided by the power of two nearest its largest magnitude (exact), and that power: the fit is
    scale-free, but at rho ~ 1e-300 its squares underflow (residual 0/0 = nan) and at 1e+200 they overflow."""
    scale = 2.0 ** math.frexp(float(np.max(np.abs(r))))[1]
    return r / scale, scale


def _rescaled(fit: ExpSumFit, scale: float) -> ExpSumFit:
    """The fit of ``rho / scale`` as the fit of ``rho`` (coefficients and the skip term times ``scale``)."""
    if scale == 1.0:
        return fit
    return dataclasses.replace(fit, coeffs=fit.coeffs * scale, skip=fit.skip * scale)


def _fit_options(rho, weights, poles, skip, method, dps, max_nfev) -> tuple[np.ndarray, _Options]:
    r = as_real_array("rho", rho)
    if r.ndim != 1 or r.size < 2:
        raise ValueError(f"rho must be a 1-d array of at least 2 lags, got shape {r.shape}")
    if not np.any(r):
        raise ValueError("rho must not be identically zero")
    poles = as_choice("poles", poles, POLE_CLASSES)
    if not isinstance(skip, (bool, np.bool_)):
        raise TypeError(f"skip must be a bool, got {skip!r}")
    _, dps = as_method_dps(method, dps)
    # at most 10**6 function evaluations per start (each costs O(T m))
    max_nfev = as_int("max_nfev", max_nfev, minimum=1, maximum=10**6) if max_nfev is not None else None
    return r, _Options(_weights(weights, r.size), poles, bool(skip), dps, max_nfev)


def _continuation(r: np.ndarray, opts: _Options, user: dict):
    """Yield the best variable-projection fit (a :class:`_Search`) of every order k = 1, 2, ... in turn.

    Order k starts from the caller's starts ``user[k]``, the default starts and the continuation starts
    built from the best fits of orders k - 1 and k - 2 (:func:`_grow`); all are screened by a short run,
    the best :data:`_POLISHED` (and the caller's) are run to convergence. Adding a real pole (or a pair at
    angle 0, where a real pole may not be added) embeds the order k - 1 fit exactly, and Levenberg-Marquardt
    never increases the objective: the best value is non-increasing in k for every pole class."""
    T = r.size
    w, _ = opts.weights
    sqw = np.sqrt(w)
    best_at = {0: (0, 0, np.zeros(0))}
    k = 0
    while True:
        k += 1
        allowed = _allowed(k, opts.poles)
        mine = list(user.get(k, ()))
        cand = mine + _default_starts(r, k, _structures(k, opts.poles)) + _grow(best_at, k, allowed, T)
        cap = opts.max_nfev if opts.max_nfev is not None else 100 * (k + 2)
        # screen every start with a short run, then polish the most promising ones to convergence
        screened, total_nfev = [], 0
        for i, (nr, npair, th0) in enumerate(cand):
            if (nr, npair) not in allowed:
                continue
            prob = _Problem(np.arange(T, dtype=float), sqw, sqw * r, nr, npair, opts.skip)
            th, res, ok, nfev = _run_varpro(prob, th0, min(_SCREEN_NFEV, cap))
            screened.append((float(np.dot(res, res)), i >= len(mine), prob, th, ok))
            total_nfev += nfev
        screened.sort(key=lambda x: x[:2])
        best = None
        # the caller's starts are always polished
        for val, _, prob, th, ok in [x for j, x in enumerate(screened) if j < _POLISHED or not x[1]]:
            if not ok:
                th, res, ok, nfev = _run_varpro(prob, th, cap)
                val, total_nfev = float(np.dot(res, res)), total_nfev + nfev
            if best is None or val < best[0]:
                best = (val, prob, th, ok)
        assert best is not None          # at least the polished starts were tried
        _, prob, th, ok = best
        best_at[k] = (prob.n_real, prob.n_pair, th)
        yield _Search(prob, th, ok, total_nfev, len(screened), k)


def _allowed(m: int, poles: str) -> set[tuple[int, int]]:
    """The (n_real, n_pairs) splits of m terms in a pole class."""
    if poles == "real":
        return {(m, 0)}
    if poles == "pairs":
        return {(m % 2, m // 2)}
    return {(m - 2 * k, k) for k in range(m // 2 + 1)}


_SCREEN_NFEV = 20                         # Levenberg-Marquardt evaluations to screen a start
_POLISHED = 3                             # screened starts run to convergence, per order
_NEW_MODE_SHIFT = math.log(4.0)             # a new mode 4x slower or faster than the extreme ones
_NEW_PAIR_ANGLES = (math.pi / 3, 2 * math.pi / 3)


def _new_log_rates(a: np.ndarray, T: int) -> np.ndarray:
    """Log-rates for a new mode: beyond both ends of the existing ones and in every gap (midpoints)."""
    lo, hi = _log_rate_bounds(T)
    if a.size == 0:
        return np.log(1.0 / np.geomspace(0.5, max(1.0, T), 3))
    a = np.sort(np.clip(a, lo, hi))
    mids = (a[1:] + a[:-1]) / 2
    return np.clip(np.concatenate([[a[0] - _NEW_MODE_SHIFT], mids, [a[-1] + _NEW_MODE_SHIFT]]), lo + 1, hi - 1)


def _grow(best_at: dict, k: int, allowed: set, T: int) -> list[tuple[int, int, np.ndarray]]:
    """Continuation starts for order k (theta = [real log-rates, pair log-rates, pair angles]):
    order k - 1 plus a real pole at every :func:`_new_log_rates` position, order k - 1 with one real
    pole turned into a pair of small angle (``1/T``: the same kernel to first order, so the search can
    leave the real axis), and order k - 2 plus a new pair at every position and two angles."""
    out = []
    if k - 1 in best_at:
        nr, npair, th = best_at[k - 1]
        ar, ap, b = th[:nr], th[nr:nr + npair], th[nr + npair:]
        if (nr + 1, npair) in allowed:
            out += [(nr + 1, npair, np.concatenate([ar, [p], ap, b])) for p in _new_log_rates(th[:nr + npair], T)]
        if nr and (nr - 1, npair + 1) in allowed:
            # angle 0 is the real pole itself (exact embedding, needed where no real pole may be added);
            # angle 1/T lets the search leave the real axis
            angles = (0.0, 1.0 / T) if (nr + 1, npair) not in allowed else (1.0 / T,)
            out += [(nr - 1, npair + 1, np.concatenate([np.delete(ar, i), ap, [ar[i]], b, [ang]]))
                    for i in range(nr) for ang in angles]
    if k - 2 in best_at:
        nr, npair, th = best_at[k - 2]
        ar, ap, b = th[:nr], th[nr:nr + npair], th[nr + npair:]
        if (nr, npair + 1) in allowed:
            out += [(nr, npair + 1, np.concatenate([ar, ap, [p], b, [ang]]))
                    for p in _new_log_rates(th[:nr + npair], T) for ang in _NEW_PAIR_ANGLES]
    return out


def _user_starts(starts, m: int, T: int) -> list[tuple[int, int, np.ndarray]]:
    """The caller's initial pole sets as (n_real, n_pairs, theta), tried before the default starts."""
    out: list[tuple[int, int, np.ndarray]] = []
    for st in starts or ():
        lam = np.asarray(st, dtype=complex).ravel()
        if lam.size != m or not np.all(np.isfinite(lam)):
            raise ValueError(f"every start must have m = {m} finite poles, got {lam.size}")
        nr, npair = _structure_of(lam)
        th = _theta_from_poles(lam, nr, npair, T) if nr + 2 * npair == m else None
        if th is None:
            raise ValueError("every start must be closed under complex conjugation")
        out.insert(0, (nr, npair, th))
    return out


@dataclasses.dataclass
class _Search:
    """The winner of the multi-start variable-projection search at one order."""

    prob: _Problem
    theta: np.ndarray
    success: bool
    nfev: int          # function evaluations over all starts
    nstarts: int
    order: int = 0


def _distinct(reals: np.ndarray, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop coinciding poles and turn pairs with angle 0 or pi into real poles: a degenerate optimum
    (e.g. a second mode on a one-mode kernel) otherwise leaves a singular basis."""
    tol = _DISTINCT_TOL
    real_list = [complex(z.real, 0.0) for z in reals]
    pair_list = []
    for z in pairs:
        if abs(np.sin(np.angle(z))) < tol:
            real_list.append(complex(np.real(z), 0.0))
        else:
            pair_list.append(complex(z))
    out_r: list[complex] = []
    for z in real_list:
        if all(abs(z - y) > tol * max(1.0, abs(y)) for y in out_r):
            out_r.append(z)
    out_p: list[complex] = []
    for z in pair_list:
        if all(abs(z - y) > tol * max(1.0, abs(y)) for y in out_p):
            out_p.append(z)
    return np.array(out_r, dtype=complex), np.array(out_p, dtype=complex)


def _real_basis(reals, pairs, T, skip):
    V = vandermonde(np.concatenate([reals, pairs]), T)
    nr = reals.size
    cols = [V[:, :nr].real, V[:, nr:].real, V[:, nr:].imag]
    if skip:
        e0 = np.zeros((T, 1))
        e0[0, 0] = 1.0
        cols.append(e0)
    return np.concatenate(cols, axis=1)


def _finish(r: np.ndarray, weights: tuple[np.ndarray, str], search: _Search, dps: int | None) -> ExpSumFit:
    """The ExpSumFit of the search's poles: distinct poles, coefficients and the exact weighted residual
    (mpmath when ``dps`` is given or the Vandermonde condition exceeds AUTO_MP_CONDITION)."""
    T = r.size
    w, wname = weights
    prob = search.prob
    reals, pr = _distinct(*_poles_from_theta(search.theta, prob.n_real, prob.n_pair, T))
    nr, npair = reals.size, pr.size
    lam = np.concatenate([reals, pr, np.conj(pr)])
    cond = vandermonde_condition(lam, T) if lam.size else 1.0
    use_mp = dps is not None or cond > AUTO_MP_CONDITION
    if use_mp:
        # the normal equations square the condition number: cover it with guard digits
        digits = 2 * math.log10(cond) if math.isfinite(cond) and cond > 10 else 2.0
        work = min(max(dps or DEFAULT_DPS, int(digits) + 30), 400)
        c, res = _mp_coefficients(r, w, reals, pr, prob.skip, work)
        cond = vandermonde_condition(lam, T, method="mp", dps=work) if lam.size else 1.0
        method = f"variable projection (float64 poles; coefficients, residual in mpmath dps={work})"
    else:
        sqw = np.sqrt(w)
        c = np.linalg.lstsq(_real_basis(reals, pr, T, prob.skip) * sqw[:, None], sqw * r, rcond=None)[0]
        method = "variable projection (float64)"
    cc = np.concatenate([c[:nr], (c[nr:nr + npair] - 1j * c[nr + npair:nr + 2 * npair]) / 2])
    coeffs = np.concatenate([cc, np.conj(cc[nr:])]).astype(complex)
    order = _pole_order(lam)
    info = {"n_real": nr, "n_pairs": npair, "nfev": search.nfev, "starts": search.nstarts,
            "requested_m": prob.n_real + 2 * prob.n_pair}
    fit = ExpSumFit(lam[order], coeffs[order], 0.0, cond, method, T, skip=float(c[-1]) if prob.skip else 0.0,
                    weights=wname, success=search.success, info=info)
    if not use_mp:
        d = fit.kernel() - r
        res = float(np.dot(w, d * d) / np.dot(w, r * r))
    fit.residual = float(res)
    return fit


def _mp_coefficients(r, w, reals, pr, skip, dps):
    """Weighted LS coefficients for fixed poles, and the exact residual, in mpmath (normal equations
    at a precision that covers the squared condition number)."""
    T = r.size
    with mpmath.workdps(dps):
        s_w = [mpmath.sqrt(mpmath.mpf(float(x))) for x in w]
        cols = []
        for z in reals:
            cols.append(_mp_powers(mpmath.mpf(float(np.real(z))), T))
        pc = [_mp_powers(mpmath.mpc(float(z.real), float(z.imag)), T) for z in pr]
        cols += [[mpmath.re(v) for v in col] for col in pc]
        cols += [[mpmath.im(v) for v in col] for col in pc]
        if skip:
            cols.append([mpmath.mpf(1)] + [mpmath.mpf(0)] * (T - 1))
        Bw = [[s_w[t] * col[t] for t in range(T)] for col in cols]
        bw = [s_w[t] * mpmath.mpf(float(r[t])) for t in range(T)]
        p = len(Bw)
        G = mpmath.matrix(p, p)
        g = mpmath.matrix(p, 1)
        for i in range(p):
            g[i] = mpmath.fdot(Bw[i], bw)
            for j in range(i, p):
                G[i, j] = G[j, i] = mpmath.fdot(Bw[i], Bw[j])
        c = mpmath.lu_solve(G, g)
        fitted = [mpmath.fsum(c[i] * Bw[i][t] for i in range(p)) for t in range(T)]
        num = mpmath.fsum((fitted[t] - bw[t]) ** 2 for t in range(T))
        den = mpmath.fsum(v * v for v in bw)
        return np.array([float(c[i]) for i in range(p)]), float(num / den)


def _mp_powers(z, T):
    out, v = [], mpmath.mpf(1)
    for _ in range(T):
        out.append(v)
        v *= z
    return out


def gauss_newton_condition(fit: ExpSumFit, *, weights: Any = "lag") -> float:
    r"""Condition number of the Gauss-Newton matrix of a diagonal linear recurrence at the fit.

    Parameters as a diagonal linear RNN/SSM holds them: the poles ``lambda_i`` and output weights
    ``c_i`` (real and imaginary parts of one member of each conjugate pair), kernel
    ``sum_i c_i lambda_i^s``. Returns ``cond(J)`` where ``J = sqrt(w) d rhohat / d(lambda, c)``, i.e.
    the square root of the condition number of ``J^T J``, the local curvature of the weighted loss
    (the optimisation landscape near the fit). Columns: ``lambda^s`` and ``c s lambda^(s-1)``.
    A diagnostic, not a closed form; float64 SVD (values above ~1e15 are saturated).

    >>> import numpy as np
    >>> fit = best_mterm_fit(0.5 ** np.arange(8), 1, weights="uniform")
    >>> J = np.stack([0.5 ** np.arange(8), np.arange(8) * 0.5 ** np.arange(-1, 7)], 1)
    >>> bool(np.isclose(gauss_newton_condition(fit, weights="uniform"), np.linalg.cond(J)))
    True
    """
    if not isinstance(fit, ExpSumFit):
        raise TypeError(f"fit must be an ExpSumFit (from best_mterm_fit), got {type(fit).__name__}")
    T = fit.T
    w, _ = _weights(weights, T)
    s = np.arange(T)[:, None]
    lam, c = fit.poles, fit.coeffs
    real = _is_real(lam)
    upper = ~real & (lam.imag > 0)
    cols = []
    with np.errstate(under="ignore", invalid="ignore", divide="ignore"):
        for z, cz in zip(lam[real].real, c[real].real):
            cols += [z ** s[:, 0], cz * s[:, 0] * np.where(s[:, 0] > 0, z ** (s[:, 0] - 1.0), 0.0)]
        for z, cz in zip(lam[upper], c[upper]):
            zs = z ** s[:, 0]
            dz = cz * s[:, 0] * np.where(s[:, 0] > 0, z ** (s[:, 0] - 1.0), 0.0)
            cols += [2 * zs.real, -2 * zs.imag, 2 * dz.real, -2 * dz.imag]
    J = np.stack(cols, axis=1) * np.sqrt(w)[:, None]
    if fit.skip:
        e0 = np.zeros((T, 1))
        e0[0, 0] = np.sqrt(w[0])
        J = np.concatenate([J, e0], axis=1)
    sv = np.linalg.svd(J, compute_uv=False)
    return float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf


# ----------------------------------------------------------------------------------------------------
# order scans and automatic order selection
# ----------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class OrderSelection:
    """The smallest number of exponential modes that fits a memory function within ``tol``, and the scan.

    Returned by :func:`select_order`, which scans best m-term fits (:func:`best_mterm_fit`) for m = 1, 2, ...

    Parameters
    ----------
    m : int or None
        The chosen order: the smallest m whose fit has ``residual <= tol`` (None if none within ``m_max``).
    fit : ExpSumFit
        The fit of order ``m`` (the last of the scan when ``m`` is None).
    fits : list of ExpSumFit
        The whole scan: ``fits[j]`` has ``j + 1`` terms.
    tol : float
        The residual tolerance.

    Returns
    -------
    OrderSelection
        A record; ``residuals`` and ``conditions`` give the scan's numbers as arrays.

    Examples
    --------
    >>> sel = select_order(0.5 ** np.arange(32) + 0.25 * 0.9 ** np.arange(32), 1e-8, m_max=3)
    >>> sel.m, len(sel.fits), bool(sel.residuals[1] <= 1e-8)        # two exponentials: two modes suffice
    (2, 2, True)
    """

    m: int | None
    fit: ExpSumFit
    fits: list[ExpSumFit]
    tol: float

    @property
    def residuals(self) -> np.ndarray:
        """The scan's residuals, one per order."""
        return np.array([f.residual for f in self.fits])

    @property
    def conditions(self) -> np.ndarray:
        """The scan's Vandermonde condition numbers, one per order."""
        return np.array([f.condition for f in self.fits])


def mterm_scan(rho, m_max: int, *, tol: float | None = None, weights: Any = "lag", poles: str = "complex",
               skip: bool = False, method: FloatOrMp = "float", dps: int | None = None,
               starts: Sequence[Sequence[complex]] | None = None, max_nfev: int | None = None) -> list[ExpSumFit]:
    """Fits with ``m = 1..m_max`` terms: the continuation of :func:`best_mterm_fit` run once, so that
    ``fits[k - 1]`` is ``best_mterm_fit(rho, k, ...)`` and the residuals are non-increasing in m. Stops
    early once ``residual <= tol`` (if given). ``starts``: extra pole sets of any length, each tried at the
    order equal to its length; the other keywords are those of :func:`best_mterm_fit`.
    """
    r, opts = _fit_options(rho, weights, poles, skip, method, dps, max_nfev)
    r, scale = _unit_scale(r)
    m_max = as_int("m_max", m_max, minimum=1)
    if m_max > max(1, r.size // 2):
        raise ValueError(f"m_max must be <= len(rho) // 2 = {max(1, r.size // 2)}, got {m_max}")
    if tol is not None:
        tol = as_real("tol", tol, minimum=0.0, open_min=True)
    if starts is not None and (isinstance(starts, (str, bytes)) or not isinstance(starts, Iterable)):
        raise TypeError(f"starts must be a list of pole sets, got {starts!r}")
    extra = [np.asarray(st, dtype=complex).ravel() for st in starts or ()]
    user = {k: _user_starts([st for st in extra if st.size == k], k, r.size) for k in range(1, m_max + 1)}
    fits: list[ExpSumFit] = []
    for search in _continuation(r, opts, user):
        fits.append(_rescaled(_finish(r, opts.weights, search, opts.dps), scale))
        if search.order == m_max or (tol is not None and fits[-1].residual <= tol):
            return fits
    raise AssertionError("unreachable: the continuation yields every order")


def select_order(rho, tol: float, *, m_max: int | None = None, **kwargs) -> OrderSelection:
    r"""Choose the number of exponential terms: the smallest m whose best m-term fit reaches residual ``<= tol``.

    Scans ``m = 1, 2, ...`` with warm starts (:func:`mterm_scan`, the continuation of :func:`best_mterm_fit`,
    so the residuals are non-increasing in m) up to ``m_max``. The residual is the weighted relative squared
    error of :class:`ExpSumFit` (``w_s = T - s`` by default: the expected RelMSE of a linear diagonal SSM
    with that memory function, :func:`theory.memory.expected_linear_relmse`). Each fit is a local optimum
    from many starts, its residual exact for the returned sum: the chosen m is an upper bound on the true
    smallest order. Source: the module docstring (Jiang, Bao, Wang, Li 2025; the method is the toolkit's).

    Parameters
    ----------
    rho : array_like of float
        The memory function, a 1-d array of ``T`` lags.
    tol : float
        Residual to reach, ``tol > 0``.
    m_max : int, optional
        Largest order tried, ``1 <= m_max <= T // 2`` (default ``min(24, T // 2)``).
    **kwargs
        ``weights``, ``poles``, ``skip``, ``method``, ``dps``, ``starts``, ``max_nfev`` of :func:`best_mterm_fit`.

    Returns
    -------
    OrderSelection
        ``m`` (None if ``tol`` is not reached within ``m_max``), ``fit`` (the fit of order m, else the best
        one found), ``fits`` (the scan: ``fits[k]`` has ``k + 1`` terms), ``tol``; ``residuals`` and
        ``conditions`` as arrays over the scan.

    Raises
    ------
    TypeError
        An argument of the wrong kind, or a keyword :func:`best_mterm_fit` does not take.
    ValueError
        ``tol <= 0``, ``m_max`` out of range, or a value :func:`best_mterm_fit` rejects.

    Examples
    --------
    A sum of two distinct exponentials needs exactly two terms, and one suffices for one:

    >>> sel = select_order(0.7 ** np.arange(40) + 0.5 ** np.arange(40), 1e-20)
    >>> sel.m, sel.fit.poles.real.round(8).tolist(), sel.fit.coeffs.real.round(8).tolist()
    (2, [0.7, 0.5], [1.0, 1.0])
    >>> select_order(0.9 ** np.arange(32), 1e-20).m
    1
    """
    tol = as_real("tol", tol, minimum=0.0, open_min=True)
    if m_max is None:
        m_max = min(24, max(1, np.size(rho) // 2))
    fits = mterm_scan(rho, m_max, tol=tol, **kwargs)
    ok = [f for f in fits if f.residual <= tol]
    if ok:
        return OrderSelection(ok[0].m, ok[0], fits, tol)
    best = min(fits, key=lambda f: f.residual)
    return OrderSelection(None, best, fits, tol)
