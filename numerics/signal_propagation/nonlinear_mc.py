r"""Monte Carlo of nonlinear recurrences with tied Gaussian weights at finite width.

The model of :mod:`theory.nonlinear` (``h_t = phi(W h_{t-1})``, ``h_0 ~ N(0, I_n)``, or the driven
``h_t = phi(W h_{t-1} + x_t)``, ``h_{-1} = 0``; ``W`` iid ``N(0, sigma^2 / n)``, the same at every step), one
:class:`theory.nonlinear.Recurrence` per case. The independent route to the finite-width energy
``E ||h_t||^2 / n``: the recurrence itself, nothing of the mean field.

Estimator: per draw a fresh ``W`` and ``probes`` independent trajectories (``probes`` initial vectors ``h_0``,
or ``probes`` input sequences), the value ``mean_probes ||h_t||^2 / n`` for ``t = 0..t``; it is unbiased for the
energy. The draws are iid, so the mean over ``samples`` draws has the standard error ``sd / sqrt(samples)``
from the same run (the probes of one draw share ``W``: they are averaged first). Several recurrences run on
the same draws (:func:`nonlinear_energies_mc`): one matrix product ``W_0 @ H`` per step serves all of them
(``W = sigma W_0``, ``H`` the ``n x (cases * probes)`` block of states) and they share the random numbers
(``h_0`` for the free ones, the inputs for the driven ones): common random numbers, so their comparisons are
sharper; each case's numbers are the same draws whatever else runs with it.

Randomness and reproducibility: draw ``i`` has its own streams, the children ``(i, 0)`` (the matrix), ``(i, 1)``
(the ``h_0``) and ``(i, 2)`` (the inputs) of ``SeedSequence(seed)`` (``SeedSequence(seed).spawn(samples)[i]
.spawn(3)``, built from the spawn keys so that a caller's SeedSequence is not advanced). The per-draw values
are combined in draw order (Welford). The only multi-threaded operation is the BLAS matrix product, whose
entries are each summed by one thread in a fixed order (OpenBLAS partitions the output, never the inner
dimension), so the results are **bit-identical for any BLAS thread count** (``tests/test_nonlinear.py`` runs
``OPENBLAS_NUM_THREADS=1`` and ``2`` and compares the bytes). Cost per draw: ``n^2`` normals and ``t`` products
``(n x n) (n x cases*probes)`` (``2 n^2 cases probes t`` flops), plus Python's overhead (about 100 us a draw
and 15 us a step and case, which dominate below n of about 30; the budget counts them as flops at 1 Gflop/s);
the working set is ``W`` (``8 n^2`` bytes).
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Sequence

import numpy as np
from tqdm import tqdm

from theory._args import MAX_MEMORY_BYTES, as_bool, as_instance, as_int, as_seed_sequence, check_budget
from theory.nonlinear import Recurrence, mean_field_profile

__all__ = ["NonlinearMC", "nonlinear_energies_mc", "nonlinear_energy_mc", "MAX_N_MC", "MAX_T_MC", "MAX_PROBES",
           "MAX_CASES", "MAX_WORK"]

MAX_N_MC = 8192           # W: 8192^2 doubles = 512 MiB
MAX_T_MC = 10**4
MAX_PROBES = 1024
MAX_CASES = 64
MAX_WORK = 1e14           # flops of one call (about a day of one core): refused beyond
_PROGRESS_WORK = 2e10     # progress=None shows a bar beyond this much work (a few seconds)
# Python's own time per draw (its seeds and generators, ~100 us) and per step and case (~15 us), counted as flops at
# 1 Gflop/s so that the budget and the progress bar see it: at n = 8 it is nearly all of the time (measured
# 2026-12-06: 116 us a draw at n = 8, t = 2; 800 us at t = 50), where the flops alone promised microseconds
_DRAW_OVERHEAD, _STEP_OVERHEAD = 1e5, 1.5e4


def _work(n: int, t: int, samples: int, cases: int, probes: int) -> float:
    """A call's cost in flops: the products and normals of every draw plus its Python overhead (as flops)."""
    return samples * (2.0 * n * n * cases * probes * t + 20.0 * n * n + _DRAW_OVERHEAD + _STEP_OVERHEAD * cases * t)


