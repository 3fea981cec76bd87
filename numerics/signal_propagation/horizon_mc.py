r"""Initialisation for a horizon with real weights (exact Wick rows, Monte Carlo) and the scaled-recurrence simulator.

The question and the solver are those of :mod:`theory.horizon` (read its docstring: the minimax scale
``sigma`` keeping ``p_j(sigma) = sigma^{2j} Q_{n,j}`` (free) or its running mean (driven) within ``tol`` of
the critical infinite-width value 1 for every depth ``j <= t``); this module supplies the energies that the
closed form does not cover. Source of the energies: Seleznova (2026), arXiv:2605.05113, Sec. 2
(``docs/papers/signal-propagation.md``).

Real weights ``W = sigma G / sqrt(n)``, ``G`` with iid ``N(0, 1)`` entries: no closed form is known, and
``Q^R_{n,k} >= Q_{n,k}`` (coefficient by coefficient). The energies are

* by default those of :mod:`theory.horizon` (no Monte Carlo): exact for ``k <= 60``, ``Q^R_{n,k} = P_k(n) /
  n^(k+1)`` with the committed rows ``P_k`` of :mod:`theory.real_rows` (computed by
  :mod:`numerics.signal_propagation.real_wick_pfaffian`), and the large-n expansion of :mod:`theory.real_expansion` beyond;
* with ``method="mc"`` (the check): exact for ``k <= exact_max_k`` (default and maximum 60) and Monte Carlo
  beyond: the full-trace estimator ``||G^k||_F^2 / n^(k+1)`` (:func:`numerics.signal_propagation.ginibre.estimate_Q`) in
  ``batches`` independent batches; the reported quantities come from the pooled means, and their standard
  errors (``HorizonScale.se``) from the **jackknife over batches** (leave one batch out), which carries the
  strong correlation of the estimates across k (same draws) into sigma.

:func:`simulate_energies` runs the scaled recurrence itself (``h_k = W h_{k-1}`` with the full trace, or the
driven ``h(t) = W h(t-1) + x(t)``) and returns means with standard errors from the same run: the tests use
it to check the sigma that the tool recommends.

"""

from __future__ import annotations

import dataclasses
import math
import sys
from fractions import Fraction

import numpy as np
from tqdm import tqdm

from numerics.signal_propagation.ginibre import MAX_DEPTH, MAX_N, MAX_SAMPLES, _show_progress, estimate_Q, sample_ginibre
from theory import horizon as _th
from theory._args import MAX_LENGTH, Field, Quantity, as_choice, as_int, as_real
from theory.horizon import HorizonScale, scale_from_energies
from theory.real_rows import real_energies as _real_energies
from theory.real_rows import real_rows_max_k

__all__ = ["EXACT_REAL_MAX_K", "real_energies", "mc_energies", "sigma_for_horizon", "depth_with_se",
           "simulate_energies"]

EXACT_REAL_MAX_K = real_rows_max_k()   # the committed exact rows (theory.real_rows), 60
_WICK_MAX_K = EXACT_REAL_MAX_K
_METHODS = ("float", "mp", "mc")
_EXACT_SOURCE = "exact real Wick rows (theory.real_rows)"


