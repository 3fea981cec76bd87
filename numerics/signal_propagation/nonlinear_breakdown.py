r"""The breakdown depth of a Monte Carlo deviation profile, its bootstrap interval, and the fitted exponent.

Definitions (fixed before any measurement; ``docs/results/nonlinear-recurrences.md``):

* deviation profile ``d_t = m_t / q_t - 1`` with ``m_t`` the mean over weight draws of the per-draw energies
  and ``q_t`` the mean field (relative: a profile that decays to 0 keeps its meaning);
* breakdown depth ``t*(n; tol) = min{t : |d_t| > tol}`` (None, "censored", when no depth up to the last
  simulated one qualifies) and the crossing ``t_c``: ``|d|`` interpolated linearly between ``t* - 1`` and ``t*``,
  ``t* - 1 < t_c <= t*`` (the fits use ``t_c``: the integer ``t*`` moves in steps of 1, which at small widths
  is a large relative step);
* interval: the percentile bootstrap over weight draws (``replicates`` resamples of the draws with
  replacement, a fixed seed), ``level`` two-sided (given by the caller; the measurement uses 95%); a replicate whose profile never leaves the
  band is censored and counts as ``+inf``;
* exponent: weighted least squares of ``ln t_c`` on ``ln n`` over the widths at which no replicate is
  censored, weights ``1 / Var_boot(ln t_c)``; its interval the percentiles of the same fit on each
  replicate (every width resampled independently); a second model ``t_c = A n^gamma + delta`` (the
  linear recurrence's crossing has a constant shift ``delta``, :func:`theory.real_expansion.breakdown_law`)
  fitted the same way.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from theory._args import (MAX_MEMORY_BYTES, as_instance, as_int, as_real, as_real_array, as_seed_sequence,
                          check_budget)

__all__ = ["Breakdown", "crossing_depth", "bootstrap_means", "breakdown_with_interval", "fit_exponent",
           "fit_offset_exponent", "exponent_with_interval"]


@dataclasses.dataclass(frozen=True)
class Breakdown:
    """A breakdown depth with its bootstrap interval (module docstring).

    ``t_star`` (int or None: censored), ``t_cross`` (float or None), ``lo``/``hi`` the interval of ``t_star``
    (``hi = inf`` when more than the upper tail of the replicates is censored), ``cross_replicates`` (the
    replicates' ``t_c``, ``inf`` where censored), ``censored`` (the fraction of censored replicates), ``t_last``
    (the last depth simulated).
    """

    t_star: int | None
    t_cross: float | None
    lo: float
    hi: float
    cross_replicates: np.ndarray
    censored: float
    t_last: int


def crossing_depth(dev, tol) -> tuple[int | None, float | None]:
    """``(t*, t_c)``: the first depth with ``|dev_t| > tol`` and the linearly interpolated crossing of ``tol``.

    ``(None, None)`` when no depth qualifies (censored). At ``t* = 0``, ``t_c = 0``.

    >>> crossing_depth([0.0, 0.02, 0.04, 0.08, 0.2], 0.05)      # between depth 2 (0.04) and 3 (0.08): 2.25
    (3, 2.25)
    >>> crossing_depth([0.0, -0.01, -0.26], 0.1), crossing_depth([0.0, 0.01], 0.1)   # |d|: 0.01 -> 0.26
    ((2, 1.36), (None, None))
    """
    a = np.abs(as_real_array("dev", dev, finite=False))
    tol = as_real("tol", tol, minimum=0.0, open_min=True)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"dev must be a non-empty 1-d profile, got shape {a.shape}")
    hit = np.flatnonzero(~(a <= tol))           # nan counts as out of the band (an overflowed profile)
    if not hit.size:
        return None, None
    t = int(hit[0])
    if t == 0 or not np.isfinite(a[t]):
        return t, float(t)
    return t, float(t - 1 + (tol - a[t - 1]) / (a[t] - a[t - 1]))


def bootstrap_means(draws, replicates, seed) -> np.ndarray:
    """Means of ``replicates`` bootstrap resamples of the rows of ``draws`` (``samples x depths``):
    ``(replicates, depths)``. Resampling by multinomial counts (one matrix product), seeded.

    >>> m = bootstrap_means(np.arange(6.0).reshape(3, 2), 4, seed=0)
    >>> m.shape, bool(np.all((m >= 0) & (m <= 5)))
    ((4, 2), True)
    """
    D = as_real_array("draws", draws)
    if D.ndim != 2 or D.shape[0] < 2:
        raise ValueError(f"draws must be a (samples >= 2, depths) array, got shape {D.shape}")
    replicates = as_int("replicates", replicates, minimum=1, maximum=10**6)
    check_budget("replicates * samples", 8.0 * replicates * (D.shape[0] + D.shape[1]), MAX_MEMORY_BYTES)
    rng = np.random.default_rng(as_seed_sequence(seed))
    S = D.shape[0]
    counts = rng.multinomial(S, np.full(S, 1.0 / S), size=replicates).astype(np.float64)
    return counts @ D / S


def breakdown_with_interval(draws, q, tol, *, replicates: int = 2000, seed=0, level: float) -> Breakdown:
    r"""The breakdown depth of the profile ``mean(draws) / q - 1`` with its percentile-bootstrap interval.

    ``draws``: per-draw energies (``samples x (T + 1)``, e.g. ``NonlinearMC.draws``); ``q``: the reference
    energies (the mean field, length ``T + 1``); ``tol`` in (0, inf). Definitions: module docstring.

    >>> rng = np.random.default_rng(0)
    >>> D = 1 + 0.01 * np.arange(10) ** 2 + 0.01 * rng.standard_normal((400, 10))   # |d| = 0.01 t^2
    >>> b = breakdown_with_interval(D, np.ones(10), 0.2, replicates=200, level=0.95)
    >>> b.t_star, b.lo <= 5 <= b.hi, b.censored
    (5, True, 0.0)
    """
    D = as_real_array("draws", draws, finite=False)
    q = as_real_array("q", q)
    if D.ndim != 2 or q.shape != (D.shape[1],):
        raise ValueError(f"draws must be (samples, T + 1) and q of length T + 1, got {D.shape} and {q.shape}")
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    t_star, t_cross = crossing_depth(D.mean(axis=0) / q - 1.0, tol)
    reps = bootstrap_means(D, replicates, seed) / q - 1.0
    stars = np.full(reps.shape[0], np.inf)
    cross = np.full(reps.shape[0], np.inf)
    for b in range(reps.shape[0]):
        s, c = crossing_depth(reps[b], tol)
        if s is not None:
            stars[b], cross[b] = s, c
    alpha = (1.0 - level) / 2.0
    lo, hi = (float(np.quantile(stars, p, method="inverted_cdf")) for p in (alpha, 1.0 - alpha))
    return Breakdown(t_star=t_star, t_cross=t_cross, lo=lo, hi=hi, cross_replicates=cross,
                     censored=float(np.mean(~np.isfinite(cross))), t_last=D.shape[1] - 1)


def fit_exponent(n, t, fit_weights=None) -> tuple[float, float]:
    """``(gamma, ln A)`` of the weighted least-squares fit ``ln t = ln A + gamma ln n``.

    >>> g, lnA = fit_exponent([64, 256, 1024], [8, 16, 32])
    >>> round(g, 12), round(math.exp(lnA), 12)
    (0.5, 1.0)
    """
    nn, tt = as_real_array("n", n, minimum=1.0), as_real_array("t", t, minimum=0.0)
    w = np.ones_like(nn) if fit_weights is None else as_real_array("fit_weights", fit_weights, minimum=0.0)
    if not nn.shape == tt.shape == w.shape or nn.ndim != 1 or np.unique(nn).size < 2:
        raise ValueError(f"n, t and fit_weights must be 1-d of one length with two or more distinct n, got shapes "
                         f"{nn.shape}, {tt.shape}, {w.shape}")
    if np.any(tt <= 0) or not w.sum() > 0:
        raise ValueError("t must be > 0 (a logarithm is taken) and fit_weights must not all be 0")
    x, y = np.log(nn), np.log(tt)
    sw = w.sum()
    xm, ym = (w @ x) / sw, (w @ y) / sw
    g = float((w @ ((x - xm) * (y - ym))) / (w @ ((x - xm) ** 2)))
    return g, float(ym - g * xm)


def fit_offset_exponent(n, t, sd=None) -> tuple[float, float, float]:
    """``(gamma, A, delta)`` of the weighted least-squares fit ``t = A n^gamma + delta`` (residuals over ``sd``, the standard deviations of ``t``).

    Solved in ``gamma`` on a grid refined by golden sections (for fixed gamma the model is linear in ``A`` and
    ``delta``), ``0 < gamma <= 2``. Needs three or more widths.

    >>> g, A, d = fit_offset_exponent([64, 256, 1024, 4096], [1.2 * 8 - 2.5, 1.2 * 16 - 2.5, 1.2 * 32 - 2.5, 1.2 * 64 - 2.5])
    >>> round(g, 6), round(A, 6), round(d, 6)
    (0.5, 1.2, -2.5)
    """
    x = as_real_array("n", n, minimum=1.0)
    y = as_real_array("t", t)
    s = np.ones_like(x) if sd is None else as_real_array("sd", sd, minimum=0.0)
    if not x.shape == y.shape == s.shape or x.ndim != 1 or np.unique(x).size < 3 or np.any(s <= 0):
        raise ValueError(f"n, t and sd (> 0) must be 1-d of one length with three or more distinct n, got "
                         f"shapes {x.shape}, {y.shape}, {s.shape}")

    w = 1.0 / (s * s)

    def solve(g):
        # weighted least squares of y on (x^g, 1): the 2 x 2 normal equations, solved directly
        u = x ** g
        sw, su, suu, sy, suy = w.sum(), w @ u, w @ (u * u), w @ y, w @ (u * y)
        det = sw * suu - su * su
        A = (sw * suy - su * sy) / det
        d = (sy - A * su) / sw
        return float(w @ (A * u + d - y) ** 2), (A, d)

    grid = np.linspace(0.02, 2.0, 100)
    k = int(np.argmin([solve(g)[0] for g in grid]))
    a, b = grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)]
    phi = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(60):
        c, d = b - phi * (b - a), a + phi * (b - a)
        if solve(c)[0] <= solve(d)[0]:
            b = d
        else:
            a = c
    g = 0.5 * (a + b)
    coef = solve(g)[1]
    return float(g), float(coef[0]), float(coef[1])


def exponent_with_interval(ns: Sequence[int], estimates: Sequence[Breakdown], *, level: float) -> dict:
    r"""The exponent ``gamma`` of ``t_c ~ n^gamma`` and of ``t_c = A n^gamma + delta`` with bootstrap intervals.

    ``estimates[i]`` is the :class:`Breakdown` at width ``ns[i]``; widths with a censored point estimate or
    censored replicates are left out (listed in ``censored_widths``). Returns ``{"gamma", "lo", "hi",
    "log_A", "widths", "censored_widths", "offset": {"gamma", "lo", "hi", "A", "delta"} or None}`` (None
    values where fewer than two, resp. three, widths remain). Definitions: module docstring.

    >>> rng = np.random.default_rng(1)
    >>> est = []
    >>> for n in (64, 256, 1024, 4096):
    ...     c = 0.5 * n ** 0.5 * (1 + 0.02 * rng.standard_normal(300))
    ...     est.append(Breakdown(int(c.mean()) + 1, float(c.mean()), 0.0, 0.0, c, 0.0, 100))
    >>> r = exponent_with_interval([64, 256, 1024, 4096], est, level=0.95)
    >>> r["lo"] < 0.5 < r["hi"], r["widths"]
    (True, [64, 256, 1024, 4096])
    """
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    if isinstance(ns, (str, bytes)) or not isinstance(ns, Sequence) or not isinstance(estimates, Sequence):
        raise TypeError("ns must be a sequence of widths and estimates a sequence of Breakdown")
    ns = [as_int("ns[]", x, minimum=1) for x in ns]
    estimates = [as_instance("estimates[]", e, Breakdown) for e in estimates]
    if len(ns) != len(estimates) or len(set(ns)) != len(ns):
        raise ValueError(f"ns (distinct widths) and estimates must have one length, got {len(ns)} and {len(estimates)}")
    if len({e.cross_replicates.shape for e in estimates}) > 1:
        raise ValueError("estimates must have the same number of bootstrap replicates")
    use = [i for i, e in enumerate(estimates) if e.t_cross is not None and e.t_cross > 0 and e.censored == 0.0]
    out = {"widths": [int(ns[i]) for i in use],
           "censored_widths": [int(ns[i]) for i in range(len(ns)) if i not in use],
           "gamma": None, "lo": None, "hi": None, "log_A": None, "offset": None}
    if len(use) < 2:
        return out
    n = np.array([float(ns[i]) for i in use])
    point = np.array([estimates[i].t_cross for i in use])
    reps = np.stack([estimates[i].cross_replicates for i in use], axis=1)          # (replicates, widths)
    reps = np.maximum(reps, 1e-12)
    w = 1.0 / np.maximum(np.var(np.log(reps), axis=0, ddof=1), 1e-12)
    alpha = (1.0 - level) / 2.0
    g, lnA = fit_exponent(n, point, w)
    gb = np.array([fit_exponent(n, r, w)[0] for r in reps])
    out.update(gamma=g, log_A=lnA, lo=float(np.quantile(gb, alpha)), hi=float(np.quantile(gb, 1 - alpha)))
    if len(use) >= 3:
        sd = np.maximum(np.std(reps, axis=0, ddof=1), 1e-9)
        g2, A, d = fit_offset_exponent(n, point, sd)
        gb2 = np.array([fit_offset_exponent(n, r, sd)[0] for r in reps])
        out["offset"] = {"gamma": g2, "A": A, "delta": d, "lo": float(np.quantile(gb2, alpha)),
                         "hi": float(np.quantile(gb2, 1 - alpha))}
    return out