@dataclasses.dataclass(frozen=True)
class NonlinearMC:
    """Monte Carlo of ``E ||h_t||^2 / n``, ``t = 0..t``, for one :class:`theory.nonlinear.Recurrence`.

    ``mean``, ``se``: arrays of length ``t + 1`` (se: sd over draws / sqrt(samples), same run); ``draws``: the
    per-draw values (``samples x (t + 1)``, each the mean over the draw's probes) when asked for
    (``keep_draws=True``), else None.
    """

    recurrence: Recurrence
    n: int
    t: int
    samples: int
    probes: int
    seed: object
    mean: np.ndarray
    se: np.ndarray
    draws: np.ndarray | None = None

    def deviation(self) -> tuple[np.ndarray, np.ndarray]:
        """The deviation profile ``mean / q - 1`` and its standard error ``se / q``, with ``q`` the mean field of
        :func:`theory.nonlinear.mean_field_profile` (float): relative, so a profile that decays to 0 (tanh at
        ``sigma <= 1``) keeps its meaning.

        >>> r = nonlinear_energy_mc(16, 2, 64, phi="relu", sigma=2 ** 0.5, seed=1)
        >>> d, s = r.deviation()
        >>> d.shape, bool(np.all(s > 0))
        ((3,), True)
        """
        rec = self.recurrence
        q = mean_field_profile(self.t, rec.phi, rec.sigma, driven=rec.driven)
        return self.mean / q - 1.0, self.se / q


def _stream(ss: np.random.SeedSequence, draw: int, part: int) -> np.random.Generator:
    """Child ``(draw, part)`` of ``ss`` (``ss.spawn(...)[draw].spawn(...)[part]``) without advancing ``ss``."""
    return np.random.default_rng(np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key + (draw, part),
                                                        pool_size=ss.pool_size))


def _apply(phi: str, block: np.ndarray) -> None:
    """``block = phi(block)`` in place."""
    if phi == "tanh":
        np.tanh(block, out=block)
    elif phi == "relu":
        np.maximum(block, 0.0, out=block)


def _one_draw(n: int, t: int, recs: tuple, probes: int, ss, i: int) -> np.ndarray:
    """The per-draw values ``(cases, t + 1)`` of draw ``i``: one ``W``, ``probes`` trajectories per case."""
    W0 = _stream(ss, i, 0).standard_normal((n, n))
    W0 *= 1.0 / math.sqrt(n)
    R, P = len(recs), probes
    H = np.empty((n, R * P))
    driven = [r.driven for r in recs]
    Z = _stream(ss, i, 1).standard_normal((n, P)) if not all(driven) else None
    rx = _stream(ss, i, 2) if any(driven) else None
    x = rx.standard_normal((n, P)) if rx is not None else None
    for j, r in enumerate(recs):
        block = H[:, j * P:(j + 1) * P]
        block[...] = x if r.driven else Z
        if r.driven:
            _apply(r.phi, block)
    out = np.empty((R, t + 1))
    out[:, 0] = np.einsum("ij,ij->j", H, H).reshape(R, P).mean(axis=1) / n
    for k in range(1, t + 1):
        Y = W0 @ H
        if rx is not None:
            x = rx.standard_normal((n, P))
        for j, r in enumerate(recs):
            block = Y[:, j * P:(j + 1) * P]
            block *= r.sigma
            if r.driven:
                block += x
            _apply(r.phi, block)
        H = Y
        out[:, k] = np.einsum("ij,ij->j", H, H).reshape(R, P).mean(axis=1) / n
    return out


