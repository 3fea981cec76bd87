r"""Monte Carlo of linear recurrences with structured initialisations: means and variances over weight draws.

The independent route to :mod:`theory.structured_init` (it never calls the closed forms). One sample is one
weight draw W of the law ``init`` (:class:`theory.structured_init.OrthogonalInit`, ``RingInit``,
``RotationBlocksInit``, ``IdentityNoiseInit``), drawn by the law's own recipe:

* Haar: :func:`numerics.signal_propagation.haar.sample_haar` (QR with the sign fix);
* ring: the LRU paper's parametrisation (Orvieto et al. 2023, arXiv:2303.06349, Lemma 3.2 and its code):
  ``u_1, u_2 ~ U[0, 1)``, ``nu = -log(u_1 (r_max^2 - r_min^2) + r_min^2) / 2``, ``theta = theta_max u_2``,
  ``lambda = exp(-nu + i theta)``, ``gamma = sqrt(1 - |lambda|^2)`` (gamma_norm) or 1;
* rotation blocks: the same ``(r, theta)`` per 2 x 2 block ``r R(theta)``;
* identity plus noise: ``alpha I + beta G / sqrt(n)`` with G from
  :func:`numerics.signal_propagation.ginibre.sample_ginibre`.

Per draw, for depths ``0..t``:

* the **per-network energies** (the energy given W, averaged over the inputs): ``e_k = ||W^k Gamma||_F^2 / n``
  (``Gamma = diag(gamma)``; by repeated products ``P_k = W P_{k-1}``, complex powers ``lambda^k`` for the
  diagonal laws) and their running sums ``s_t = sum_{k<=t} e_k`` (the driven energy given W);
* the **driven recurrence itself** with one input sequence: ``h(t) = W h(t-1) + Gamma x(t)``, ``h(-1) = 0``,
  fresh standard Gaussian inputs (complex when W is, ``E x x^* = I``), ``d_t = ||h(t)||^2 / n``.

Over the draws: means with standard errors (sample sd over ``sqrt(samples)``), and the sample variances of
``e_k``, ``s_t`` and ``d_t`` with standard errors by the delta method, ``se(s^2)^2 = (m_4 - s^4 (N-3)/(N-1)) / N``
(``m_4`` the fourth central sample moment; Cramer 1946, Sec. 27.4), all from the same run. Draw i uses the
block stream ``i // BLOCK`` of :func:`numerics.signal_propagation.ginibre.block_rng` (weights, then inputs), so
the results are reproducible and the first draws of a longer run are those of a shorter one.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from tqdm import tqdm

from theory._args import as_int, as_seed_sequence, check_budget, MAX_LENGTH
from theory.structured_init import IdentityNoiseInit, OrthogonalInit, RingInit, RotationBlocksInit, as_init

from .ginibre import BLOCK, MAX_N, _block_rng, _fill_gaussian, sample_ginibre
from .haar import sample_haar

__all__ = ["StructuredEstimate", "sample_init", "estimate_structured", "MAX_N_DIAGONAL", "MAX_T", "MAX_WORK"]

MAX_N_DIAGONAL = 1 << 16     # diagonal laws: a block holds a few BLOCK x n complex arrays (32 MiB each)
MAX_T = 10**4
MAX_WORK = 2e11              # multiply-adds of one call (minutes): refused beyond
_PROGRESS_WORK = 2e9


@dataclasses.dataclass(frozen=True)
class StructuredEstimate:
    """Monte Carlo over weight draws (module docstring), arrays over depths ``0..t``.

    Returned by :func:`estimate_structured`, not built by hand.

    Parameters
    ----------
    init : law
        The initialisation law (:mod:`theory.structured_init`).
    n, t, samples : int
        Width, last depth, weight draws.
    Q_mean, Q_se, Q_var, Q_var_se : numpy.ndarray
        The per-network energy ``e_k = ||W^k Gamma||_F^2 / n``: mean over draws and its standard error, variance
        over draws and its standard error (delta method).
    S_mean, S_se, S_var, S_var_se : numpy.ndarray
        The same for its running sum ``s_t = sum_{k<=t} e_k`` (the driven energy given W).
    driven_mean, driven_se, driven_var, driven_var_se : numpy.ndarray
        The same for the recurrence run with one Gaussian input sequence per draw, ``||h(t)||^2 / n``.

    Returns
    -------
    StructuredEstimate
        A frozen record.

    Examples
    --------
    >>> r = estimate_structured(4, 2, 64, "ring", seed=0)
    >>> r.Q_mean.shape, r.samples
    ((3,), 64)
    """

    init: object
    n: int
    t: int
    samples: int
    Q_mean: np.ndarray
    Q_se: np.ndarray
    Q_var: np.ndarray
    Q_var_se: np.ndarray
    S_mean: np.ndarray
    S_se: np.ndarray
    S_var: np.ndarray
    S_var_se: np.ndarray
    driven_mean: np.ndarray
    driven_se: np.ndarray
    driven_var: np.ndarray
    driven_var_se: np.ndarray


def _is_complex(init) -> bool:
    return (isinstance(init, RingInit) and not isinstance(init, RotationBlocksInit)) or (
        isinstance(init, (OrthogonalInit, IdentityNoiseInit)) and init.field == "complex")


def _ring_draw(rng: np.random.Generator, count: int, m: int, init: RingInit):
    """``(r, theta, gamma)`` arrays (count, m) by the LRU's recipe (module docstring)."""
    a, b = float(init.a), float(init.b)
    u1, u2 = rng.random((2, count, m))
    with np.errstate(divide="ignore"):
        nu = -0.5 * np.log(u1 * (b - a) + a)
    r = np.exp(-nu)
    gamma = np.sqrt(np.maximum(1.0 - r * r, 0.0)) if init.gamma_norm else np.ones_like(r)
    return r, init.theta_max * u2, gamma