def real_energies(n, k) -> list[Fraction]:
    r"""The exact signal energies of a linear recurrence with real Gaussian weights, depths 0 to ``k``.

    ``Q^R_{n,j} = E tr((G^j)^T G^j) / n^(j+1)`` for ``W = G / sqrt(n)``, ``G`` with iid ``N(0, 1)`` entries,
    as exact fractions. Source: Seleznova (2026), arXiv:2605.05113, Sec. 2 (the energies); no closed form is
    known for real weights, so these are the committed exact rows ``P_j`` of :mod:`theory.real_rows`
    (``Q^R_{n,j} = P_j(n) / n^(j+1)``; ``P_2 = n^3 + 2n``, so ``Q^R_{n,2} = 1 + 2/n^2``), computed by
    :mod:`numerics.signal_propagation.real_wick_pfaffian`. Domain: ``n >= 1``, ``0 <= k <= 60`` (the
    rows committed); deeper, :func:`theory.real_expansion.QR` (``seqtheory.QR``) gives ``Q^R_{n,k}`` with an
    error estimate.

    Parameters
    ----------
    n : int
        Width (>= 1).
    k : int
        Deepest power, ``0 <= k <= 60``.

    Returns
    -------
    list of fractions.Fraction
        ``k + 1`` exact values ``Q^R_{n,0}, ..., Q^R_{n,k}`` (``Q^R_{n,0} = Q^R_{n,1} = 1``).

    Raises
    ------
    TypeError
        ``n`` or ``k`` not an integer.
    ValueError
        ``n < 1``, or ``k`` outside ``0..60`` (the message points to ``QR`` for deeper depths).

    Examples
    --------
    >>> real_energies(2, 2)                                       # Q^R_{2,2} = 1 + 2/2^2
    [Fraction(1, 1), Fraction(1, 1), Fraction(3, 2)]
    >>> real_energies(1, 5) == [1, 1, 3, 15, 105, 945]            # n = 1: E g^(2k) = (2k-1)!!
    True
    >>> real_energies(4, 3)[3] == Fraction(4**4 + 10 * 4**2 + 4 * 4, 4**4)   # P_3 = n^4 + 10n^2 + 4n
    True
    """
    return _real_energies(as_int("n", n, minimum=1), k)


def _batch_seeds(seed: int, batches: int) -> list[int]:
    return [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(seed).spawn(batches)]


def mc_energies(n, k, samples, *, field: Field = "complex", seed: int = 0, batches: int = 16,
                progress: bool | None = None, init=None) -> np.ndarray:
    r"""Batch means of the full-trace estimator of ``Q_{n,j}``, j = 0..k: an array of shape ``(batches, k+1)``.

    Each batch is an independent :func:`numerics.signal_propagation.ginibre.estimate_Q` run of ``samples // batches`` draws
    (seeds spawned from ``seed``); the pooled estimate is the mean over rows. Domain: ``n >= 1``,
    ``k >= 0``, ``samples >= 2 * batches``, ``batches >= 2``, ``field`` in ("complex", "real"); the bounds of
    :func:`numerics.signal_propagation.ginibre.estimate_Q` (``n <= MAX_N``, ``k <= MAX_DEPTH``, ``samples <= MAX_SAMPLES``).
    ``progress``: a tqdm bar over the batches (``None``: only for more than a few seconds of matrix products).
    ``init``: iid entries of another law (:mod:`theory.init_laws`; real entries, ``field`` is then not used).

    >>> m = mc_energies(4, 2, 64, field="real", batches=4)
    >>> m.shape, bool(np.all(m[:, 0] == 1.0))
    ((4, 3), True)
    """
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0, maximum=MAX_DEPTH)
    samples = as_int("samples", samples, minimum=4, maximum=MAX_SAMPLES)
    batches = as_int("batches", batches, minimum=2)
    if samples < 2 * batches:      # a joint condition: name both
        raise ValueError(f"samples must be >= 2 * batches (two draws per batch), got samples={samples}, "
                         f"batches={batches}")
    field = as_choice("field", field, ("complex", "real"))
    seed = as_int("seed", seed, minimum=0)
    per = samples // batches
    show = _show_progress(progress, mc_flops(n, k, samples, field))
    bar = tqdm(_batch_seeds(seed, batches), desc=f"Monte Carlo energies n={n} k={k}", unit="batch", disable=not show,
               leave=False, file=sys.stderr)
    if init is not None:
        field = "real"                  # the law's entries are real
    return np.array([estimate_Q(n, k, per, field=field, seed=s, progress=False, init=init).mean for s in bar])


