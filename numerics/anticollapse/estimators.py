r"""Estimators of the spectral exponent beta from time scales and from envelopes, and the phase rule.

Source: the estimation protocol of L. Livi, arXiv:2606.29519 (2026), as fixed in
``docs/papers/anti-collapse.md`` ("Estimating beta from data"); the author's public code was read for
reference only.

From a sample of time scales ``tau_1..tau_n`` (one per unit):

* :func:`tail_beta`: least-squares slope of ``log P(tau > x)`` against ``log x`` over the empirical
  quantile window ``[q_lo, q_hi] = [0.75, 0.995]``; ``beta_hat = max(0, -slope)`` with the fit's ``R^2``;
  a bootstrap over units (``B = 2000`` resamples) gives a percentile interval (90% by default) and
  ``P(beta_hat < 1)``. The empirical survival function at a sample value ``x`` is
  ``#{tau_i > x} / n``; tied values give one point; points with survival 0 are dropped.
* :func:`hill_beta`: the Hill estimator ``k / sum_{i<k} log(x_(i) / x_(k))`` (descending order statistics
  ``x_(0) >= x_(1) >= ...``) at ``k = max(50, floor(0.08 n))``, capped at ``n - 1``: a cross-check.
* :func:`lognormal_comparison`: the rule "never call a straight finite-window CCDF a power law without
  comparing to a log-normal reference" (same page): Vuong's normalised log-likelihood-ratio test of a Pareto tail
  against a truncated log-normal tail above the same lower quantile (Clauset, Shalizi, Newman, SIAM Review
  51 (2009) 661, Sec. 5; Vuong, Econometrica 57 (1989) 307).

From an envelope ``f(l)`` on a lag grid:

* :func:`envelope_fit`: least-squares fits of ``log f`` by exponential ``a + b l``, power ``c + d log l``
  and tempered ``a + d log l + b l``; Gaussian-error AIC ``n log(RSS/n) + 2 (p + 1)``; a Wald-Wolfowitz
  runs test (exact null distribution, two-sided) on the signs of the power-law fit's residuals.
  ``window_ok`` = the runs test does not reject at ``runs_alpha`` AND the power or tempered fit beats the
  exponential one by AIC.
* :func:`spectrum_envelope_fit`: the envelope of a time-scale sample, ``mean_q exp(-l / tau_q)``, fitted by
  :func:`envelope_fit`, with a bootstrap over units for the interval of the power-law exponent.
* :func:`phase_rule`: "collapsed" unless ``window_ok``; "unresolved" if the tail fit's R^2 < 0.90 (when
  given); "concentrated" if the interval lies above 1; "extended" if below 1; "boundary" otherwise.

The author's envelope gate (window l <= l*, normal-approximation runs test on a power refit of the window),
the resolution check and the calibrated tail-vs-envelope comparison are in
:mod:`numerics.anticollapse.envelope_gate`; :func:`envelope_fit` here is our stricter whole-grid variant.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from numerics.stats import MAX_BOOT, runs_test
from theory._args import as_float64, as_int, as_measurement, as_real, as_real_array
from theory.tauberian import envelope_from_spectrum

__all__ = [
    "TailFit", "EnvelopeFit", "SpectrumEnvelopeFit", "LognormalComparison", "tail_beta", "hill_beta", "envelope_fit",
    "spectrum_envelope_fit", "phase_rule", "lognormal_comparison", "MIN_TAIL_SAMPLE", "DegenerateTail",
]

MIN_TAIL_SAMPLE = 16            # a tail fit needs >= 16 finite time scales (docs/papers/anti-collapse.md)
_MIN_POINTS = 3                 # distinct CCDF points in the window for a slope
_BOOT_CHUNK_ELEMENTS = 1 << 21  # bootstrap resamples are processed in blocks of about this many values
_EXACT_FIT_RTOL = 1e-9          # residuals below this (relative to the scale of log f) count as zero


# ----------------------------------------------------------------------------------------------------
# results
# ----------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class TailFit:
    """The tail exponent of a time-scale sample, from the slope of its empirical CCDF.

    Returned by :func:`tail_beta` (and inside :class:`numerics.anticollapse.sde_tail.SDEBeta`).

    Parameters
    ----------
    beta : float
        ``max(0, -slope)`` of the log-log CCDF fit on the full sample.
    ci : (float, float)
        Bootstrap percentile interval at ``level``.
    r2 : float
        R^2 of the log-log least-squares fit.
    p_below_1 : float
        Bootstrap ``P(beta_hat < 1)``.
    n_tail, n, n_dropped : int
        Distinct CCDF points in the window, finite time scales used, infinite ones left out.
    window_x, window_q : (float, float)
        The quantile window in tau units and as quantiles ``(q_lo, q_hi)``.
    level : float
        Level of ``ci``.
    boot : numpy.ndarray
        The bootstrap replicates (NaN-free).
    n_boot_failed : int
        Resamples with fewer than 3 distinct CCDF points in the window.

    Returns
    -------
    TailFit
        A frozen record.

    Examples
    --------
    >>> x = (1.0 - (np.arange(10000) + 0.5) / 10000) ** (-1 / 1.5)    # Pareto(beta = 1.5) quantiles
    >>> fit = tail_beta(x, n_boot=100)
    >>> round(fit.beta, 1), fit.n, fit.window_q
    (1.5, 10000, (0.75, 0.995))
    """

    beta: float                 # max(0, -slope) on the full sample
    ci: tuple[float, float]     # bootstrap percentile interval at `level`
    r2: float                   # R^2 of the log-log least-squares fit
    p_below_1: float            # bootstrap P(beta_hat < 1)
    n_tail: int                 # distinct CCDF points in the window
    n: int                      # finite time scales used
    n_dropped: int              # infinite time scales (non-decaying units) left out
    window_x: tuple[float, float]   # the quantile window in tau units
    window_q: tuple[float, float]   # the quantile window (q_lo, q_hi)
    level: float
    boot: np.ndarray = dataclasses.field(repr=False)   # bootstrap replicates (NaN-free)
    n_boot_failed: int = 0      # resamples with fewer than 3 distinct CCDF points in the window


@dataclasses.dataclass(frozen=True)
class EnvelopeFit:
    """Exponential, power and tempered fits of an envelope ``f(l)``, the exponent, and the window test.

    Returned by :func:`envelope_fit` (and inside :class:`SpectrumEnvelopeFit`).

    Parameters
    ----------
    beta : float
        ``-d`` of the tempered fit if it is best, else ``-d`` of the power fit.
    ci : (float, float)
        t interval at ``level`` (se: the larger of OLS and Newey-West).
    best : {"exponential", "power", "tempered"}
        The model with the smallest AIC.
    aic, params, rss : dict
        Per model: AIC, coefficients in the order of the formula (exponential ``(a, b)``, power ``(c, d)``,
        tempered ``(a, d, b)``), residual sum of squares.
    window_ok : bool
        The runs test on the power-fit residual signs does not reject (at ``runs_alpha``).
    runs_p : float
        Its two-sided p-value.
    lags : numpy.ndarray
        The lags fitted.
    level : float
        Level of ``ci``.

    Returns
    -------
    EnvelopeFit
        A frozen record.

    Examples
    --------
    >>> lags = np.geomspace(10, 1000, 20)
    >>> fit = envelope_fit(lags, 3.0 * lags ** -0.8)                  # an exact power law
    >>> round(fit.beta, 6), fit.best in ("power", "tempered")
    (0.8, True)
    """

    beta: float                 # -d of the tempered fit if it is best, else -d of the power fit
    ci: tuple[float, float]     # t interval at `level`, se = max(OLS, Newey-West)
    best: str                   # "exponential" | "power" | "tempered" (smallest AIC)
    aic: dict
    window_ok: bool
    runs_p: float               # two-sided p-value of the runs test on the power-fit residual signs
    params: dict
    rss: dict
    lags: np.ndarray = dataclasses.field(repr=False)
    level: float = 0.90


@dataclasses.dataclass(frozen=True)
class SpectrumEnvelopeFit:
    """Result of :func:`spectrum_envelope_fit`."""

    fit: EnvelopeFit            # envelope_fit of the full sample's envelope
    beta: float                 # = fit.beta
    ci: tuple[float, float]     # bootstrap-over-units percentile interval at `level`
    boot: np.ndarray = dataclasses.field(repr=False)
    level: float = 0.90


@dataclasses.dataclass(frozen=True)
class LognormalComparison:
    """Result of :func:`lognormal_comparison`."""

    loglik_ratio: float         # sum of pointwise log(Pareto / truncated log-normal) over the tail
    z: float                    # Vuong's normalised statistic
    p_value: float              # two-sided
    favoured: str               # "power" | "lognormal" | "undecided" (at significance `alpha`)
    beta_pareto: float          # Pareto MLE exponent of the tail (the Hill estimator at that x_min)
    lognormal: tuple[float, float]   # (mu, sigma) of the truncated log-normal MLE
    x_min: float
    n_tail: int


# ----------------------------------------------------------------------------------------------------
# tail slope
# ----------------------------------------------------------------------------------------------------
def as_time_scales(name: str, tau: Any) -> tuple[np.ndarray, int]:
    """A sample of time scales: ``(finite values, number of +inf)``; +inf (a non-decaying unit) is dropped,
    NaN, -inf and values <= 0 are refused. The one check of every ``tau`` sample of the toolkit."""
    t = as_real_array(name, tau, finite=False).ravel()
    if np.any(np.isnan(t)) or np.any(t == -np.inf):
        raise ValueError(f"{name} must not contain NaN or -inf")
    finite = np.isfinite(t)
    if np.any(t[finite] <= 0):
        raise ValueError(f"{name} must be > 0 (time scales)")
    return t[finite], int(t.size - np.count_nonzero(finite))


def _check_window(window: Any) -> tuple[float, float]:
    try:
        lo, hi = window
    except (TypeError, ValueError):
        raise TypeError(f"window must be a pair (q_lo, q_hi), got {window!r}") from None
    lo = as_real("window[0]", lo, minimum=0.0, maximum=1.0, open_max=True)
    hi = as_real("window[1]", hi, minimum=0.0, maximum=1.0, open_max=True)
    if not lo < hi:
        raise ValueError(f"window must satisfy 0 <= q_lo < q_hi < 1, got {window!r}")
    return lo, hi


def _row_quantiles(s: np.ndarray, q: float) -> np.ndarray:
    """numpy's default (linear) quantile of each sorted row of ``s``."""
    n = s.shape[1]
    h = (n - 1) * q
    i = int(math.floor(h))
    j = min(i + 1, n - 1)
    return s[:, i] + (h - i) * (s[:, j] - s[:, i])