def nonlinear_energies_mc(n, t, samples, recurrences, *, probes: int = 8, seed=0, progress: bool | None = None,
                          keep_draws: bool = False) -> list[NonlinearMC]:
    r"""Monte Carlo of ``E ||h_t||^2 / n``, ``t = 0..t``, for several recurrences on the same weight draws.

    Module docstring: the estimator, the shared draws, the seeding and the bit-identity for any BLAS thread
    count. Source of the model: :mod:`theory.nonlinear` (whose mean field this never calls).

    Parameters
    ----------
    n : int
        Width, ``1 <= n <= MAX_N_MC`` (8192).
    t : int
        Last depth, ``0 <= t <= MAX_T_MC`` (1e4).
    samples : int
        Weight draws, ``2 <= samples <= 10^6``.
    recurrences : sequence of theory.nonlinear.Recurrence
        The cases, ``1..MAX_CASES`` (64) of them; all run on each draw's ``W_0`` (``W = sigma W_0``).
    probes : int, default 8
        Trajectories per draw and case, ``1 <= probes <= MAX_PROBES``.
    seed : int or numpy.random.SeedSequence, default 0
        Draw ``i`` uses the children ``(i, 0..2)`` of ``SeedSequence(seed)``.
    progress : bool, optional
        A tqdm bar over the draws (None: only above a few seconds of work).
    keep_draws : bool, default False
        Keep the per-draw values (for a bootstrap over draws).

    Returns
    -------
    list of NonlinearMC
        One per recurrence, in order.

    Raises
    ------
    TypeError
        A non-integer size, a case that is not a Recurrence, a bad seed.
    ValueError
        A value out of range, more than ``MAX_WORK`` flops or ``MAX_MEMORY_BYTES`` of memory, or energies that
        overflow float64 by depth ``t`` (lower t).

    Examples
    --------
    >>> from theory.nonlinear import Recurrence
    >>> a, b = nonlinear_energies_mc(32, 3, 50, [Recurrence("tanh", 1.0), Recurrence("relu", 2 ** 0.5, True)], seed=2)
    >>> a.mean.shape, b.recurrence.driven
    ((4,), True)
    """
    n = as_int("n", n, minimum=1, maximum=MAX_N_MC)
    t = as_int("t", t, minimum=0, maximum=MAX_T_MC)
    samples = as_int("samples", samples, minimum=2, maximum=10**6)
    probes = as_int("probes", probes, minimum=1, maximum=MAX_PROBES)
    if isinstance(recurrences, (str, bytes)) or not isinstance(recurrences, Sequence):
        raise TypeError(f"recurrences must be a sequence of theory.nonlinear.Recurrence, got {recurrences!r:.60}")
    recs = tuple(as_instance("recurrences[]", r, Recurrence) for r in recurrences)
    as_int("len(recurrences)", len(recs), minimum=1, maximum=MAX_CASES)
    ss = as_seed_sequence(seed)
    keep_draws = as_bool("keep_draws", keep_draws)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None (auto), got {progress!r}")
    R = len(recs)
    work = _work(n, t, samples, R, probes)
    check_budget("samples * (2 n^2 cases probes t + 20 n^2 + 1e5 + 1.5e4 cases t)", work, MAX_WORK, unit="flops")
    memory = 8.0 * (n * n + 4 * n * R * probes + (samples if keep_draws else 2) * R * (t + 1))
    check_budget("n^2 + 4 n cases probes + (samples if keep_draws) cases (t + 1)", memory, MAX_MEMORY_BYTES)
    show = work > _PROGRESS_WORK if progress is None else progress
    draws = np.empty((samples, R, t + 1)) if keep_draws else None
    mean, m2 = np.zeros((R, t + 1)), np.zeros((R, t + 1))
    bar = tqdm(range(samples), desc=f"nonlinear n={n} t={t} cases={R}", unit="draw", disable=not show,
               leave=False, file=sys.stderr)
    for i in bar:
        with np.errstate(over="ignore", invalid="ignore"):    # an overflow is reported once, below
            v = _one_draw(n, t, recs, probes, ss, i)
        if draws is not None:
            draws[i] = v
        with np.errstate(over="ignore", invalid="ignore"):     # an overflow is reported once, below
            delta = v - mean
            mean += delta / (i + 1)
            m2 += delta * (v - mean)
    with np.errstate(over="ignore", invalid="ignore"):
        se = np.sqrt(m2 / (samples - 1) / samples)
    ok = np.isfinite(mean) & np.isfinite(se)
    if not ok.all():
        j, k = (int(a[0]) for a in np.nonzero(~ok))
        raise ValueError(f"t={t} is too deep for {recs[j].label} at n={n}: its energies overflow float64 (first at "
                         f"depth {k}); lower t")
    seed_label = seed if isinstance(seed, int) else ss
    return [NonlinearMC(recurrence=r, n=n, t=t, samples=samples, probes=probes, seed=seed_label, mean=mean[j],
                        se=se[j], draws=None if draws is None else draws[:, j, :]) for j, r in enumerate(recs)]


def nonlinear_energy_mc(n, t, samples, *, phi: str = "tanh", sigma: float = 1.0, driven: bool = False,
                        probes: int = 8, seed=0, progress: bool | None = None, keep_draws: bool = False) -> NonlinearMC:
    r"""Monte Carlo of ``E ||h_t||^2 / n``, ``t = 0..t``, for one nonlinear recurrence (:func:`nonlinear_energies_mc`
    with the single case ``Recurrence(phi, sigma, driven)``).

    Parameters
    ----------
    n, t, samples, probes, seed, progress, keep_draws
        As for :func:`nonlinear_energies_mc`.
    phi : {"tanh", "relu", "identity"}
        The activation.
    sigma : float
        Weight scale, ``0 < sigma <= 100``.
    driven : bool
        The driven recurrence.

    Returns
    -------
    NonlinearMC

    Raises
    ------
    TypeError, ValueError
        As for :func:`nonlinear_energies_mc`; a bad ``phi``, ``sigma`` or ``driven`` (named).

    Examples
    --------
    >>> from numerics.stats import z_for_false_alarm
    >>> r = nonlinear_energy_mc(16, 2, 2000, phi="identity", seed=3)
    >>> bool(abs(r.mean[2] - (1 + 2 / 16**2)) <= z_for_false_alarm() * r.se[2])   # Q^R_{16,2} = 1 + 2/n^2
    True
    """
    return nonlinear_energies_mc(n, t, samples, [Recurrence(phi, sigma, driven)], probes=probes, seed=seed,
                                 progress=progress, keep_draws=keep_draws)[0]
