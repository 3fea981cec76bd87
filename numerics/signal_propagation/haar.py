r"""Haar orthogonal and unitary matrices: the sampler, its statistics, and the rounding of their energies.

Sampler (Mezzadri 2007, "How to generate random matrices from the classical compact groups", Notices AMS 54,
Sec. 5): ``Z = QR`` of a Gaussian (Ginibre) ``Z``, then ``W = Q diag(R_ii / |R_ii|)``. The sign (phase) fix makes
the factorisation unique, so W is Haar; without it LAPACK's Householder QR returns ``Q_11 <= 0`` always
(``R_11 = -sign(Z_11) ||Z e_1||``), which :func:`haar_statistics` detects through ``E W_11 = 0``.

Energies: ``W^k`` is orthogonal, so the energy of one draw, ``||W^k x||^2 / ||x||^2``, is 1 up to rounding
(:mod:`theory.structured_init`). :func:`haar_rounding` computes it in float64 by the probe recurrence
``v_j = fl(W v_{j-1})`` and bounds its deviation from 1 *rigorously* from the draw's measured orthogonality
defect (derivation in its docstring), so a test can require ``|e - 1| <= bound`` at every draw.

Reproducibility: draw i uses the block stream of :func:`numerics.signal_propagation.ginibre.sample_ginibre`
(``SeedSequence(seed)`` children per block of ``BLOCK`` draws); results are bit-identical for a fixed LAPACK.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from theory._args import as_choice, as_int, as_seed_sequence
from theory.structured_init import FIELDS

from .ginibre import MAX_N, _block_rng, sample_ginibre

__all__ = ["HaarStatistics", "HaarRounding", "sample_haar", "haar_statistics", "haar_rounding",
           "householder_defect_bound", "SAMPLERS", "MAX_STAT_SAMPLES"]

SAMPLERS = ("qr", "scipy")
MAX_STAT_SAMPLES = 10**6
_U = 2.0 ** -53                   # unit roundoff of float64


def _gamma(m: int) -> float:
    """Higham's ``gamma_m = m u / (1 - m u)``."""
    return m * _U / (1.0 - m * _U)


def sample_haar(n: int, count: int, *, field: str = "complex", seed=0) -> np.ndarray:
    r"""Draw ``count`` Haar orthogonal (``field="real"``) or unitary (``"complex"``) n x n matrices (QR with the
    sign fix, module docstring).

    Parameters
    ----------
    n : int
        Size, ``1 <= n <= MAX_N`` (256).
    count : int
        Number of matrices, ``count * n * n <= 2**24``.
    field : {"real", "complex"}
        O(n) or U(n).
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        The block streams of :func:`numerics.signal_propagation.ginibre.sample_ginibre`.

    Returns
    -------
    numpy.ndarray
        Shape ``(count, n, n)``, float64 or complex128.

    Raises
    ------
    TypeError, ValueError
        As for :func:`numerics.signal_propagation.ginibre.sample_ginibre`.

    Examples
    --------
    >>> W = sample_haar(5, 3, field="real", seed=1)
    >>> bool(np.allclose(W[0].T @ W[0], np.eye(5), atol=1e-14))
    True
    >>> U = sample_haar(4, 2, seed=2)                 # the default field: complex (unitary)
    >>> bool(np.allclose(U[1].conj().T @ U[1], np.eye(4), atol=1e-14))
    True
    """
    field = as_choice("field", field, FIELDS)
    Z = sample_ginibre(n, count, field=field, seed=seed, normalised=False)
    if Z.shape[0] == 0:
        return Z
    Q, R = np.linalg.qr(Z)
    d = np.diagonal(R, axis1=-2, axis2=-1)
    absd = np.abs(d)
    phase = np.where(absd > 0, d / np.where(absd > 0, absd, 1.0), 1.0)    # R_ii = 0 has probability 0
    return Q * phase[:, None, :]


# ----------------------------------------------------------------------------------------------------------
# statistics of the draws
# ----------------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class HaarStatistics:
    """Means and standard errors (same run) of per-draw statistics of Haar matrices, named as
    :func:`theory.structured_init.haar_moments` names their exact expectations."""

    names: tuple
    mean: np.ndarray
    se: np.ndarray
    samples: int
    field: str
    sampler: str
    n: int


def _stat_columns(W: np.ndarray, field: str) -> np.ndarray:
    """The per-draw statistics (rows: draws) in the order of ``theory.structured_init.haar_moments``."""
    w11 = W[:, 0, 0]
    tr1 = np.trace(W, axis1=1, axis2=2)
    W2 = W @ W
    tr2 = np.trace(W2, axis1=1, axis2=2)
    if field == "real":
        return np.stack([w11, w11 ** 2, w11 ** 4, tr1 ** 2, tr2], axis=1)
    tr3 = np.trace(W2 @ W, axis1=1, axis2=2)
    a2 = np.abs(w11) ** 2
    return np.stack([w11.real, a2, a2 ** 2, np.abs(tr1) ** 2, np.abs(tr2) ** 2, np.abs(tr3) ** 2], axis=1)