def _ccdf_slopes(s: np.ndarray, window: tuple[float, float]):
    """Least-squares slope, R^2 and point count of log CCDF vs log x for each sorted row of ``s``."""
    B, n = s.shape
    x_lo, x_hi = _row_quantiles(s, window[0]), _row_quantiles(s, window[1])
    last = np.ones_like(s, dtype=bool)              # last occurrence of each value: one point per tie
    last[:, :-1] = s[:, :-1] != s[:, 1:]
    surv = (n - 1 - np.arange(n)) / n               # #{> s_i} / n at the last occurrence
    m = last & (s >= x_lo[:, None]) & (s <= x_hi[:, None]) & (surv > 0)[None, :]
    w = m.astype(np.float64)
    X = np.log(s)
    Y = np.log(np.where(surv > 0, surv, 1.0))[None, :]
    k = w.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = (w * X).sum(axis=1) / k
        my = (w * Y).sum(axis=1) / k
        dx = np.where(m, X - mx[:, None], 0.0)
        dy = np.where(m, Y - my[:, None], 0.0)
        sxx, sxy, syy = (dx * dx).sum(axis=1), (dx * dy).sum(axis=1), (dy * dy).sum(axis=1)
        slope = sxy / sxx
        r2 = np.where(syy > 0, sxy * sxy / (sxx * syy), 1.0)
    bad = (k < _MIN_POINTS) | ~(sxx > 0)
    slope[bad] = np.nan
    r2[bad] = np.nan
    return slope, r2, k.astype(np.int64), x_lo, x_hi




