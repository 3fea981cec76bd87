"""Statistics of the architecture verdicts: seed-paired sign tests, distribution-free median intervals,
Mann-Whitney comparisons and a seed bootstrap, all at one stated false-alarm rate.

Every architecture claim is decided by a test whose false-alarm rate over seeds is ``LEVEL`` (one-sided):
the probability that the claim is declared reproduced ("pass") when, in truth, the effect it states is absent.
Intervals are two-sided at ``1 - 2 LEVEL`` (each tail ``LEVEL``), so "the interval excludes 0 on the claimed
side" and "the one-sided test rejects at LEVEL" agree.

- :func:`paired`: differences ``d_i`` of log10 RelMSE between two conditions run with the *same seed* (same
  initialisation stream and minibatches), over seeds and alphas. Exact one-sided sign test (ties dropped) and
  the order-statistic interval for the median difference (``P(Bin(n, 1/2) <= k - 1) <= LEVEL``), both free of
  any distributional assumption; a diverged run (+inf) still has a sign.
- :func:`mwu`: one-sided Mann-Whitney U between two groups of values (exact for small samples).
- :func:`bootstrap`: percentile interval of a statistic of per-cell medians, resampling the seeds of every
  cell with replacement (``B`` resamples, fixed seed).

doctest::

    >>> r = paired([0.5] * 10)
    >>> r.n, r.n_pos, round(r.p_greater, 6), r.lo, r.hi
    (10, 10, 0.000977, 0.5, 0.5)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np

LEVEL = 0.01           # one-sided false-alarm rate of every architecture claim's test
BOOT = 2000            # bootstrap resamples
BOOT_SEED = 20261203


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
    """Sign test + order-statistic median interval of the differences ``d`` (NaN = inf - inf dropped)."""
    from scipy.stats import binom

    d = np.asarray([x for x in d if not math.isnan(x)], dtype=float)
    nz = d[d != 0]
    n, k = len(nz), int(np.sum(nz > 0))
    p_g = float(binom.sf(k - 1, n, 0.5)) if n else 1.0          # P(K >= k)
    p_l = float(binom.cdf(k, n, 0.5)) if n else 1.0             # P(K <= k)
    s = np.sort(d)
    m = len(s)
    j = 0                                                        # largest j with P(Bin(m, 1/2) <= j - 1) <= level
    while j + 1 <= m // 2 and binom.cdf(j, m, 0.5) <= level:
        j += 1
    lo, hi = (float(s[j - 1]), float(s[m - j])) if j >= 1 else (-math.inf, math.inf)
    med = float(np.median(s)) if m else math.nan
    return Paired(n, k, p_g, p_l, med, lo, hi)


def mwu(x, y) -> float:
    """One-sided Mann-Whitney p-value of "x tends to be larger than y"."""
    from scipy.stats import mannwhitneyu

    return float(mannwhitneyu(np.asarray(x, float), np.asarray(y, float), alternative="greater").pvalue)


def bootstrap(cells: dict, stat: Callable[[dict], float], level: float = LEVEL, *, B: int = BOOT,
              seed: int = BOOT_SEED) -> tuple[float, float, float]:
    """(statistic, lo, hi): ``stat`` of the per-cell medians and its percentile interval at ``1 - 2 level``,
    resampling each cell's per-seed values (a dict cell -> list of values) with replacement."""
    rng = np.random.default_rng(seed)
    med = {c: float(np.median(v)) for c, v in cells.items()}
    est = stat(med)
    arr = {c: np.asarray(v, float) for c, v in cells.items()}
    reps = []
    for _ in range(B):
        reps.append(stat({c: float(np.median(v[rng.integers(0, len(v), len(v))])) for c, v in arr.items()}))
    reps = np.asarray(reps, float)
    return est, float(np.quantile(reps, level)), float(np.quantile(reps, 1 - level))


def log10(v) -> float:
    """log10 of a RelMSE (None or inf = diverged -> +inf; 0 floored at 1e-300)."""
    if v is None or v == math.inf:
        return math.inf
    return math.log10(max(float(v), 1e-300))