def mc_flops(n: int, k: int, samples: int, field: str) -> float:
    """Floating-point work of :func:`mc_energies` (``k - 1`` products of n x n matrices per draw): above
    ``numerics.signal_propagation.ginibre``'s progress threshold (a few seconds) the automatic progress bar shows."""
    return 2.0 * (4 if field == "complex" else 1) * n**3 * max(k - 1, 0) * samples


_SE_FIELDS = ("sigma", "deviation", "sigma_low", "sigma_high", "sigma_endpoint", "glorot_deviation")


def _jackknife(point: HorizonScale, reps: list[HorizonScale]) -> dict:
    B = len(reps)
    se = {}
    for name in _SE_FIELDS:
        vals = [getattr(r, name) for r in reps]
        if getattr(point, name) is None or any(v is None for v in vals):
            continue            # the feasible interval exists in some replicates only: no se
        v = np.array(vals, dtype=float)
        se[name] = float(math.sqrt((B - 1) / B * np.sum((v - v.mean()) ** 2)))
    return se


def _from_batches(exact_prefix: list, batch_means: np.ndarray, tol, quantity, n, field, source) -> HorizonScale:
    """Splice exact energies (k < len(exact_prefix)) and pooled MC means; jackknife se over batches."""
    k0 = len(exact_prefix)
    B = batch_means.shape[0]

    def solve(mc_row):
        E = np.concatenate([np.array([float(e) for e in exact_prefix]), mc_row[k0:]])
        return scale_from_energies(("log", np.log(E)), tol, quantity=quantity, n=n, field=field, source=source)

    point = solve(batch_means.mean(axis=0))
    reps = [solve(np.delete(batch_means, b, axis=0).mean(axis=0)) for b in range(B)]
    return dataclasses.replace(point, se=_jackknife(point, reps))


