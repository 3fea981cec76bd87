r"""Monte Carlo of the real-weight energies ``Q^R_{n,k}`` and ``S^R_{n,k}`` at widths beyond the exact-trace estimator.

Quantity: ``Q^R_{n,k} = E tr((W^k)^T W^k) / n`` and ``S^R_{n,k} = sum_{j<=k} Q^R_{n,j}`` for ``W = G / sqrt(n)``,
``G`` an ``n x n`` matrix with iid ``N(0, 1)`` entries (real weights of Seleznova 2026, arXiv:2605.05113,
Sec. 2). The independent route to the numbers that :mod:`theory.real_expansion` computes from exact rows and
its large-n expansion: it shares nothing with them.

Estimator: per draw a fresh ``G`` and a block of ``probes`` Gaussian vectors ``X`` (``n x probes``, iid
``N(0, 1)``), and ``||W^k X||_F^2 / (n probes)`` for ``k = 0..t`` (``E X X^T = probes I``, so each is unbiased
for ``Q^R_{n,k}``); its running sum over k is unbiased for ``S^R_{n,k}``. Cost per draw: ``n^2`` normals and
``t`` products of ``W`` with an ``n x probes`` block (``2 n^2 probes t`` flops), so widths in the thousands are
affordable where the full trace (``t`` matrix products, :func:`numerics.signal_propagation.ginibre.estimate_Q`, ``n <= 256``) is
not. Standard errors: the sample standard deviation over draws divided by ``sqrt(samples)``, from the same
run. Each draw has its own random stream (``SeedSequence(seed).spawn``), so results do not depend on any
blocking. The per-draw values are heavy-tailed once ``c = k / sqrt(n)`` exceeds about 2 (rare draws with a
real eigenvalue far out dominate): the validation checks use it for ``c <= 2.2`` and say so.

``init=``: the entries of ``G`` drawn iid from another symmetric law of variance 1
(:mod:`theory.init_laws`, sampled by :mod:`numerics.signal_propagation.law_sampling`): the Monte Carlo side of
:func:`theory.init_laws.energy.Q_law`. Heavy-tailed laws (sparse with small ``n p``, Student t) make the per-draw
values heavier-tailed still; the standard errors come from the same run, as always.
"""

from __future__ import annotations

import dataclasses
import math
import sys

import numpy as np
from tqdm import tqdm

from numerics.signal_propagation.law_sampling import has_sampler, sample_entries
from theory._args import as_int, as_seed_sequence, check_budget
from theory.init_laws.laws import as_law

__all__ = ["RealEnergyMC", "real_energy_mc", "MAX_N_MC", "MAX_T_MC"]

MAX_N_MC = 8192           # one draw holds G: 8192^2 doubles = 512 MiB
MAX_T_MC = 10**4
MAX_WORK = 1e14           # flops of one call (about a day of one core): refused beyond
_PROGRESS_WORK = 2e10     # progress=None shows a bar beyond this much work (a few seconds)


@dataclasses.dataclass(frozen=True)
class RealEnergyMC:
    """Monte Carlo means and standard errors of ``Q^R_{n,k}`` and ``S^R_{n,k}``, ``k = 0..t`` (arrays of length t + 1)."""

    n: int
    t: int
    samples: int
    probes: int
    seed: int
    Q_mean: np.ndarray
    Q_se: np.ndarray
    S_mean: np.ndarray
    S_se: np.ndarray
    init: str | None = None