class DegenerateTail(ValueError):
    """:func:`tail_beta`'s sample has too few distinct values in its quantile window for a slope (e.g. every
    unit has the same time scale); a ValueError, so callers that treat bad input alike need not know it."""


def tail_beta(tau: Any, *, window: tuple[float, float] = (0.75, 0.995), n_boot: int = 2000, seed: int = 0,
              level: float = 0.90) -> TailFit:
    r"""Tail exponent of a time-scale sample from the slope of its empirical CCDF.

    The estimator of Livi (2026), arXiv:2606.29519, as fixed in ``docs/papers/anti-collapse.md``
    ("Estimating beta from data"): for ``P(tau > x) ~ A x^(-beta)``, ``beta`` is minus the log-log slope.

    ``log P(tau > x) ~ c - beta log x`` is fitted by least squares on the sample values between the
    empirical ``window`` quantiles (numpy linear interpolation); ``beta = max(0, -slope)``. The interval is
    the percentile bootstrap over units: ``n_boot`` resamples with replacement (generator
    ``numpy.random.default_rng(seed)``), the same fit on each; ``p_below_1`` is the fraction of replicates
    with ``beta < 1``. Non-finite ``+inf`` time scales (non-decaying units) are left out and counted in
    ``n_dropped``; at least 16 finite values are needed. For a Pareto sample the CCDF is exactly linear in
    log-log, so the estimator is consistent; a log-normal sample can also look straight over a finite
    window: compare with :func:`lognormal_comparison`.

    Coverage of the percentile interval, measured on exact Pareto samples (200 seeds, ``n_boot = 400``,
    beta = 0.5 and 1.5): 0.895 at n = 1000 but 0.835 at n = 300 for nominal 0.90 (the estimator is biased
    upward by about 0.2 standard deviations at n = 300 and the bootstrap replicates by as much again), so
    read intervals from small samples as slightly optimistic.

    Parameters
    ----------
    tau : array_like of float
        Time scales, one per unit (> 0; ``+inf`` marks a non-decaying unit and is left out); at least
        ``MIN_TAIL_SAMPLE`` (16) finite values.
    window : (float, float), default (0.75, 0.995)
        Quantile window ``(q_lo, q_hi)``, ``0 <= q_lo < q_hi < 1``.
    n_boot : int, default 2000
        Bootstrap resamples over units, ``1 <= n_boot <= MAX_BOOT``.
    seed : int, default 0
        Seed (>= 0) of the bootstrap.
    level : float, default 0.90
        Level of the percentile interval, in (0, 1).

    Returns
    -------
    TailFit
        ``beta``, the interval ``ci``, ``r2``, ``p_below_1``, the window in tau units and in quantiles, the
        counts (``n``, ``n_tail``, ``n_dropped``) and the bootstrap replicates.

    Raises
    ------
    TypeError
        ``tau`` not an array of real numbers, ``window`` not a pair, an argument of the wrong type.
    DegenerateTail
        Fewer than 3 distinct values in the quantile window (a ``ValueError``).
    ValueError
        NaN, -inf or values <= 0 in ``tau``, fewer than 16 finite time scales, an argument out of range.

    Examples
    --------
    >>> x = (1.0 - (np.arange(4000) + 0.5) / 4000) ** (-1 / 0.8)      # Pareto(beta = 0.8) quantiles
    >>> r = tail_beta(x, n_boot=200)
    >>> round(r.beta, 2), r.r2 > 0.999, r.ci[0] < 0.8 < r.ci[1]
    (0.8, True, True)
    >>> r.ci == tail_beta(x, n_boot=200, seed=0).ci, r.n, r.boot.shape    # seeded bootstrap
    (True, 4000, (200,))
    >>> tail_beta(np.full(20, 3.0))                                    # one value: no slope
    Traceback (most recent call last):
    ...
    numerics.anticollapse.estimators.DegenerateTail: tau has fewer than 3 distinct values in the quantile window (0.75, 0.995)
    """
    t, n_inf = as_time_scales("tau", tau)
    window = _check_window(window)
    n_boot = as_int("n_boot", n_boot, minimum=1, maximum=MAX_BOOT)
    seed = as_int("seed", seed, minimum=0)
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    n = t.size
    if n < MIN_TAIL_SAMPLE:
        raise ValueError(f"tau needs >= {MIN_TAIL_SAMPLE} finite time scales for a tail fit, got {n}")
    s = np.sort(t)[None, :]
    slope, r2, k, x_lo, x_hi = _ccdf_slopes(s, window)
    if not np.isfinite(slope[0]):
        raise DegenerateTail(f"tau has fewer than {_MIN_POINTS} distinct values in the quantile window {window}")
    rng = np.random.default_rng(seed)
    chunk = max(1, _BOOT_CHUNK_ELEMENTS // n)
    boot = np.empty(n_boot)
    for start in range(0, n_boot, chunk):
        b = min(chunk, n_boot - start)
        rows = np.sort(t[rng.integers(0, n, size=(b, n))], axis=1)
        boot[start:start + b] = _ccdf_slopes(rows, window)[0]
    ok = np.isfinite(boot)
    betas = np.maximum(0.0, -boot[ok])
    if betas.size == 0:
        raise ValueError("no bootstrap resample had a usable tail window; tau is too degenerate")
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(betas, [a, 1.0 - a])
    return TailFit(beta=float(max(0.0, -slope[0])), ci=(float(lo), float(hi)), r2=float(r2[0]),
                   p_below_1=float(np.mean(betas < 1.0)), n_tail=int(k[0]), n=n, n_dropped=n_inf,
                   window_x=(float(x_lo[0]), float(x_hi[0])), window_q=window, level=level, boot=betas,
                   n_boot_failed=int(n_boot - betas.size))


def hill_beta(tau: Any, n_tail: int | None = None) -> float:
    r"""Hill's estimator of the tail exponent: ``beta = m / sum_{i<m} log(x_(i) / x_(m))``, ``m = n_tail``.

    ``x_(0) >= x_(1) >= ...`` are the descending order statistics of the finite time scales (+inf are left
    out); ``n_tail = max(50, floor(0.08 N))`` by default (N finite time scales), capped at ``N - 1``. Source:
    B. M. Hill, Ann. Statist. 3 (1975) 1163. For an exact Pareto sample ``m beta / beta_hat ~ Gamma(m, 1)``
    (Renyi representation): ``1/beta_hat`` is unbiased for ``1/beta`` and ``E beta_hat = beta m/(m-1)``.

    >>> x = (1.0 - (np.arange(10000) + 0.5) / 10000) ** (-1 / 1.5)     # Pareto(1.5) quantiles
    >>> round(hill_beta(x), 2)
    1.5
    """
    t, _ = as_time_scales("tau", tau)
    size = t.size
    if size < 2:
        raise ValueError(f"tau needs >= 2 finite time scales for the Hill estimator, got {size}")
    if n_tail is None:
        m = min(max(50, int(0.08 * size)), size - 1)
    else:
        m = as_int("n_tail", n_tail, minimum=1, maximum=size - 1)
    d = np.sort(t)[::-1]
    g = float(np.mean(np.log(d[:m])) - math.log(d[m]))
    if not g > 0:
        raise ValueError("the top n_tail + 1 time scales are all equal: the Hill estimator is undefined")
    return 1.0 / g


def lognormal_comparison(tau: Any, *, q_min: float = 0.75, significance: float = 0.05) -> LognormalComparison:
    r"""Is the upper tail (above the ``q_min`` quantile) better described by a power law or a log-normal?

    Above ``x_min`` both candidates are fitted by maximum likelihood on the ``n_t`` tail points: the
    Pareto density ``beta x_min^beta x^(-1-beta)`` (``beta_hat = n_t / sum log(x / x_min)``) and the
    log-normal density truncated to ``x > x_min``, ``phi((ln x - mu)/sigma) / (sigma x S(x_min))`` with
    ``S(x_min) = Phi_c((ln x_min - mu)/sigma)``. With pointwise log-likelihood differences ``l_i``,
    ``R = sum l_i`` and Vuong's statistic ``z = R / (sqrt(n_t) sd(l_i))`` is asymptotically N(0, 1) when the
    two models are equally close to the truth (non-nested case). ``favoured`` is "power" if ``z > 0`` and
    the two-sided p-value is below ``significance``, "lognormal" if ``z < 0`` and p < significance, else "undecided"
    (a finite window often cannot tell them apart: then a straight CCDF is not evidence of a power law).
    Source: Clauset, Shalizi, Newman (2009), Sec. 5. A log-normal with ``mu -> -inf`` and large ``sigma``
    approaches a Pareto tail, so on genuine power-law data the expected verdict is "undecided" (measured:
    5 of 5 Pareto samples of 20000 at beta = 0.8, |z| < 0.4); the test's use is to reject the power law
    when the log-normal is clearly closer (log-normal data of 2000 points: z between -2.6 and -3.9).

    >>> rng = np.random.default_rng(0)
    >>> lognormal_comparison(np.exp(rng.normal(0.0, 1.0, 20000))).favoured
    'lognormal'
    """
    t, _ = as_time_scales("tau", tau)
    q_min = as_real("q_min", q_min, minimum=0.0, maximum=1.0, open_max=True)
    significance = as_real("significance", significance, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    if t.size < MIN_TAIL_SAMPLE:
        raise ValueError(f"tau needs >= {MIN_TAIL_SAMPLE} finite time scales, got {t.size}")
    x_min = float(np.quantile(t, q_min))
    x = t[t > x_min]
    if x.size < 8 or np.ptp(x) == 0:
        raise ValueError("fewer than 8 distinct tail points above the q_min quantile")
    lx = np.log(x)
    lxm = math.log(x_min)
    beta = x.size / float(np.sum(lx - lxm))
    ll_pow = math.log(beta) + beta * lxm - (1.0 + beta) * lx

    def nll(p):
        mu, log_sigma = p
        sg = math.exp(log_sigma)
        z = (lx - mu) / sg
        return -float(np.sum(-0.5 * z * z - lx - log_sigma - 0.5 * math.log(2 * math.pi)
                             - special.log_ndtr(-(lxm - mu) / sg)))

    # start at the untruncated fit; mu may run far left (the log-normal then mimics a power law)
    start = np.array([lx.mean(), math.log(max(lx.std(), 1e-3))])
    res = optimize.minimize(nll, start, method="Nelder-Mead",
                            options=dict(xatol=1e-10, fatol=1e-12, maxiter=20000, maxfev=40000))
    mu, sg = float(res.x[0]), float(math.exp(res.x[1]))
    z = (lx - mu) / sg
    ll_ln = -0.5 * z * z - lx - math.log(sg) - 0.5 * math.log(2 * math.pi) - special.log_ndtr(-(lxm - mu) / sg)
    d = ll_pow - ll_ln
    R = float(np.sum(d))
    sd = float(np.std(d))
    zst = R / (math.sqrt(d.size) * sd) if sd > 0 else 0.0
    p = float(2.0 * special.ndtr(-abs(zst)))
    fav = "undecided" if p >= significance else ("power" if zst > 0 else "lognormal")
    return LognormalComparison(loglik_ratio=R, z=zst, p_value=p, favoured=fav, beta_pareto=beta,
                               lognormal=(mu, sg), x_min=x_min, n_tail=int(x.size))


# ----------------------------------------------------------------------------------------------------
# envelope fits
# ----------------------------------------------------------------------------------------------------
_MODELS = ("exponential", "power", "tempered")


def _design(model: str, l: np.ndarray) -> np.ndarray:
    one = np.ones_like(l)
    if model == "exponential":
        return np.column_stack([one, l])
    if model == "power":
        return np.column_stack([one, np.log(l)])
    return np.column_stack([one, np.log(l), l])


def _hac_se(X: np.ndarray, resid: np.ndarray, col: int) -> float:
    """Newey-West (Bartlett kernel) standard error of coefficient ``col``: residuals along a lag grid are
    autocorrelated, which the plain OLS standard error ignores."""
    n, p = X.shape
    bw = int(math.floor(4.0 * (n / 100.0) ** (2.0 / 9.0)))
    xinv = np.linalg.pinv(X.T @ X)
    u = X * resid[:, None]
    S = u.T @ u
    for j in range(1, min(bw, n - 1) + 1):
        g = u[j:].T @ u[:-j]
        S += (1.0 - j / (bw + 1.0)) * (g + g.T)
    cov = xinv @ S @ xinv * n / max(n - p, 1)
    return float(math.sqrt(max(cov[col, col], 0.0)))


def _fit_log_models(l: np.ndarray, y: np.ndarray) -> tuple[dict, dict, dict, dict]:
    """Least-squares fits of ``y = log f`` by the three models: ``(params, rss, residuals, designs)``."""
    params, rss, resid, designs = {}, {}, {}, {}
    for m in _MODELS:
        X = _design(m, l)
        coef, *_ = np.linalg.lstsq(X, y, rcond=None)
        r = y - X @ coef
        params[m], rss[m], resid[m], designs[m] = tuple(float(c) for c in coef), float(r @ r), r, X
    return params, rss, resid, designs


def _check_envelope(lags: Any, f: Any, minimum: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted positive distinct lags and ``log f`` (f > 0), at least ``minimum`` points."""
    l = as_real_array("lags", lags).ravel()
    y = as_real_array("f", f).ravel()
    if l.shape != y.shape:
        raise ValueError(f"lags and f must have the same length, got {l.size} and {y.size}")
    if np.any(l <= 0):
        raise ValueError("lags must be > 0 (the power law is fitted in log l)")
    if np.any(y <= 0):
        raise ValueError("f must be > 0 (log f is fitted)")
    order = np.argsort(l)
    l, y = l[order], np.log(y[order])
    if l.size < minimum:
        raise ValueError(f"the envelope fit needs >= {minimum} lags (in the window), got {l.size}")
    if np.any(np.diff(l) == 0):
        raise ValueError("lags must be distinct")
    return l, y


def _lag_window(l: Any, f: Any, window: Any) -> tuple[Any, Any]:
    if window is None:
        return l, f
    try:
        w_lo, w_hi = window
    except (TypeError, ValueError):
        raise TypeError(f"window must be None or a pair (l_lo, l_hi), got {window!r}") from None
    w_lo, w_hi = as_real("window[0]", w_lo, minimum=0.0), as_real("window[1]", w_hi, minimum=0.0)
    l, f = as_real_array("lags", l).ravel(), as_real_array("f", f).ravel()
    if l.shape != f.shape:
        raise ValueError(f"lags and f must have the same length, got {l.size} and {f.size}")
    keep = (l >= w_lo) & (l <= w_hi)
    return l[keep], f[keep]


def envelope_fit(lags: Any, f: Any, *, level: float = 0.90, runs_alpha: float = 0.05,
                 window: tuple[float, float] | None = None) -> EnvelopeFit:
    r"""Fit an envelope by exponential, power and tempered laws, and test the power-law window.

    Our whole-grid envelope test (exact runs test); the author's gate is ``window_gate``. Source: the
    envelope fits of Livi (2026), arXiv:2606.29519, as fixed in ``docs/papers/anti-collapse.md``
    ("Estimating beta from data"). Models (least squares on ``y = log f``): exponential ``a + b l``, power ``c + d log l``, tempered
    ``a + d log l + b l``. ``AIC = n log(RSS/n) + 2 (p + 1)`` (Gaussian errors, ``p`` coefficients); RSS is
    floored at ``n (1e-9 s)^2`` with ``s = max(1, max |y|)`` so that exact fits tie and the simpler model
    wins. ``beta`` is ``-d`` of the tempered fit when it is best, else ``-d`` of the power fit; ``ci`` is
    ``beta +- t_{(1+level)/2, n-p} se`` with ``se`` the larger of the OLS and the Newey-West (HAC) standard
    errors. The interval reflects scatter of ``log f`` about the fit only (on a deterministic curve it is
    not a sampling interval); for the sampling uncertainty of a finite spectrum use
    :func:`spectrum_envelope_fit`. Measured (exact power law, iid N(0, 0.02^2) noise on log f, 24 log-spaced
    lags, 400 seeds): coverage 0.84 at level 0.90 (0.89 when the power model is selected).

    ``window_ok`` (ours, stricter than the author's gate): the *exact* runs test (:func:`runs_test`) on the
    signs of the power fit's residuals over the *whole* grid (those within ``1e-9 s`` of zero dropped) has
    ``p >= runs_alpha``, and ``min(AIC_power, AIC_tempered) < AIC_exp``. On a noiseless envelope any misfit
    is systematic, so a finite mixture ``mean_q exp(-l/tau_q)`` (even of exact Pareto time scales) fails it.
    The levy.* checks use this test; the gated-RNN phase labels use :func:`window_gate`.
    ``window=(l_lo, l_hi)`` restricts everything to lags in that closed range. At least 5 points.

    Parameters
    ----------
    lags : array_like of float
        Distinct lags ``l > 0`` (any order).
    f : array_like of float
        Envelope values ``f(l) > 0``, one per lag (``log f`` is fitted).
    level : float, default 0.90
        Level of the t interval of ``beta``, in (0, 1).
    runs_alpha : float, default 0.05
        Significance of the runs test, in [0, 1).
    window : (float, float), optional
        ``(l_lo, l_hi)``: fit only the lags in that closed range (None: every lag).

    Returns
    -------
    EnvelopeFit
        ``beta`` and its interval ``ci``, the ``best`` model, the ``aic``, ``params`` and ``rss`` of every
        model, ``window_ok``, the runs test's ``runs_p``, the sorted ``lags`` fitted and the ``level``.

    Raises
    ------
    TypeError
        ``lags`` or ``f`` not arrays of real numbers, ``window`` not a pair.
    ValueError
        Lags not > 0 or not distinct, ``f`` not > 0, different lengths, fewer than 5 lags (in the window),
        ``level`` or ``runs_alpha`` out of range.

    Examples
    --------
    >>> l = np.geomspace(8, 640, 24)
    >>> r = envelope_fit(l, 3.0 * l ** -0.6)
    >>> r.best, round(r.beta, 12), r.window_ok
    ('power', 0.6, True)
    >>> envelope_fit(l, np.exp(-l / 50.0)).best
    'exponential'
    >>> r = envelope_fit(l, l ** -0.5 * np.exp(-l / 200.0))          # a tempered power law, exactly
    >>> r.best, round(r.beta, 9), bool(np.allclose(r.params["tempered"], (0.0, -0.5, -1 / 200.0)))   # (a, d, b)
    ('tempered', 0.5, True)
    """
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    runs_alpha = as_real("runs_alpha", runs_alpha, minimum=0.0, maximum=1.0, open_max=True)
    l, y = _check_envelope(*_lag_window(lags, f, window), minimum=5)
    scale = max(1.0, float(np.max(np.abs(y))))
    floor = l.size * (_EXACT_FIT_RTOL * scale) ** 2
    params, rss, resid, designs = _fit_log_models(l, y)
    aic = {m: float(l.size * math.log(max(rss[m], floor) / l.size) + 2 * (designs[m].shape[1] + 1)) for m in _MODELS}
    best = min(_MODELS, key=lambda m: (aic[m], _MODELS.index(m)))
    src = "tempered" if best == "tempered" else "power"
    beta = -params[src][1]
    X = designs[src]
    n_fit, p_fit = X.shape
    ols = math.sqrt(rss[src] / max(n_fit - p_fit, 1) * float(np.linalg.pinv(X.T @ X)[1, 1]))
    se = max(ols, _hac_se(X, resid[src], 1))
    half = float(stats.t.ppf(0.5 + level / 2.0, n_fit - p_fit)) * se
    p_runs = runs_test(resid["power"], zero_tol=_EXACT_FIT_RTOL * scale)
    ok = p_runs >= runs_alpha and min(aic["power"], aic["tempered"]) < aic["exponential"]
    return EnvelopeFit(beta=float(beta), ci=(float(beta - half), float(beta + half)), best=best, aic=aic,
                       window_ok=bool(ok), runs_p=p_runs, params=params, rss=rss, lags=l, level=level)


def spectrum_envelope_fit(tau: Any, lags: Any, *, weights: Any = None, n_boot: int = 2000, seed: int = 0,
                          level: float = 0.90, runs_alpha: float = 0.05):
    r"""Envelope of a time-scale sample and its power-law exponent with a bootstrap-over-units interval.

    ``f(l) = sum_q w_q exp(-l / tau_q) / sum_q w_q`` (:func:`theory.tauberian.envelope_from_spectrum`; the
    Tauberian link: ``p(tau) ~ A tau^(-1-beta)`` gives ``f ~ A Gamma(beta) l^(-beta)``) is fitted by
    :func:`envelope_fit`; the units are resampled ``n_boot`` times (``default_rng(seed)``) and the chosen
    model's exponent refitted, giving a percentile interval at ``level`` (:class:`SpectrumEnvelopeFit`).
    This interval carries the sampling uncertainty of a finite spectrum, which :func:`envelope_fit`'s own
    interval (scatter about the fit) does not.

    >>> tau = 10.0 * (1.0 - (np.arange(4000) + 0.5) / 4000) ** (-1 / 0.6)   # Pareto(0.6) quantiles
    >>> r = spectrum_envelope_fit(tau, np.geomspace(400, 4000, 12), n_boot=100)
    >>> r.fit.best, r.ci[0] < r.beta < r.ci[1]
    ('tempered', True)
    """
    if isinstance(tau, (bool, np.bool_, str, bytes)) or np.asarray(tau).dtype.kind in "bUSO":
        raise TypeError(f"tau must be an array of real numbers, got {tau!r:.60}")
    tau_arr = as_float64("tau", tau, "an array of real numbers").ravel()
    if np.any(np.isnan(tau_arr)) or np.any(tau_arr <= 0):
        raise ValueError("tau must be > 0 (inf allowed for non-decaying units)")
    n_boot = as_int("n_boot", n_boot, minimum=1, maximum=MAX_BOOT)
    seed = as_int("seed", seed, minimum=0)
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    w = np.ones(tau_arr.size) if weights is None else as_real_array("weights", weights, minimum=0.0).ravel()
    if w.shape != tau_arr.shape or not w.sum() > 0:
        raise ValueError("weights must be nonnegative, not all 0, one per time scale")
    f = envelope_from_spectrum(lags, tau_arr, weights=w)
    if not np.all(np.asarray(f) > 0):
        raise ValueError("lags too long for the time scales tau: the envelope underflows to 0 (log f is fitted)")
    fit = envelope_fit(lags, f, level=level, runs_alpha=runs_alpha)
    src = "tempered" if fit.best == "tempered" else "power"
    rng = np.random.default_rng(seed)
    boot = np.empty(n_boot)
    X = _design(src, fit.lags)
    pinv = np.linalg.pinv(X)
    for i in range(n_boot):
        idx = rng.integers(0, tau_arr.size, size=tau_arr.size)
        fb = envelope_from_spectrum(fit.lags, tau_arr[idx], weights=w[idx])
        boot[i] = -(pinv @ np.log(np.maximum(fb, np.finfo(float).tiny)))[1]
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(boot, [a, 1.0 - a])
    return SpectrumEnvelopeFit(fit=fit, beta=fit.beta, ci=(float(lo), float(hi)), boot=boot, level=level)


# ----------------------------------------------------------------------------------------------------
# phase rule
# ----------------------------------------------------------------------------------------------------
def phase_rule(ci: tuple[float, float], window_ok: bool, r2: float | None = None, *, r2_min: float = 0.90) -> str:
    r"""The phase label of a model from the interval of its tail exponent and its power-law window test.

    The phase rule of Livi (2026), arXiv:2606.29519, as fixed in ``docs/papers/anti-collapse.md``
    ("Estimating beta from data"): the author's steps, in order, with labels from ``theory.levy.PHASES``:

    1. "collapsed" unless the power-law window passes (``window_ok``);
    2. "unresolved" if the tail fit's ``r2`` is given and is below ``r2_min`` (0.90) or not finite (the
       author's "anti-collapsed (unresolved beta)"); ``r2=None`` skips this step (the levy.* checks, whose
       intervals do not come from a CCDF fit);
    3. "concentrated" if the beta interval lies above 1, "extended" if below 1, "boundary" if it contains 1
       (an endpoint equal to 1 counts as containing 1); a non-finite interval is "unresolved".

    Parameters
    ----------
    ci : (float, float)
        Interval ``(lo, hi)`` of beta, ``lo <= hi`` (NaN or inf: not resolved).
    window_ok : bool
        Whether the power-law window test passed (:func:`envelope_fit`'s ``window_ok`` or the author's
        ``window_gate``).
    r2 : float, optional
        R^2 of the tail fit (:func:`tail_beta`); None skips step 2.
    r2_min : float, default 0.90
        Smallest acceptable ``r2``, in [0, 1].

    Returns
    -------
    str
        One of "collapsed", "unresolved", "concentrated", "extended", "boundary".

    Raises
    ------
    TypeError
        ``window_ok`` not a bool, ``ci`` not a pair, a bound that is not a real number.
    ValueError
        ``lo > hi``, ``r2_min`` outside [0, 1].

    Examples
    --------
    >>> [phase_rule((1.2, 1.8), True), phase_rule((0.3, 0.7), True), phase_rule((0.8, 1.3), True),
    ...  phase_rule((0.3, 0.7), False), phase_rule((0.3, 0.7), True, r2=0.881)]
    ['concentrated', 'extended', 'boundary', 'collapsed', 'unresolved']
    """
    if not isinstance(window_ok, (bool, np.bool_)):
        raise TypeError(f"window_ok must be a bool, got {window_ok!r}")
    try:
        lo, hi = ci
    except (TypeError, ValueError):
        raise TypeError(f"ci must be a pair (lo, hi), got {ci!r}") from None
    r2_min = as_real("r2_min", r2_min, minimum=0.0, maximum=1.0)
    lo, hi = as_measurement("ci[0]", lo), as_measurement("ci[1]", hi)
    r2 = None if r2 is None else as_measurement("r2", r2)
    if math.isfinite(lo) and math.isfinite(hi) and lo > hi:
        raise ValueError(f"ci must satisfy lo <= hi, got {ci!r}")
    if not window_ok:
        return "collapsed"
    if r2 is not None and not (math.isfinite(r2) and r2 >= r2_min):
        return "unresolved"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "unresolved"
    if lo > 1.0:
        return "concentrated"
    if hi < 1.0:
        return "extended"
    return "boundary"