def _draw(n: int, count: int, field: str, seed, sampler: str) -> np.ndarray:
    if sampler == "qr":
        return sample_haar(n, count, field=field, seed=seed)
    from scipy.stats import ortho_group, unitary_group

    if n < 2:
        raise ValueError(f"n must be >= 2 for sampler='scipy' (scipy's groups start at dimension 2), got n={n}")
    rng = np.random.default_rng(as_seed_sequence(seed))
    group = ortho_group if field == "real" else unitary_group
    return np.asarray(group.rvs(dim=n, size=count, random_state=rng)).reshape(count, n, n)


def haar_statistics(n: int, samples: int, *, field: str = "complex", seed=0, sampler: str = "qr") -> HaarStatistics:
    r"""Monte Carlo means of statistics of Haar matrices (entries, traces of powers) with their standard errors.

    The statistics (columns) and their exact expectations are those of
    :func:`theory.structured_init.haar_moments`; a correct sampler agrees with them within ``z se``
    (``numerics.stats``). ``sampler="qr"``: :func:`sample_haar`; ``"scipy"``: ``scipy.stats.ortho_group`` /
    ``unitary_group`` (an independent implementation, seeded with ``SeedSequence(seed)``), for cross-testing.

    Parameters
    ----------
    n : int
        Size, ``1 <= n <= MAX_N`` (``>= 2`` for "scipy").
    samples : int
        Draws, ``2 <= samples <= MAX_STAT_SAMPLES``, ``samples * n * n <= 2**24``.
    field : {"real", "complex"}
        O(n) or U(n).
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        The random stream.
    sampler : {"qr", "scipy"}
        Which sampler draws the matrices.

    Returns
    -------
    HaarStatistics
        ``names``, ``mean``, ``se`` (sample sd over ``sqrt(samples)``).

    Raises
    ------
    TypeError, ValueError
        An argument out of its range or of the wrong kind (named).

    Examples
    --------
    >>> from theory.structured_init import haar_moments
    >>> r = haar_statistics(6, 4000, seed=3)
    >>> exact = haar_moments(6)
    >>> bool(all(abs(m - float(exact[k])) <= 5 * s for k, m, s in zip(r.names, r.mean, r.se)))
    True
    """
    from theory.structured_init import haar_moments

    n = as_int("n", n, minimum=1, maximum=MAX_N)
    samples = as_int("samples", samples, minimum=2, maximum=min(MAX_STAT_SAMPLES, (1 << 24) // (n * n)))
    field = as_choice("field", field, FIELDS)
    sampler = as_choice("sampler", sampler, SAMPLERS)
    names = tuple(haar_moments(n, field))
    values = _stat_columns(_draw(n, samples, field, seed, sampler), field)
    mean = values.mean(axis=0)
    se = values.std(axis=0, ddof=1) / math.sqrt(samples)
    return HaarStatistics(names, mean, se, samples, field, sampler, n)


# ----------------------------------------------------------------------------------------------------------
# rounding of the per-draw energy
# ----------------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class HaarRounding:
    """Per-draw float64 energies of Haar matrices against their rounding bound (arrays over the draws).

    ``deviation[i] = max_{j<=k} |e_j - 1|`` (``e_j = ||W^j x||^2 / ||x||^2`` computed in float64),
    ``bound[i]`` its rigorous rounding bound, ``defect[i]`` the computed ``||fl(W^* W) - I||_F``."""

    deviation: np.ndarray
    bound: np.ndarray
    defect: np.ndarray
    n: int
    k: int
    field: str


def householder_defect_bound(n: int) -> float:
    r"""A bound on ``||W^* W - I||_F`` for W from Householder QR in float64: ``10 n^{3/2} u``.

    Higham (2002), "Accuracy and Stability of Numerical Algorithms", 2nd ed., Thm. 19.4: the computed Q is within
    ``sqrt(n) gamma~_{cn}`` of an exactly orthogonal matrix in the Frobenius norm (columnwise ``gamma~_{cn}``, c a
    small constant), so ``||Q^* Q - I||_F <= 2 sqrt(n) c n u + O(u^2)``; we take ``2c = 10``. A sanity bound on the
    sampler (not a rigorous one: c is not given explicitly), far below any non-orthogonal mistake (O(1)).

    >>> householder_defect_bound(64) < 1e-12
    True
    """
    n = as_int("n", n, minimum=1)
    return 10.0 * n ** 1.5 * _U


def _energy_bound(n: int, k: int, defect: np.ndarray) -> np.ndarray:
    r"""The rigorous bound of :func:`haar_rounding` (its docstring derives it) from the computed defects."""
    c = math.sqrt(2.0) * _gamma(n + 2)                      # inner products of length n, real or complex
    cn = c * n
    if cn >= 0.5:
        raise ValueError(f"n={n} too large for the rounding bound")
    d_true = defect * (1.0 + _gamma(2 * n * n + 2))          # the Frobenius norm of fl(G) - I, rounded up
    eta = (d_true + cn) / (1.0 - cn)                         # ||W^* W - I||_2 <= eta
    step = c * np.sqrt(n * (1.0 + eta))
    hi = np.sqrt(1.0 + eta) + step
    lo = np.maximum(np.sqrt(np.maximum(1.0 - eta, 0.0)) - step, 0.0)
    g = _gamma(2 * n)
    upper = hi ** (2 * k) * (1.0 + g) / (1.0 - g) * (1.0 + _U)
    lower = lo ** (2 * k) * (1.0 - g) / (1.0 + g) * (1.0 - _U)
    return np.maximum(upper - 1.0, 1.0 - lower) * (1.0 + 1e-6)     # the bound's own roundings: a relative 1e-6


def haar_rounding(n: int, k: int, count: int, *, field: str = "complex", seed=0) -> HaarRounding:
    r"""Float64 energies ``e_j = ||W^j x||^2 / ||x||^2``, ``j <= k``, of Haar draws and a rigorous bound on ``|e_j - 1|``.

    Exact value 1 (``W^j`` orthogonal). Computation: ``v_0 = x`` Gaussian, ``v_j = fl(W v_{j-1})``,
    ``e_j = fl(fl(||v_j||^2) / fl(||v_0||^2))``. Bound (u = 2^-53, ``gamma_m = m u / (1 - m u)``; Higham 2002,
    Ch. 3): a length-n inner product, real or complex, has ``|fl(w^T v) - w^T v| <= c |w|^T |v|`` with
    ``c = sqrt(2) gamma_{n+2}`` (Lemma 3.5 and Sec. 3.6), so ``||fl(Wv) - Wv||_2 <= c || |W| ||_2 ||v||_2 <=
    c ||W||_F ||v||_2``. Let ``eta >= ||W^* W - I||_2``: then ``||Wv||^2 / ||v||^2`` lies in ``[1 - eta, 1 + eta]``
    and ``||W||_F^2 <= n (1 + eta)``, so each step scales the norm by a factor in
    ``[sqrt(1 - eta) - c sqrt(n (1 + eta)), sqrt(1 + eta) + c sqrt(n (1 + eta))]``; a squared norm of 2n real
    squares has relative error ``<= gamma_{2n}``, the division ``u``. So ``e_j`` lies in
    ``[lo^{2j} (1 - g)/(1 + g) (1 - u), hi^{2j} (1 + g)/(1 - g) (1 + u)]``, ``g = gamma_{2n}``. ``eta`` comes from
    the computed Gram matrix ``fl(W^* W)`` (entries within ``c |W|^* |W|``, Frobenius norm ``<= c ||W||_F^2 <=
    c n (1 + eta)``): ``eta <= (d (1 + gamma_{2n^2+2}) + c n) / (1 - c n)`` with ``d`` the computed
    ``||fl(W^* W) - I||_F`` (the diagonal subtraction is exact by Sterbenz's lemma). The bound grows with j, so the
    one at ``j = k`` bounds every ``j <= k``. Assumes no underflow and a BLAS whose inner products obey the
    standard model (any summation order; FMA only lowers the error).

    Parameters
    ----------
    n : int
        Size, ``1 <= n <= MAX_N``.
    k : int
        Largest power, ``0 <= k <= 10**4``.
    count : int
        Draws, ``1 <= count <= 10**5``, ``count * n * n <= 2**24``.
    field : {"real", "complex"}
        O(n) or U(n).
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        The matrices' streams; the probes come from the next block streams.

    Returns
    -------
    HaarRounding
        ``deviation``, ``bound``, ``defect`` per draw.

    Raises
    ------
    TypeError, ValueError
        An argument out of range or of the wrong kind (named).

    Examples
    --------
    >>> r = haar_rounding(32, 20, 8, seed=1)
    >>> bool(np.all(r.deviation <= r.bound)), bool(np.all(r.bound < 1e-10))
    (True, True)
    """
    n = as_int("n", n, minimum=1, maximum=MAX_N)
    k = as_int("k", k, minimum=0, maximum=10**4)
    count = as_int("count", count, minimum=1, maximum=min(10**5, (1 << 24) // (n * n)))
    field = as_choice("field", field, FIELDS)
    ss = as_seed_sequence(seed)
    W = sample_haar(n, count, field=field, seed=ss)
    probes = _block_rng(ss, 1 + count).standard_normal((count, n, 2 if field == "complex" else 1))
    v = probes[..., 0] + 1j * probes[..., 1] if field == "complex" else probes[..., 0]
    norm0 = np.sum(np.abs(v) ** 2, axis=1)
    dev = np.zeros(count)
    for _ in range(k):
        v = np.einsum("cij,cj->ci", W, v)
        dev = np.maximum(dev, np.abs(np.sum(np.abs(v) ** 2, axis=1) / norm0 - 1.0))
    gram = np.conj(np.swapaxes(W, 1, 2)) @ W
    defect = np.linalg.norm((gram - np.eye(n)).reshape(count, -1), axis=1)
    return HaarRounding(dev, _energy_bound(n, k, defect), defect, n, k, field)