def real_energy_mc(n, t, samples, *, probes: int = 8, seed: int = 0, progress: bool | None = None,
                   init=None) -> RealEnergyMC:
    r"""Monte Carlo of ``Q^R_{n,k}`` and ``S^R_{n,k}``, ``k = 0..t``, with probe blocks (module docstring).

    Parameters
    ----------
    n : int
        Width, ``1 <= n <= MAX_N_MC``.
    t : int
        Largest depth, ``0 <= t <= MAX_T_MC``.
    samples : int
        Weight draws, ``2 <= samples <= 10^6``.
    probes : int
        Gaussian probe vectors per draw, ``1 <= probes <= 256``.
    seed : int
        ``>= 0``; draw i uses the i-th child of ``SeedSequence(seed)``.
    progress : bool, optional
        A tqdm bar over the draws (None: only for runs above a few seconds of work).
    init : Law or str, optional
        The law of the entries of ``G`` (:func:`theory.init_laws.laws.as_law`: "uniform", "rademacher",
        "sparse:0.05", "student:6", ...); None: ``N(0, 1)`` (the same draws as before ``init`` existed).

    Returns
    -------
    RealEnergyMC
        ``Q_mean``, ``Q_se``, ``S_mean``, ``S_se`` (length ``t + 1``; ``Q_mean[0] = 1`` up to the probes'
        own fluctuation).

    Raises
    ------
    TypeError
        A non-integer argument.
    ValueError
        A value out of range, more than ``MAX_WORK`` flops, or a depth ``t`` where the energies overflow
        float64.

    Examples
    --------
    >>> r = real_energy_mc(16, 3, 400, seed=1)
    >>> bool(abs(r.Q_mean[2] - (1 + 2 / 16**2)) < 5 * r.Q_se[2])   # Q^R_{16,2} = 1 + 2/n^2 (the row n^3 + 2n)
    True
    """
    n = as_int("n", n, minimum=1, maximum=MAX_N_MC)
    t = as_int("t", t, minimum=0, maximum=MAX_T_MC)
    samples = as_int("samples", samples, minimum=2, maximum=10**6)
    probes = as_int("probes", probes, minimum=1, maximum=256)
    seed = as_int("seed", seed, minimum=0)
    law = None if init is None else as_law(init, name="init")
    if law is not None and not has_sampler(law):
        raise ValueError(f"init={law.name} is given by its moments only: Monte Carlo needs a named law")
    work = samples * (2.0 * n * n * probes * t + 20.0 * n * n)
    check_budget("samples * (2 n^2 probes t + 20 n^2)", work, MAX_WORK, unit="flops")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None (auto), got {progress!r}")
    show = work > _PROGRESS_WORK if progress is None else progress
    children = as_seed_sequence(seed).spawn(samples)
    # Welford's running mean and sum of squared deviations (no cancellation of large, close values)
    mean, m2 = np.zeros((2, t + 1)), np.zeros((2, t + 1))
    scale = 1.0 / math.sqrt(n)
    for i, child in enumerate(tqdm(children, desc=f"real energies n={n} t={t}", unit="draw", disable=not show,
                                   leave=False, file=sys.stderr)):
        rng = np.random.default_rng(child)
        G = rng.standard_normal((n, n)) if law is None else sample_entries(law, (n, n), rng)
        Y = rng.standard_normal((n, probes))
        q = np.empty(t + 1)
        for k in range(t + 1):
            q[k] = float(np.einsum("ij,ij->", Y, Y)) / (n * probes)
            if k < t:
                Y = (G @ Y) * scale
        with np.errstate(over="ignore", invalid="ignore"):     # an overflow is reported once, below
            x = np.stack([q, np.cumsum(q)])
            delta = x - mean
            mean += delta / (i + 1)
            m2 += delta * (x - mean)
    with np.errstate(invalid="ignore", over="ignore"):
        se = np.sqrt(m2 / (samples - 1) / samples)
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(se))):
        # the energies grow like exp(t^2/2n): deep enough, a draw (or its square) overflows float64
        raise ValueError(f"t={t} is too deep at n={n}: the energies or their spread overflow float64 "
                         f"(first at depth {int(np.argmin(np.all(np.isfinite(np.vstack([mean, se])), axis=0)))}); "
                         "lower t")
    qm, sm, qs, ss = mean[0], mean[1], se[0], se[1]
    return RealEnergyMC(n=n, t=t, samples=samples, probes=probes, seed=seed, Q_mean=qm, Q_se=qs, S_mean=sm, S_se=ss,
                        init=None if law is None else law.name)