def sigma_for_horizon(n, t, tol, *, quantity: Quantity = "S", field: Field = "complex", method: str = "float",
                      dps: int | None = None, samples: int = 4096, batches: int = 16, seed: int = 0,
                      exact_max_k: int = EXACT_REAL_MAX_K, progress: bool | None = None, init=None) -> HorizonScale:
    r"""The weight scale ``sigma`` that keeps the energies within ``tol`` of 1 up to depth ``t``, for complex
    **and real** weights (:func:`theory.horizon.sigma_for_horizon` extended).

    * ``field="complex"``, ``method`` "float"/"mp": the closed forms (delegated to theory);
      ``method="mc"``: Monte Carlo energies for every ``k >= 1`` (a check of the MC path).
    * ``field="real"``, ``method`` "float" or "mp": theory's real energies (exact rows, the large-n
      expansion beyond; :func:`theory.horizon.sigma_for_horizon`); ``method="mc"``: exact rows up to
      ``exact_max_k`` and Monte Carlo beyond (``samples`` draws in ``batches`` batches, ``seed``);
      ``result.se`` holds jackknife standard errors.
    * ``progress``: the Monte Carlo's bar (:func:`mc_energies`; ``None``: only for long runs).

    Domain: as theory's, plus ``0 <= exact_max_k <= 60``, ``samples >= 2 batches``. With ``method="mc"`` and
    real weights at ``t <= exact_max_k`` the exact rows cover the horizon: no Monte Carlo runs, and the
    answer's ``method`` is ``"exact"`` with a source that says so.

    Parameters
    ----------
    n : int
        Width (>= 1).
    t : int
        Horizon: the depth to reach (>= 1).
    tol : float
        Tolerance on ``|p_j(sigma) - 1|`` for every ``j <= t``, in (0, 1).
    quantity : {"Q", "S"}, default "S"
        Driven recurrence (S) or free (Q).
    field : {"complex", "real"}, default "complex"
        Gaussian weight field.
    method : {"float", "mp", "mc"}, default "float"
        Closed forms / exact rows in float64, in mpmath (``dps`` digits), or Monte Carlo.
    dps : int, optional
        Digits of ``method="mp"`` (None: the ambient mpmath precision).
    samples, batches, seed : int
        Monte Carlo draws, independent batches (the jackknife's), seed.
    exact_max_k : int, default 60
        Real weights, ``method="mc"``: exact rows up to this depth, Monte Carlo beyond.
    progress : bool or None
        The Monte Carlo's progress bar (None: only for long runs).
    init : Law or str, optional
        iid entries of another law ("uniform", "rademacher", "sparse:0.05", "student:6", ...): ``method="float"``
        uses :func:`theory.horizon.sigma_for_horizon` (its exact rows to depth 12, the large-n expansion beyond);
        ``method="mc"`` the law's exact rows up to ``min(exact_max_k, 12)`` and Monte Carlo of the law beyond.
        An infinite energy at a depth ``<= t`` (Student t) is refused (one line).

    Returns
    -------
    HorizonScale
        ``sigma``, ``deviation``, the feasible interval ``sigma_low..sigma_high`` (None when infeasible),
        ``glorot_deviation``, ``method``, ``source`` and Monte Carlo standard errors ``se``.

    Raises
    ------
    TypeError, ValueError
        A bad argument (named, with its allowed range), or a horizon past the real expansion's domain.

    Examples
    --------
    >>> r = sigma_for_horizon(16, 6, 0.05, field="real")          # exact rows: no Monte Carlo, no se
    >>> r.source.startswith("exact real Wick rows"), r.se
    (True, {})
    """
    field = as_choice("field", field, _th.FIELDS)
    method = as_choice("method", method, _METHODS)
    exact_max_k = as_int("exact_max_k", exact_max_k, minimum=0, maximum=_WICK_MAX_K)
    samples, batches = _mc_sizes(samples, batches)
    if init is not None:
        return _law_sigma_for_horizon(n, t, tol, quantity, method, dps, samples, batches, seed, exact_max_k,
                                      progress, init)
    if field == "complex" and method != "mc":
        return _th.sigma_for_horizon(n, t, tol, quantity=quantity, method=method, dps=dps)
    n = as_int("n", n, minimum=1)
    t = as_int("t", t, minimum=1)
    tol = as_real("tol", tol, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    quantity = as_choice("quantity", quantity, _th.QUANTITIES)
    if field == "real" and method != "mc":
        return _th.sigma_for_horizon(n, t, tol, quantity=quantity, field="real", method=method, dps=dps)
    if dps is not None:
        raise ValueError("dps applies only to method 'mp'")
    prefix = real_energies(n, min(exact_max_k, t)) if field == "real" else [Fraction(1)]
    if len(prefix) > t:          # the exact rows cover the whole horizon: no Monte Carlo, and the answer says so
        src = (f"exact real Wick rows k <= {t} (method 'mc' asked; no Monte Carlo needed: the exact rows reach "
               f"k = {exact_max_k} >= t)")
        return dataclasses.replace(scale_from_energies(prefix, tol, quantity=quantity, n=n, field=field,
                                                       source=src), method="exact")
    means = mc_energies(n, t, samples, field=field, seed=seed, batches=batches, progress=progress)
    src = (f"exact real Wick rows k <= {len(prefix) - 1}, Monte Carlo beyond" if field == "real"
           else "Monte Carlo (complex)") + f" ({samples // batches * batches} draws, {batches} batches, seed {seed})"
    return dataclasses.replace(_from_batches(prefix, means, tol, quantity, n, field, src), method="mc")


def _law_prefix(n: int, t: int, exact_max_k: int, law) -> list[Fraction]:
    """The exact rows of ``law`` up to ``min(t, exact_max_k, its exact depth)``."""
    from theory.init_laws.energy import Q_law, exact_depth

    return [Q_law(n, k, law, method="exact").value for k in range(min(t, exact_max_k, exact_depth(law)) + 1)]


def _law_sigma_for_horizon(n, t, tol, quantity, method, dps, samples, batches, seed, exact_max_k, progress, init):
    """:func:`sigma_for_horizon` for iid weights of a law: theory's energies, or exact rows then Monte Carlo."""
    from theory.init_laws.laws import as_law

    law = as_law(init, name="init")
    if method != "mc":
        return _th.sigma_for_horizon(n, t, tol, quantity=quantity, method=method, dps=dps, init=law)
    if dps is not None:
        raise ValueError("dps applies only to method 'mp'")
    n = as_int("n", n, minimum=1)
    t = as_int("t", t, minimum=1)
    tol = as_real("tol", tol, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    quantity = as_choice("quantity", quantity, _th.QUANTITIES)
    if law.max_depth is not None and t > law.max_depth:
        _th.sigma_for_horizon(n, t, tol, quantity=quantity, init=law)        # the one-line infinite-energy error
    prefix = _law_prefix(n, t, exact_max_k, law)
    if len(prefix) > t:
        src = f"exact rows of {law.name} k <= {t} (method 'mc' asked; no Monte Carlo needed)"
        return dataclasses.replace(scale_from_energies(prefix, tol, quantity=quantity, n=n, field="real", source=src,
                                                       init=law.name), method="exact")
    means = mc_energies(n, t, samples, seed=seed, batches=batches, progress=progress, init=law)
    src = (f"exact rows of {law.name} k <= {len(prefix) - 1}, Monte Carlo beyond ({samples // batches * batches} "
           f"draws, {batches} batches, seed {seed})")
    out = _from_batches(prefix, means, tol, quantity, n, "real", src)
    return dataclasses.replace(out, method="mc", init=law.name)


def _mc_sizes(samples, batches) -> tuple[int, int]:
    """``samples`` and ``batches`` as Python ints (a numpy int8 would overflow in ``samples // batches``);
    their ranges are :func:`mc_energies`'s."""
    return (as_int("samples", samples, minimum=4, maximum=MAX_SAMPLES),
            as_int("batches", batches, minimum=2))


def _first_violation(E: np.ndarray, sigma: float, tol: float, quantity: str) -> int | None:
    logp = _th._log_curve(np.log(E), 2.0 * math.log(sigma), quantity)
    with np.errstate(over="ignore"):
        bad = np.flatnonzero(np.abs(np.expm1(logp)) > tol)
    return int(bad[0]) if bad.size else None


def depth_with_se(n, sigma, tol, *, quantity: Quantity = "S", field: Field = "complex", method: str = "float",
                    max_t: int | None = None, samples: int = 4096, batches: int = 16, seed: int = 0,
                    exact_max_k: int = EXACT_REAL_MAX_K, progress: bool | None = None, init=None) -> dict:
    r"""The depth reachable at scale ``sigma``, with its standard error and source, for complex and real
    weights: a dict (:func:`theory.horizon.depth_for_scale` returns the depth alone, an int; one name, one
    return type).

    ``{"depth", "se", "source"}`` (Monte Carlo adds ``replicate_range``, the leave-one-batch-out depths): the
    largest t with ``|p_j(sigma) - 1| <= tol`` for all ``j <= t``.
    Complex: the closed forms (``se`` 0). Real, ``method="float"``: theory's real energies (exact rows, the
    large-n expansion beyond; :func:`theory.horizon.depth_for_scale`, ``se`` 0). Real, ``method="mc"`` (the
    check): exact Wick rows while the violation occurs at ``k <= exact_max_k`` (``se`` 0); otherwise Monte
    Carlo energies up to ``max_t`` (default: twice the complex depth at the same scale, plus 4; cost
    ``samples * max_t`` products of n x n matrices) and a jackknife ``se`` of the depth over batches;
    ``progress`` as in :func:`mc_energies`.

    Parameters
    ----------
    n : int
        Width (>= 1).
    sigma : float
        Weight scale (> 0; 1 is Glorot).
    tol : float
        Tolerance on ``|p_j(sigma) - 1|``, in (0, 1).
    quantity : {"Q", "S"}, default "S"
        Driven recurrence (S) or free (Q).
    field : {"complex", "real"}, default "complex"
        Gaussian weight field.
    method : {"float", "mc"}, default "float"
        Real weights: exact rows and the large-n expansion, or Monte Carlo beyond the exact rows.
    max_t : int, optional
        Deepest depth searched.
    samples, batches, seed, exact_max_k, progress
        The Monte Carlo's settings, as in :func:`sigma_for_horizon`.
    init : Law or str, optional
        iid entries of another law (:func:`sigma_for_horizon`): ``method="float"``, theory's energies of the law;
        ``"mc"``, its exact rows then Monte Carlo. Where the energy is infinite (Student t, ``2k >= nu``) the
        depth ends before, and the result says so (``"note"``).

    Returns
    -------
    dict
        ``{"depth": int, "se": float, "source": str}`` (Monte Carlo adds ``replicate_range``).

    Raises
    ------
    TypeError, ValueError
        A bad argument, or no violation of ``tol`` up to ``max_t``.

    Examples
    --------
    >>> depth_with_se(4, 1.0, 0.3, quantity="Q", field="real")   # Q^R_{4,2} = 1 + 2/16 (ok), Q^R_{4,3} = 1 + 44/64
    {'depth': 2, 'se': 0.0, 'source': 'exact real Wick rows (theory.real_rows)'}
    """
    field = as_choice("field", field, _th.FIELDS)
    quantity = as_choice("quantity", quantity, _th.QUANTITIES)
    n = as_int("n", n, minimum=1)
    sigma = as_real("sigma", sigma, minimum=0.0, open_min=True)
    tol = as_real("tol", tol, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    exact_max_k = as_int("exact_max_k", exact_max_k, minimum=0, maximum=_WICK_MAX_K)
    method = as_choice("method", method, ("float", "mc"))
    samples, batches = _mc_sizes(samples, batches)
    if init is not None:
        return _law_depth_with_se(n, sigma, tol, quantity, method, max_t, samples, batches, seed, exact_max_k,
                                  progress, init)
    if field == "complex":
        return {"depth": _th.depth_for_scale(n, sigma, tol, quantity=quantity), "se": 0.0,
                "source": "closed form (Seleznova 2026, Thm 2.1)"}
    if method == "float":
        d = _th.depth_for_scale(n, sigma, tol, quantity=quantity, field="real", max_t=max_t)
        return {"depth": d, "se": 0.0, "source": _EXACT_SOURCE if d < EXACT_REAL_MAX_K else _th.REAL_EXPANSION_SOURCE}
    exact = np.array([float(e) for e in real_energies(n, exact_max_k)])
    j = _first_violation(exact, sigma, tol, quantity)
    if j is not None:
        return {"depth": j - 1, "se": 0.0, "source": _EXACT_SOURCE}
    if max_t is None:
        max_t = 2 * _th.depth_for_scale(n, sigma, tol, quantity=quantity) + 4
    max_t = as_int("max_t", max_t, minimum=exact_max_k + 1, maximum=MAX_DEPTH)
    means = mc_energies(n, max_t, samples, field="real", seed=seed, batches=batches, progress=progress)
    means[:, :exact.size] = exact
    return _mc_depth(means, sigma, tol, quantity, n, max_t, batches,
                     f"exact real Wick rows k <= {exact_max_k}, Monte Carlo beyond "
                     f"({samples // batches * batches} draws, {batches} batches, seed {seed})")


def _infinite_note(law) -> dict:
    if law.max_depth is None:
        return {}
    d = law.max_depth + 1
    return {"note": f"the mean energy E||W^j x||^2 is infinite from depth {d} on for {law.name} (m_{2 * d} = "
                    f"E g^{2 * d} is infinite)"}


def _law_depth_with_se(n, sigma, tol, quantity, method, max_t, samples, batches, seed, exact_max_k, progress, init):
    """:func:`depth_with_se` for iid weights of a law."""
    from theory.init_laws.laws import as_law

    law = as_law(init, name="init")
    if method == "float":
        d = _th.depth_for_scale(n, sigma, tol, quantity=quantity, max_t=max_t, init=law)
        note = _infinite_note(law) if law.max_depth is not None and d >= law.max_depth else {}
        return {"depth": d, "se": 0.0, "source": f"exact rows of {law.name} (theory.init_laws), the large-n "
                                                  "expansion beyond", **note}
    prefix = _law_prefix(n, MAX_DEPTH, exact_max_k, law)
    exact = np.array([float(e) for e in prefix])
    j = _first_violation(exact, sigma, tol, quantity)
    if j is not None:
        return {"depth": j - 1, "se": 0.0, "source": f"exact rows of {law.name} (theory.init_laws)"}
    if law.max_depth is not None and len(prefix) > law.max_depth:
        return {"depth": law.max_depth, "se": 0.0, "source": f"exact rows of {law.name} (theory.init_laws)",
                **_infinite_note(law)}
    if max_t is None:
        max_t = 2 * _th.depth_for_scale(n, sigma, tol, quantity=quantity) + 4
    max_t = as_int("max_t", max_t, minimum=len(prefix), maximum=MAX_DEPTH)
    means = mc_energies(n, max_t, samples, seed=seed, batches=batches, progress=progress, init=law)
    means[:, :exact.size] = exact
    return _mc_depth(means, sigma, tol, quantity, n, max_t, batches,
                     f"exact rows of {law.name} k <= {exact.size - 1}, Monte Carlo beyond "
                     f"({samples // batches * batches} draws, {batches} batches, seed {seed})")


def _mc_depth(means, sigma, tol, quantity, n, max_t, batches, src) -> dict:
    """The depth of pooled Monte Carlo energies and its jackknife se over batches."""
    def depth(E):
        v = _first_violation(E, sigma, tol, quantity)
        if v is None:
            raise ValueError(f"no violation of tol={tol} up to max_t={max_t} at n={n}, sigma={sigma}; raise max_t")
        return v - 1

    point = depth(means.mean(axis=0))
    reps = np.array([depth(np.delete(means, b, axis=0).mean(axis=0)) for b in range(batches)], dtype=float)
    se = float(math.sqrt((batches - 1) / batches * np.sum((reps - reps.mean()) ** 2)))
    return {"depth": point, "se": se, "replicate_range": [int(reps.min()), int(reps.max())], "source": src}


def simulate_energies(n, sigma, t, samples, *, quantity: Quantity = "S", field: Field = "complex", seed: int = 0,
                      init=None):
    r"""Simulate the scaled linear recurrence: the mean signal energy at each depth, with its standard error.

    Weights ``W = sigma G / sqrt(n)`` (``G`` complex Ginibre or real Gaussian, :func:`sample_ginibre`), one
    weight draw per sample. ``quantity="Q"``: ``p_j = ||W^j||_F^2 / n`` per draw (the full trace;
    ``E p_j = sigma^{2j} Q_{n,j}``); ``quantity="S"``: the driven recurrence ``h(j) = W h(j-1) + x(j)``,
    ``h(-1) = 0``, fresh standard Gaussian inputs, ``p_j = ||h(j)||^2 / (n (j+1))``
    (``E p_j = S^sigma_{n,j} / (j+1)``, the running mean of the energies). Source of the quantities:
    Seleznova (2026), arXiv:2605.05113, Sec. 2 (``docs/papers/signal-propagation.md``). ``se`` is the sample
    standard deviation over ``sqrt(samples)`` from the same run. The tests use it to check the ``sigma``
    that :func:`sigma_for_horizon` recommends.

    Parameters
    ----------
    n : int
        Width, ``1 <= n <= MAX_N`` (256).
    sigma : float
        Weight scale (> 0; 1 is Glorot).
    t : int
        Deepest depth, ``0 <= t <= MAX_DEPTH``.
    samples : int
        Weight draws, ``2 <= samples <= min(MAX_SAMPLES, MAX_LENGTH / n^2)`` (all draws are held at once).
    quantity : {"Q", "S"}, default "S"
        Driven recurrence (S) or free (Q).
    field : {"complex", "real"}, default "complex"
        Gaussian weight field.
    seed : int, default 0
        Seed (>= 0); the same seed gives the same numbers.
    init : Law or str, optional
        iid entries of another law (:mod:`theory.init_laws`; real entries, ``field`` not used); None: Gaussian.

    Returns
    -------
    mean, se : numpy.ndarray
        float64 arrays of shape ``(t + 1,)``: the sample mean of ``p_j`` and its standard error, j = 0..t.

    Raises
    ------
    TypeError, ValueError
        A bad argument (named, with its allowed range), or a ``sigma`` whose energies overflow float64 by
        depth ``t``.

    Examples
    --------
    >>> mean, se = simulate_energies(8, 0.9, 3, 64, quantity="Q", seed=1)
    >>> mean.shape, se.dtype, float(mean[0]), float(se[0])      # p_0 = ||I||_F^2 / n = 1 exactly
    ((4,), dtype('float64'), 1.0, 0.0)
    >>> again, _ = simulate_energies(8, 0.9, 3, 64, quantity="Q", seed=1)
    >>> bool(np.array_equal(mean, again))                          # seeded: reproducible
    True
    >>> from numerics.stats import z_for_false_alarm
    >>> exact = 0.9**4 * (1 + 1 / 8**2)                             # sigma^4 Q_{8,2}, Q_{n,2} = 1 + 1/n^2
    >>> bool(abs(mean[2] - exact) <= z_for_false_alarm() * se[2])
    True
    """
    n = as_int("n", n, minimum=1, maximum=MAX_N)
    sigma = as_real("sigma", sigma, minimum=0.0, open_min=True)
    t = as_int("t", t, minimum=0, maximum=MAX_DEPTH)
    # the draws of W are held at once (sample_ginibre's memory bound), each step multiplies all of them
    samples = as_int("samples", samples, minimum=2, maximum=min(MAX_SAMPLES, MAX_LENGTH // (n * n)))
    quantity = as_choice("quantity", quantity, _th.QUANTITIES)
    field = as_choice("field", field, ("complex", "real"))
    seed = as_int("seed", seed, minimum=0)
    if init is None:
        W = sigma * sample_ginibre(n, samples, field=field, seed=seed)
    else:
        from numerics.signal_propagation.law_sampling import sample_entries
        from theory.init_laws.laws import as_law

        field = "real"
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1 << 29,)))
        W = (sigma / math.sqrt(n)) * sample_entries(as_law(init, name="init"), (samples, n, n), rng)
    X = np.empty((samples, t + 1))
    if quantity == "Q":
        P = np.broadcast_to(np.eye(n, dtype=W.dtype), W.shape).copy()
        for j in range(t + 1):
            X[:, j] = np.sum(np.abs(P) ** 2, axis=(1, 2)) / n
            P = P @ W
    else:
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1 << 30,)))
        shape = (samples, n, 1)

        def draw():
            if field == "real":
                return rng.standard_normal(shape)
            return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) / math.sqrt(2.0)

        h = draw()
        for j in range(t + 1):
            X[:, j] = np.sum(np.abs(h) ** 2, axis=(1, 2)) / (n * (j + 1))
            h = W @ h + draw()
    with np.errstate(over="ignore", invalid="ignore"):
        mean, se = X.mean(axis=0), X.std(axis=0, ddof=1) / math.sqrt(samples)
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(se))):
        raise ValueError(f"sigma={sigma} overflows float64 by depth t={t} (p_j ~ sigma^(2j)): lower sigma or t")
    return mean, se