def _dense(rng: np.random.Generator, count: int, n: int, init) -> np.ndarray:
    """Dense weights of one block (Haar, identity plus noise)."""
    seed = np.random.SeedSequence(int(rng.integers(0, 2**63)))
    if isinstance(init, OrthogonalInit):
        return sample_haar(n, count, field=init.field, seed=seed)
    G = sample_ginibre(n, count, field=init.field, seed=seed)
    return float(init.beta) * G + float(init.alpha) * np.eye(n)


def _inputs(rng: np.random.Generator, shape: tuple, complex_: bool) -> np.ndarray:
    x = np.empty(shape, dtype=np.complex128 if complex_ else np.float64)
    _fill_gaussian(rng, x, "complex" if complex_ else "real", 1.0)
    return x


def _block_values(rng: np.random.Generator, count: int, n: int, t: int, init) -> np.ndarray:
    """Per-draw ``[e_0..e_t, d_0..d_t]`` of one block, shape (count, 2 (t + 1))."""
    out = np.empty((count, 2 * (t + 1)))
    cplx = _is_complex(init)
    if isinstance(init, RingInit):
        blocks = isinstance(init, RotationBlocksInit)
        r, theta, gamma = _ring_draw(rng, count, n // 2 if blocks else n, init)
        lam = r * np.exp(1j * theta)                   # a block acts on its plane as lambda on C = R^2
        copies = 2 if blocks else 1
        p = gamma.astype(np.complex128)
        h = np.zeros_like(p)
        for k in range(t + 1):
            out[:, k] = copies * np.sum(np.abs(p) ** 2, axis=1) / n
            x = _inputs(rng, (count, n), cplx)         # step k's input, drawn after step k-1's
            if blocks:                                 # the plane of block b: coordinates (2b, 2b + 1)
                x = x[:, 0::2] + 1j * x[:, 1::2]
            h = lam * h + gamma * x
            out[:, t + 1 + k] = np.sum(np.abs(h) ** 2, axis=1) / n
            p = p * lam
        return out
    W = _dense(rng, count, n, init)
    P = np.broadcast_to(np.eye(n, dtype=W.dtype), W.shape).copy()
    h = np.zeros((count, n), dtype=W.dtype)
    for k in range(t + 1):
        out[:, k] = np.sum(np.abs(P) ** 2, axis=(1, 2)) / n
        h = np.einsum("cij,cj->ci", W, h) + _inputs(rng, (count, n), cplx)
        out[:, t + 1 + k] = np.sum(np.abs(h) ** 2, axis=1) / n
        if k < t:
            P = W @ P
    return out


def _moments(values: np.ndarray):
    """Mean, its se, the sample variance and its delta-method se, per column."""
    N = values.shape[0]
    mean = values.mean(axis=0)
    dev = values - mean
    var = np.sum(dev ** 2, axis=0) / (N - 1)
    m4 = np.mean(dev ** 4, axis=0)
    var_se = np.sqrt(np.maximum(m4 - var ** 2 * (N - 3) / (N - 1), 0.0) / N)
    return mean, np.sqrt(var / N), var, var_se


def sample_init(n: int, count: int, init, *, seed=0) -> np.ndarray:
    r"""Draw ``count`` dense n x n weight matrices of a structured law (the recipes of the module docstring).

    Ring draws are ``diag(lambda)`` (complex); rotation blocks the real block-diagonal matrix of the
    ``r_b R(theta_b)``. The input normalisation ``gamma`` of a normalised ring is not part of W (it multiplies
    the input; :func:`estimate_structured` applies it).

    Parameters
    ----------
    n : int
        Width, ``1 <= n <= MAX_N`` (256; even for rotation blocks).
    count : int
        Matrices, ``count * n * n <= 2**24``.
    init : law or str
        :func:`theory.structured_init.as_init`.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        Block streams as in :mod:`numerics.signal_propagation.ginibre`.

    Returns
    -------
    numpy.ndarray
        Shape ``(count, n, n)``.

    Raises
    ------
    TypeError, ValueError
        An argument out of range or of the wrong kind (named).

    Examples
    --------
    >>> W = sample_init(4, 3, "ring:r_min=0.5,r_max=0.9", seed=1)
    >>> r = np.abs(np.diagonal(W, axis1=1, axis2=2))
    >>> W.dtype, bool(np.all((r >= 0.5) & (r <= 0.9))), bool(np.count_nonzero(W[0] - np.diag(np.diag(W[0]))) == 0)
    (dtype('complex128'), True, True)
    >>> B = sample_init(4, 1, "rotation-blocks", seed=2)[0]
    >>> bool(np.allclose(B[:2, :2].T @ B[:2, :2], np.linalg.det(B[:2, :2]) * np.eye(2)))   # r^2 times a rotation
    True
    """
    init = as_init(init)
    n = as_int("n", n, minimum=1, maximum=MAX_N)
    count = as_int("count", count, minimum=0, maximum=MAX_LENGTH // (n * n))
    if isinstance(init, RotationBlocksInit) and n % 2:
        raise ValueError(f"n must be even for rotation blocks (2 x 2 blocks), got n={n}")
    ss = as_seed_sequence(seed)
    parts = []
    for b in range(-(-count // BLOCK)):
        rng, size = _block_rng(ss, b), min(BLOCK, count - b * BLOCK)
        if not isinstance(init, RingInit):
            parts.append(_dense(rng, size, n, init))
            continue
        blocks = isinstance(init, RotationBlocksInit)
        r, theta, _ = _ring_draw(rng, size, n // 2 if blocks else n, init)
        if not blocks:
            parts.append(np.einsum("cj,jk->cjk", r * np.exp(1j * theta), np.eye(n)))
            continue
        W = np.zeros((size, n, n))
        c, s = r * np.cos(theta), r * np.sin(theta)
        idx = np.arange(0, n, 2)
        W[:, idx, idx], W[:, idx, idx + 1], W[:, idx + 1, idx], W[:, idx + 1, idx + 1] = c, -s, s, c
        parts.append(W)
    dtype = np.complex128 if _is_complex(init) else np.float64
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.empty((0, n, n), dtype=dtype)


def estimate_structured(n: int, t: int, samples: int, init, *, seed=0, progress: bool | None = None
                        ) -> StructuredEstimate:
    r"""Monte Carlo of the energies of a structured initialisation and of their variance over weight draws.

    Estimates (module docstring) of ``Q_k`` (``Q_mean``), ``S_t`` (``S_mean`` and, through the recurrence
    with inputs, ``driven_mean``) and of the variance over draws of the per-network energies (``Q_var``,
    ``S_var``), each with its standard error from the same run: the numbers that
    :func:`theory.structured_init.Q_structured`, :func:`~theory.structured_init.S_structured` and
    :func:`~theory.structured_init.structured_variance` predict.

    Parameters
    ----------
    n : int
        Width: ``1 <= n <= MAX_N`` (256) for dense laws (Haar, identity plus noise), ``<= MAX_N_DIAGONAL`` for
        the ring and rotation blocks (``n`` even).
    t : int
        Last depth, ``0 <= t <= MAX_T``.
    samples : int
        Weight draws, ``4 <= samples <= 10**7``; ``samples (t + 1) <= 2**24`` (the per-draw values are kept).
    init : law or str
        :func:`theory.structured_init.as_init`.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        The random stream.
    progress : bool, optional
        A tqdm bar over the blocks (None: only for long runs).

    Returns
    -------
    StructuredEstimate
        Means, variances and their standard errors over depths ``0..t``.

    Raises
    ------
    TypeError, ValueError
        An argument out of range or of the wrong kind (named); more than ``MAX_WORK`` operations.

    Examples
    --------
    >>> r = estimate_structured(16, 3, 400, "orthogonal", seed=1)
    >>> float(abs(r.Q_mean - 1).max()) < 1e-13, bool(abs(r.driven_mean[3] - 4) < 5 * r.driven_se[3])
    (True, True)
    """
    init = as_init(init)
    dense = not isinstance(init, RingInit)
    n = as_int("n", n, minimum=1, maximum=MAX_N if dense else MAX_N_DIAGONAL)
    if isinstance(init, RotationBlocksInit) and n % 2:
        raise ValueError(f"n must be even for rotation blocks (2 x 2 blocks), got n={n}")
    t = as_int("t", t, minimum=0, maximum=MAX_T)
    samples = as_int("samples", samples, minimum=4, maximum=min(10**7, (1 << 24) // (t + 1)))
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None (auto), got {progress!r}")
    work = samples * (t + 1) * (2.0 * n ** 3 + 2.0 * n * n if dense else 8.0 * n)
    check_budget("samples * (t + 1) * cost per step", work, MAX_WORK, unit="operations")
    ss = as_seed_sequence(seed)
    blocks = -(-samples // BLOCK)
    show = work > _PROGRESS_WORK if progress is None else progress
    values = np.concatenate([
        _block_values(_block_rng(ss, b), min(BLOCK, samples - b * BLOCK), n, t, init)
        for b in tqdm(range(blocks), desc=f"structured n={n} t={t}", unit="block", disable=not show, leave=False)])
    e, d = values[:, :t + 1], values[:, t + 1:]
    q, s, dr = _moments(e), _moments(np.cumsum(e, axis=1)), _moments(d)
    if not all(np.all(np.isfinite(x)) for x in (*q, *s, *dr)):
        raise ValueError(f"t={t} is too deep for these weights: the energies overflow float64; lower t")
    return StructuredEstimate(init, n, t, samples, *q, *s, *dr)
