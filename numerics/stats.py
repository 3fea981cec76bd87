"""The statistical tests of the toolkit, in one place: every check and estimator that decides by a test uses these.

- **Monte Carlo agreement** (:func:`z_for_false_alarm`, :func:`agreement`): every Monte Carlo comparison has
  the form ``|estimate - exact| <= z * se``, where ``se`` is the standard error estimated from the same run
  and ``z`` comes from a stated false-alarm rate: the probability that a *correct* closed form is flagged.
  For ``m`` simultaneous comparisons a Bonferroni split, two-sided, ``z = Phi^{-1}(1 - p / (2 m))`` and never
  less than ``Z_MIN = 4.5`` (with the default ``p = 1e-6`` and one comparison, z = 4.89).
- **Runs tests** on the signs of fit residuals: :func:`runs_test` (Wald-Wolfowitz, exact null distribution;
  ``numerics.anticollapse.estimators.envelope_fit``) and :func:`runs_test_normal` (its normal approximation,
  the author's form; ``numerics.anticollapse.envelope_gate.window_gate``).
- **Seed statistics** of the architecture claims, each a test whose one-sided false-alarm rate over seeds
  is ``LEVEL``: the probability that a claim is declared reproduced when, in truth, the effect it states is
  absent. Intervals are two-sided at ``1 - 2 LEVEL`` (each tail ``LEVEL``), so "the interval excludes 0 on
  the claimed side" and "the one-sided test rejects at LEVEL" agree. :func:`paired`: differences ``d_i`` of
  log10 RelMSE between two conditions run with the *same seed* (same initialisation stream and minibatches),
  over seeds and alphas; the exact one-sided sign test (ties dropped) and the order-statistic interval for
  the median difference (``P(Bin(n, 1/2) <= k - 1) <= LEVEL``), both free of any distributional assumption
  (a diverged run, +inf, still has a sign). :func:`mwu`: one-sided Mann-Whitney U between two groups of
  values (exact for small samples). :func:`bootstrap`: percentile interval of a statistic of per-cell
  medians, resampling the seeds of every cell with replacement (``B`` resamples, fixed seed).
- **Optimal 1-d clustering** (:func:`kmeans_1d`), the statistic of the few-exponential goodness-of-fit test of
  ``numerics.anticollapse.calibrated_phase``.

>>> r = paired([0.5] * 10)
>>> r.n, r.n_pos, round(r.p_greater, 6), r.lo, r.hi
(10, 10, 0.000977, 0.5, 0.5)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

import numpy as np
from scipy import stats
from scipy.special import ndtri

from theory._args import (MAX_MEMORY_BYTES, as_choice, as_instance, as_int, as_probability, as_real,
                          as_real_array, as_real_vector, check_budget)

EXACT_FIT = 1e-10       # runs_test_normal: residuals all below this are an exact fit, nothing to reject (the author's rule)


# ----------------------------------------------------------------------------------------------------
# Monte Carlo agreement
# ----------------------------------------------------------------------------------------------------
FALSE_ALARM = 1e-6
Z_MIN = 4.5


def z_for_false_alarm(p: float = FALSE_ALARM, m: int = 1) -> float:
    """The z threshold of a Monte Carlo check: how many standard errors a correct estimate may stray.

    The two-sided Bonferroni critical value for ``m`` comparisons at family false-alarm rate ``p`` (the
    probability that a *correct* closed form is flagged): ``z = Phi^{-1}(1 - p / (2 m))``, never below
    ``Z_MIN = 4.5`` (the toolkit's rule for every Monte Carlo check, module docstring). Computed from the
    upper tail directly, so it stays finite for tiny ``p / m``.

    Parameters
    ----------
    p : float, default 1e-6
        Family false-alarm rate, in (0, 1).
    m : int, default 1
        Number of simultaneous comparisons, ``1 <= m <= 10**18``.

    Returns
    -------
    float
        ``z >= 4.5``.

    Raises
    ------
    TypeError
        ``p`` not a real number, ``m`` not an integer.
    ValueError
        ``p`` outside (0, 1), ``m`` out of range.

    Examples
    --------
    >>> round(z_for_false_alarm(1e-6), 3)
    4.892
    >>> from scipy.stats import norm                   # the standard normal's upper tail
    >>> bool(np.isclose(z_for_false_alarm(1e-6, m=10), norm.isf(1e-6 / (2 * 10))))
    True
    >>> z_for_false_alarm(0.05) == Z_MIN   # never below 4.5
    True
    """
    p = as_probability("p", p, open_min=True, open_max=True)
    m = as_int("m", m, minimum=1, maximum=10**18)
    # the upper tail directly: 1 - p/(2m) rounds to 1 (z = inf) once p/(2m) < 1e-16, e.g. m = 1e12
    return max(Z_MIN, float(-ndtri(p / (2.0 * m))))


@dataclasses.dataclass
class Agreement:
    """The comparison of estimates (with standard errors) with exact values at a critical value ``z``.

    Element i agrees when ``|estimate[i] - exact[i]| <= z se[i]``; an element with ``se[i] = 0`` is
    deterministic (e.g. the k = 0 energy of a Monte Carlo row, exactly 1 in every draw) and agrees only when
    the estimate equals the exact value. Returned by :func:`agreement`.

    Parameters
    ----------
    estimate, se, exact : numpy.ndarray
        The flattened float64 arrays compared.
    z : float
        The critical value.

    Returns
    -------
    Agreement
        ``ok`` (every element agrees), ``zscores`` (0 for an exact element that agrees, +-inf for one that
        does not) and ``max_abs_z``.

    Examples
    --------
    >>> a = agreement([1.0, 1.02], [0.0, 0.01], [1.0, 1.0], z=4.5)     # element 0 exact, element 1 at z = 2
    >>> a.ok, a.zscores.round(9).tolist()
    (True, [0.0, 2.0])
    """

    estimate: np.ndarray
    se: np.ndarray
    exact: np.ndarray
    z: float

    @property
    def zscores(self) -> np.ndarray:
        """``(estimate - exact) / se``; for ``se = 0``: 0 when equal, else +-inf."""
        diff = self.estimate - self.exact
        exact_el = self.se == 0
        out = diff / np.where(exact_el, 1.0, self.se)
        out[exact_el] = np.where(diff[exact_el] == 0, 0.0, np.copysign(np.inf, diff[exact_el]))
        return out

    @property
    def ok(self) -> bool:
        """Whether every element agrees."""
        return bool(np.all(np.abs(self.estimate - self.exact) <= self.z * self.se))

    @property
    def max_abs_z(self) -> float:
        """The largest ``|zscore|`` (0 for no elements)."""
        zs = np.abs(self.zscores)
        return float(np.max(zs)) if zs.size else 0.0


def agreement(estimate, se, exact, *, z: float) -> Agreement:
    """Compare Monte Carlo estimates with exact values: does each lie within ``z`` standard errors?

    Elementwise ``|estimate - exact| <= z se`` (the form of every Monte Carlo check of the toolkit, module
    docstring), with ``z`` from a stated false-alarm rate (:func:`z_for_false_alarm`). A standard error of
    exactly 0 marks a deterministic element (the k = 0 energy of a Monte Carlo row is 1 in every draw): it
    agrees only when the estimate equals the exact value. A negative or non-finite standard error, or a
    non-finite estimate, is refused with a ValueError that names the element's index.

    Parameters
    ----------
    estimate : array_like of float
        Estimates (finite).
    se : array_like of float
        Their standard errors from the same run (finite, >= 0), of the same shape.
    exact : array_like of float
        The exact values, of the same shape.
    z : float
        Critical value, ``>= Z_MIN`` (4.5).

    Returns
    -------
    Agreement
        The flattened arrays and ``z``; ``ok`` (every element within ``z se``), ``zscores`` and
        ``max_abs_z``.

    Raises
    ------
    TypeError
        An argument that is not a real number or an array of them.
    ValueError
        Different shapes, ``z < 4.5``, a standard error that is negative or not finite, a non-finite
        estimate (the message names the first such element).

    Examples
    --------
    >>> a = agreement([1.0, 2.1], [0.1, 0.1], [1.0, 2.0], z=4.5)      # z-scores 0 and 1
    >>> a.ok, round(a.max_abs_z, 9)
    (True, 1.0)
    >>> agreement([3.0], [0.1], [2.0], z=4.5).ok                       # 10 standard errors off
    False
    >>> agreement([1.0, 1.0], [0.0, 0.1], [1.0, 1.0], z=4.5).ok       # element 0: se = 0, exactly equal
    True
    >>> agreement([1.0, 1.0], [0.1, -0.1], [1.0, 1.0], z=4.5)
    Traceback (most recent call last):
    ...
    ValueError: se[1] = -0.1: every standard error must be finite and >= 0 (0 only for an exact element)
    """
    est = as_real_array("estimate", estimate, finite=False).ravel()
    s = as_real_array("se", se, finite=False).ravel()
    ex = as_real_array("exact", exact, finite=False).ravel()
    z = as_real("z", z)
    if not (est.shape == s.shape == ex.shape):
        raise ValueError(f"shapes differ: estimate {est.shape}, se {s.shape}, exact {ex.shape}")
    if z < Z_MIN:
        raise ValueError(f"z must be >= {Z_MIN}, got {z}")
    bad = np.flatnonzero(~(np.isfinite(s) & (s >= 0)))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"se[{i}] = {float(s[i])!r}: every standard error must be finite and >= 0 (0 only for an "
                         f"exact element)")
    bad = np.flatnonzero(~np.isfinite(est))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"estimate[{i}] = {float(est[i])!r}: estimates must be finite")
    return Agreement(est, s, ex, float(z))


# ----------------------------------------------------------------------------------------------------
# runs tests
# ----------------------------------------------------------------------------------------------------
def runs_test(residuals: Any, *, zero_tol: float = 0.0) -> float:
    r"""Two-sided Wald-Wolfowitz runs test on the signs of ``residuals`` (in order); returns the p-value.

    Residuals with ``|r| <= zero_tol`` are dropped. With ``n1`` positive and ``n2`` negative signs, the
    number of runs ``R`` has the exact null distribution (all orderings equally likely)
    ``P(R = 2k) = 2 C(n1-1, k-1) C(n2-1, k-1) / C(n, n1)`` and
    ``P(R = 2k+1) = [C(n1-1, k) C(n2-1, k-1) + C(n1-1, k-1) C(n2-1, k)] / C(n, n1)``;
    ``p = min(1, 2 min(P(R <= r), P(R >= r)))``. Too few runs = systematic curvature of the residuals. With
    fewer than one sign of each kind (every residual within ``zero_tol``, or all of one sign) the test has
    nothing to say and returns 1.0; no residuals at all is a ValueError (a caller's mistake, not a fit).

    >>> round(runs_test([1] * 5 + [-1] * 5), 6)               # 2 runs out of 10: p = 2 * 2/252
    0.015873
    >>> runs_test([1, 1, -1, 1, -1, -1, 1, -1, -1, 1]) > 0.5   # 7 runs, 6 expected
    True
    """
    r = as_real_vector("residuals", residuals, min_size=1)
    zero_tol = as_real("zero_tol", zero_tol, minimum=0.0)
    s = np.sign(r[np.abs(r) > zero_tol])
    n1, n2 = int(np.count_nonzero(s > 0)), int(np.count_nonzero(s < 0))
    if n1 == 0 or n2 == 0:
        return 1.0
    runs = 1 + int(np.count_nonzero(s[1:] != s[:-1]))
    total = math.comb(n1 + n2, n1)
    pmf = {}
    for R in range(2, 2 * min(n1, n2) + 2):
        k = R // 2
        if R % 2 == 0:
            c = 2 * math.comb(n1 - 1, k - 1) * math.comb(n2 - 1, k - 1)
        else:
            c = math.comb(n1 - 1, k) * math.comb(n2 - 1, k - 1) + math.comb(n1 - 1, k - 1) * math.comb(n2 - 1, k)
        pmf[R] = c
    lower = sum(c for R, c in pmf.items() if R <= runs)
    upper = sum(c for R, c in pmf.items() if R >= runs)
    return float(min(1.0, 2.0 * min(lower, upper) / total))


def runs_test_normal(residuals: Any) -> tuple[float, float, float]:
    r"""Two-sided Wald-Wolfowitz runs test, normal approximation: ``(runs, z, p)`` (the author's form).

    Signs are ``r >= 0`` and ``r < 0``; ``m < 8`` residuals or one sign only: ``(nan, nan, nan)``; every
    ``|r| <= 1e-10``: ``(1, 0, 1)`` (an exact fit). Moments under the null (``n+`` and ``n-`` signs of
    ``m``): ``E R = 1 + 2 n+ n- / m``, ``Var R = 2 n+ n- (2 n+ n- - m) / (m^2 (m - 1))``.

    >>> runs, z, p = runs_test_normal([1.0] * 6 + [-1.0] * 6)   # 2 runs of 12: E R = 7, Var R = 30/11
    >>> runs, round(z, 4), round(z * math.sqrt(30 / 11), 12), round(p, 4)
    (2.0, -3.0277, -5.0, 0.0025)
    """
    r = as_real_array("residuals", residuals).ravel()
    r = r[np.isfinite(r)]
    m = r.size
    if m < 8:
        return (math.nan, math.nan, math.nan)
    if float(np.max(np.abs(r))) <= EXACT_FIT:
        return (1.0, 0.0, 1.0)
    s = r >= 0
    n_pos = int(np.count_nonzero(s))
    n_neg = m - n_pos
    if n_pos == 0 or n_neg == 0:
        return (math.nan, math.nan, math.nan)
    runs = 1.0 + float(np.count_nonzero(s[1:] != s[:-1]))
    mu = 1.0 + 2.0 * n_pos * n_neg / m
    var = 2.0 * n_pos * n_neg * (2.0 * n_pos * n_neg - m) / (m * m * (m - 1.0))
    if var <= 0:
        return (runs, math.nan, math.nan)
    z = (runs - mu) / math.sqrt(var)
    return (runs, float(z), float(2.0 * stats.norm.sf(abs(z))))


# ----------------------------------------------------------------------------------------------------
# seed statistics of the architecture claims
# ----------------------------------------------------------------------------------------------------
LEVEL = 0.01           # one-sided false-alarm rate of every architecture claim's test
BOOT = 2000            # bootstrap resamples
BOOT_SEED = 20261203
MAX_BOOT = 10**4         # bootstrap resamples: percentile intervals need ~2000; the cost grows linearly


@dataclasses.dataclass(frozen=True)
class Paired:
    """Sign test and median interval of paired differences (positive = the claimed direction)."""

    n: int              # non-tied pairs
    n_pos: int
    p_greater: float    # one-sided p of "median difference > 0"
    p_less: float       # one-sided p of "median difference < 0"
    median: float
    lo: float           # (1 - 2 LEVEL) interval of the median difference
    hi: float

    def text(self) -> str:
        return (f"{self.n_pos}/{self.n} positive, p = {self.p_greater:.2g}; median {_f(self.median)} decades "
                f"[{_f(self.lo)}, {_f(self.hi)}]")


def _f(v: float) -> str:
    return "inf" if v == math.inf else "-inf" if v == -math.inf else f"{v:+.2f}"


def paired(d, level: float = LEVEL) -> Paired:
    """Sign test + order-statistic median interval of the differences ``d`` (NaN = inf - inf dropped).

    No difference left (a cell missing from a partial sweep): ``n = 0``, both p-values 1, ``median`` NaN and the
    interval ``(-inf, inf)``, i.e. no information (documented NaN, the architecture checks read it so)."""
    from scipy.stats import binom

    d = as_real_vector("d", d, min_size=0, finite=False)      # a sequence: a scalar d is no sample
    level = as_probability("level", level, open_min=True, open_max=True)
    d = d[~np.isnan(d)]
    nz = d[d != 0]
    n, k = len(nz), int(np.sum(nz > 0))
    p_g = float(binom.sf(k - 1, n, 0.5)) if n else 1.0          # P(K >= k)
    p_l = float(binom.cdf(k, n, 0.5)) if n else 1.0             # P(K <= k)
    s = np.sort(d)
    m = len(s)
    j = order_statistic_rank(m, level)
    lo, hi = (float(s[j - 1]), float(s[m - j])) if j >= 1 else (-math.inf, math.inf)
    med = float(np.median(s)) if m else math.nan
    return Paired(n, k, p_g, p_l, med, lo, hi)


def order_statistic_rank(m: int, level: float = LEVEL) -> int:
    """The rank ``j`` of :func:`paired`'s median interval over ``m`` differences, ``[d_(j), d_(m + 1 - j)]``: the
    largest ``j <= m // 2`` with ``P(Bin(m, 1/2) <= j - 1) <= level`` (0: no interval, ``(-inf, inf)``).

    >>> order_statistic_rank(15), order_statistic_rank(5)
    (3, 0)
    """
    from scipy.stats import binom

    m = as_int("m", m, minimum=0, maximum=10**6)           # one binomial cdf of m // 2 + 1 values
    level = as_probability("level", level, open_min=True, open_max=True)
    cdf = binom.cdf(np.arange(m // 2 + 1), m, 0.5)              # one vectorised call: the same values
    j = 0
    while j + 1 <= m // 2 and cdf[j] <= level:
        j += 1
    return j


def mwu(x, y) -> float:
    """One-sided Mann-Whitney p-value of "x tends to be larger than y" (NaN marks a missing value and is dropped,
    as in :func:`paired`; +-inf are ranked)."""
    from scipy.stats import mannwhitneyu

    x, y = as_real_vector("x", x, finite=False), as_real_vector("y", y, finite=False)
    x, y = x[~np.isnan(x)], y[~np.isnan(y)]
    if x.size == 0 or y.size == 0:
        raise ValueError(f"x and y must each hold at least one value (NaN dropped), got sizes {x.size} and {y.size}")
    return float(mannwhitneyu(x, y, alternative="greater").pvalue)


CENTERS = {"median": np.median, "mean": np.mean}     # what summarises a cell's per-seed values


def bootstrap(cells: dict, stat: Callable[[dict], float], level: float = LEVEL, *, B: int = BOOT,
              seed: int = BOOT_SEED, center: str = "median") -> tuple[float, float, float]:
    """(statistic, lo, hi): ``stat`` of the per-cell centres (``center``: ``"median"``, or ``"mean"``) and its
    percentile interval at ``1 - 2 level``, resampling each cell's per-seed values (a dict cell -> list of
    values) with replacement."""
    if not callable(stat):
        raise TypeError(f"stat must be a callable of the per-cell medians, got {type(stat).__name__}")
    level = as_probability("level", level, open_min=True, open_max=True)
    return percentile_interval(stat, *bootstrap_replicates(cells, B=B, seed=seed, center=center), level)


def percentile_interval(stat: Callable[[dict], float], point: dict, reps: list[dict],
                        level: float = LEVEL) -> tuple[float, float, float]:
    """(``stat(point)``, and the ``level`` and ``1 - level`` quantiles of ``stat`` over the replicates): the
    interval of :func:`bootstrap` from :func:`bootstrap_replicates`' output, so that several statistics of
    the same cells share one resampling (the same numbers as one :func:`bootstrap` call each)."""
    if not callable(stat):
        raise TypeError(f"stat must be a callable of the per-cell centres, got {type(stat).__name__}")
    as_instance("point", point, dict, "dict cell -> centre")
    if not isinstance(reps, (list, tuple)) or not reps or not all(isinstance(r, dict) for r in reps):
        raise TypeError(f"reps must be a non-empty list of dicts cell -> centre, got {type(reps).__name__}")
    level = as_probability("level", level, open_min=True, open_max=True)
    vals = np.asarray([stat(m) for m in reps], float)
    return stat(point), _quantile(vals, level, upper=False), _quantile(vals, 1 - level, upper=True)


def _quantile(vals: np.ndarray, q: float, *, upper: bool) -> float:
    """numpy's linear quantile, and where that is NaN beside an infinity (numpy interpolates with ``inf - inf`` or
    ``inf * 0``) the value of the interpolation in extended arithmetic: the order statistic itself at an exact
    position or between equal neighbours, the infinite neighbour beside a finite one, and between ``-inf`` and
    ``+inf`` the outer one (``+inf`` for an upper end, ``-inf`` for a lower). A statistic infinite on some replicates
    (a model's risk on a mixture it cannot fit) gave an interval end of NaN before, which no rule can read."""
    with np.errstate(invalid="ignore"):
        r = float(np.quantile(vals, q))
    if not math.isnan(r) or np.isnan(vals).any():
        return r
    v = np.sort(vals)
    h = (v.size - 1) * q
    i = math.floor(h)
    a, b = float(v[i]), float(v[min(i + 1, v.size - 1)])
    if h == i or a == b:
        return a
    if math.isinf(a) and math.isinf(b):
        return b if upper else a
    return a if math.isinf(a) else b


def bootstrap_replicates(cells: dict, *, B: int = BOOT, seed: int = BOOT_SEED,
                         center: str = "median") -> tuple[dict, list[dict]]:
    """(the per-cell centres of the data, the per-cell centres of each of the ``B`` seed resamples): the
    resampling of :func:`bootstrap` (the same draws for the same ``seed``), for statistics that need the
    replicates themselves (the worst case of a replicate under a bounded shift of every value:
    ``validation.checks._arch_fragility``).

    >>> point, reps = bootstrap_replicates({"a": [1.0, 3.0]}, B=4, seed=0)
    >>> point, len(reps), all(r["a"] in (1.0, 2.0, 3.0) for r in reps)
    ({'a': 2.0}, 4, True)
    """
    as_instance("cells", cells, dict, "dict cell -> list of per-seed values")
    B = as_int("B", B, minimum=1, maximum=MAX_BOOT)
    f = CENTERS[as_choice("center", center, tuple(CENTERS))]
    rng = np.random.default_rng(as_int("seed", seed, minimum=0))
    arr = {c: as_real_array(f"cells[{c!r}]", v, finite=False).ravel() for c, v in cells.items()}
    if any(v.size == 0 for v in arr.values()):
        raise ValueError("cells: every cell must hold at least one value")
    point = {c: float(f(v)) for c, v in arr.items()}
    reps = [{c: float(f(v[rng.integers(0, len(v), len(v))])) for c, v in arr.items()} for _ in range(B)]
    return point, reps


# ----------------------------------------------------------------------------------------------------
# optimal 1-d clustering
# ----------------------------------------------------------------------------------------------------
def _segment_cost(x: np.ndarray) -> np.ndarray:
    """``C[i, j]``: within-segment sum of squares of the sorted ``x[i..j]`` (inf for i > j)."""
    n = x.size
    c1 = np.concatenate([[0.0], np.cumsum(x)])
    c2 = np.concatenate([[0.0], np.cumsum(x * x)])
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    m = (j - i + 1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        s1 = c1[j + 1] - c1[i]
        cost = (c2[j + 1] - c2[i]) - s1 * s1 / m
    return np.where(j >= i, np.maximum(cost, 0.0), np.inf)


def kmeans_1d(x: Any, k: int) -> tuple[float, np.ndarray]:
    """Optimal k-cluster partition of the 1-d sample ``x`` (exact dynamic programme on the sorted values):
    ``(within-cluster sum of squares, labels in sorted order)``.

    >>> w, lab = kmeans_1d([0.0, 0.1, 5.0, 5.2, 9.0], 3)
    >>> round(w, 6), lab.tolist()
    (0.025, [0, 0, 1, 1, 2])
    """
    x = np.sort(as_real_array("x", x).ravel())
    k = as_int("k", k, minimum=1)
    n = x.size
    # the dynamic programme holds a few (n, n) float64 tables
    check_budget("x (its size)", 4 * 8.0 * n * n, MAX_MEMORY_BYTES, value=n)
    if n <= k:
        return 0.0, np.arange(n)
    # the partition is invariant under shifts and scalings: cluster (x / 2^e) - median, exact powers of two,
    # so that the squares neither overflow (x ~ 1e160) nor underflow, and a large offset does not cancel
    scale = 2.0 ** math.frexp(float(np.max(np.abs(x))) or 1.0)[1]
    x = x / scale
    x = x - float(np.median(x))
    C = _segment_cost(x)
    D = C[0].copy()                                     # D[j]: best cost of x[0..j] in c + 1 clusters
    starts = []
    for _ in range(1, k):
        tot = np.full((n, n), np.inf)
        tot[1:, :] = D[:-1, None] + C[1:, :]            # the last cluster is x[i..j], i >= 1
        i_best = np.argmin(tot, axis=0)
        D = tot[i_best, np.arange(n)]
        starts.append(i_best)
    labels = np.zeros(n, dtype=np.int64)
    j = n - 1
    for c in range(k - 1, 0, -1):                       # backtrack the cluster starts
        i = int(starts[c - 1][j])
        labels[i:j + 1] = c
        j = i - 1
    wcss = float(D[-1]) * scale * scale
    if not math.isfinite(wcss):
        raise ValueError(f"x spans too large a range: its within-cluster sum of squares ({float(D[-1]):.3g} * "
                         f"{scale:.3g}^2) exceeds float64")
    return wcss, labels
