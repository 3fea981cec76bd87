r"""The author's power-law-window gate, the resolution check and the calibrated tail-vs-envelope comparison.

Source: L. Livi, arXiv:2606.29519 (2026), Sec. 7 (power-law window) and Table 1 (phase rule), as fixed in
``docs/papers/anti-collapse.md`` ("Estimating beta from data"); definitions follow the author's public code
(github.com/lorenzolivi/anticollapse, ``diagnostics.py``: ``fit_log_envelope_exp_and_power`` and
``crossover_residual_diagnostic``), read for reference only and re-implemented here.

:func:`window_gate`, on an envelope ``f(l) > 0`` over a lag grid of n points:

1. least-squares fits of ``log f``: exponential ``a + b l``, power ``c + d log l``, tempered
   ``a + d log l + b l``; ``AIC = n log(RSS/n + 1e-30) + 2 k`` (k = 2, 2, 3); the smallest wins (ties: the
   order exponential, power, tempered);
2. the window: exponential best -> the gate fails; power best -> the whole grid, window beta
   ``max(0, -d_power)``; tempered best -> ``l <= l* = beta_temp tau_max`` with ``beta_temp = max(0, -d)``,
   ``tau_max = -1/b`` (b < 0), window beta ``beta_temp``; ``l*`` must be finite, > 0 and reach the grid
   (``l* >= min l``), else the gate fails;
3. the window beta must exceed ``beta_min = 0.10`` and the window must hold at least
   ``max(8, ceil(0.05 n))`` grid points;
4. a power law is refitted on the window alone and the Wald-Wolfowitz runs test with the normal
   approximation (``E R = 1 + 2 n+ n- / m``, ``Var R = 2 n+ n- (2 n+ n- - m) / (m^2 (m - 1))``, signs
   ``r >= 0`` vs ``r < 0``, two-sided) is run on its residuals; the gate passes at ``p > 0.05``. Fewer than
   8 residuals or a single sign: no p-value (fails); all ``|r| <= 1e-10``: an exact fit (p = 1).

``beta_env`` is the tempered fit's ``max(0, -d)`` whatever model wins (the number the author reports).
Our stricter variant (exact runs test on the whole-grid power residuals) is
:func:`numerics.anticollapse.estimators.envelope_fit`; the levy.* checks use it.

:func:`resolution_check`: the spectrum is resolved at this scale when the tail sample holds at least
``MIN_TAIL_SAMPLE`` finite time scales and the envelope lags reach the tail window's upper end (the
``q_hi`` = 0.995 quantile of the finite tau): an envelope that stops before the slowest units decay cannot
show their power law, and a claim tested there is ``inconclusive``, not ``not reproduced``.

:func:`calibrated_comparison`: the tempered ``beta_env`` is biased on a finite grid even for exact Pareto
mixtures (true beta 0.5 / 1.0 / 1.5 / 3.0 give about 0.30 / 0.53 / 0.69 / 0.93 on the 4..384 grid), so the
measured ``beta_env`` is compared with the ``beta_env`` that the same estimator gives on the same grid for a
Pareto mixture with the measured tail beta and tau range: the measured units below the tail window's lower
quantile (0.75) are kept and the tail above it is replaced by exact Pareto quantiles of exponent
``beta_tail`` (:func:`calibrated_taus`). (A Pareto law truncated at the measured tau max was tried first and
rejected before any trained model was compared: its CCDF bends at the truncation, so the tail estimator is
not monotone in the true exponent there and cannot be inverted.) Intervals are percentile bootstraps:
over units for the measured envelope (per-unit envelopes resampled), over the tail fit's bootstrap
replicates for the calibrated value; the two agree when the interval of their paired difference contains 0.

Float precision and the floors: ours computes time scales in float64 throughout. The author's code casts
the transport ``mu`` to float32 and clamps ``|mu|`` at 1e-30 before the log, so every unit with tau below
about ``(largest rate lag) / 69`` (where ``exp(-l / tau) < 1e-30``) gets a flattened slope: measured on
identical weights, fast units with tau 0.15-0.64 come out as 1.2-71 there. Slow units (tau > 10) agree to
3e-8. ``variant="author"`` (here: the envelope floor; in :mod:`numerics.anticollapse.gated.diagnostics`: the
transport clamp) reproduces both 1e-30 floors, not the float32 cast.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from numerics.anticollapse.estimators import (MIN_TAIL_SAMPLE, TailFit, _check_envelope, _design, _fit_log_models,
                                              as_time_scales)
from numerics.stats import MAX_BOOT, runs_test_normal
from theory._args import (MAX_LENGTH, as_choice, as_instance, as_int, as_real, as_real_array, as_real_vector,
                          check_ordered)

VARIANTS = ("no_floor", "author")   # no floor in the fits (ours); the author's two 1e-30 floors
AUTHOR_FLOOR = 1e-30            # the author's floor in log(max(f, 1e-30))

__all__ = ["WindowGate", "Resolution", "CalibratedComparison", "window_gate",
           "resolution_check", "pareto_mixture_taus", "tempered_beta", "envelope_beta_bootstrap",
           "calibrated_taus", "calibrated_comparison"]

_MODELS = ("exponential", "power", "tempered")
_K = {"exponential": 2, "power": 2, "tempered": 3}


@dataclasses.dataclass(frozen=True)
class WindowGate:
    """Result of :func:`window_gate`; ``reason`` lists the failed conditions ('' when it passes)."""

    passed: bool
    reason: str
    best: str
    aic: dict
    params: dict
    beta_env: float             # tempered max(0, -d), reported whatever model wins
    ell_star: float             # beta_temp * tau_max (nan when undefined)
    window: tuple[float, float]  # (min, max) lag of the window (nan, nan without one)
    n_window: int
    min_points: int
    beta_window: float          # the window's beta (power or tempered), compared with beta_min
    beta_local: float           # max(0, -slope) of the power refit on the window
    runs_z: float
    runs_p: float
    lags: np.ndarray = dataclasses.field(repr=False)
    mask: np.ndarray = dataclasses.field(repr=False)


@dataclasses.dataclass(frozen=True)
class Resolution:
    """Result of :func:`resolution_check`."""

    resolved: bool
    reason: str
    n_finite: int
    tau_hi: float               # the tail window's upper end (q_hi quantile of the finite tau)
    lag_max: float


@dataclasses.dataclass(frozen=True)
class CalibratedComparison:
    """Result of :func:`calibrated_comparison`."""

    beta_env: float                     # measured (tempered) beta_env
    beta_env_ci: tuple[float, float]    # bootstrap over units
    beta_cal: float                     # same estimator, Pareto mixture with the measured tail beta
    beta_cal_ci: tuple[float, float]    # over the tail fit's bootstrap replicates
    diff_ci: tuple[float, float]        # interval of beta_env - beta_cal (paired replicates)
    agree: bool                         # diff_ci contains 0
    tau_range: tuple[float, float]
    level: float


def _window(best: str, params: dict, l: np.ndarray) -> tuple[np.ndarray, float, float, str]:
    """(mask, window beta, l*, failure reason) of step 2."""
    a, d, b = params["tempered"]
    beta_t = max(0.0, -d)
    tau_max = -1.0 / b if b < 0 else math.inf
    ell_star = beta_t * tau_max if (beta_t > 0 and math.isfinite(tau_max)) else math.nan
    none = np.zeros(l.size, dtype=bool)
    if best == "exponential":
        return none, math.nan, ell_star, "exponential_best"
    if best == "power":
        return np.ones(l.size, dtype=bool), max(0.0, -params["power"][1]), ell_star, ""
    if not (math.isfinite(ell_star) and ell_star >= l[0]):
        return none, beta_t, ell_star, "ell_star_undefined_or_below_grid"
    return l <= ell_star, beta_t, ell_star, ""


def window_gate(lags: Any, f: Any, *, beta_min: float = 0.10, min_points: int = 8, min_fraction: float = 0.05,
                runs_alpha: float = 0.05, variant: str = "no_floor") -> WindowGate:
    """The author's power-law-window gate on an envelope ``f`` (see the module docstring).

    ``variant="author"`` fits ``log(max(f, 1e-30))`` as the author's code does (``f >= 0`` accepted): an
    envelope that falls below 1e-30 becomes flat there, which can turn an ``ell_star_undefined_or_below_grid``
    failure into a pass; ``"no_floor"`` (default) fits ``log f`` and needs ``f > 0``.

    >>> l = np.linspace(4, 384, 128)
    >>> noise = 1e-3 * np.random.default_rng(0).standard_normal(l.size)
    >>> window_gate(l, np.exp(-l / 60.0 + noise)).reason
    'exponential_best'
    >>> g = window_gate(l, np.exp(-l / 60.0))     # exact: the tempered fit wins on rounding, but d = 0
    >>> g.passed, g.reason
    (False, 'ell_star_undefined_or_below_grid')
    >>> g = window_gate(l, 2.0 * l ** -0.7)
    >>> g.passed, g.best, g.n_window, round(g.beta_window, 12)
    (True, 'power', 128, 0.7)
    """
    beta_min = as_real("beta_min", beta_min, minimum=0.0)
    min_points = as_int("min_points", min_points, minimum=2)
    min_fraction = as_real("min_fraction", min_fraction, minimum=0.0, maximum=1.0)
    runs_alpha = as_real("runs_alpha", runs_alpha, minimum=0.0, maximum=1.0, open_max=True)
    if as_choice("variant", variant, VARIANTS) == "author":
        f = np.maximum(as_real_array("f", f, minimum=0.0), AUTHOR_FLOOR)
    l, y = _check_envelope(lags, f, minimum=6)
    params, rss, _, _ = _fit_log_models(l, y)
    aic = {m: float(l.size * math.log(rss[m] / l.size + 1e-30) + 2 * _K[m]) for m in _MODELS}
    best = min(_MODELS, key=lambda m: (aic[m], _MODELS.index(m)))
    mask, beta_w, ell_star, why = _window(best, params, l)
    need = max(min_points, math.ceil(min_fraction * l.size))
    n_w = int(mask.sum())
    beta_local, z, p = math.nan, math.nan, math.nan
    if n_w >= 2:
        slope, icpt = np.polyfit(np.log(l[mask]), y[mask], 1)
        beta_local = max(0.0, -float(slope))
        _, z, p = runs_test_normal(y[mask] - (icpt + slope * np.log(l[mask])))
    failed = [why] if why else []
    if not why:
        failed += [] if beta_w > beta_min else ["beta_window_degenerate"]
        failed += [] if n_w >= need else ["window_too_short"]
        failed += [] if (math.isfinite(p) and p > runs_alpha) else ["power_window_residual_structure"]
    win = (float(l[mask][0]), float(l[mask][-1])) if n_w else (math.nan, math.nan)
    return WindowGate(passed=not failed, reason="+".join(failed), best=best, aic=aic, params=params,
                      beta_env=max(0.0, -params["tempered"][1]), ell_star=float(ell_star), window=win,
                      n_window=n_w, min_points=need, beta_window=float(beta_w), beta_local=float(beta_local),
                      runs_z=float(z), runs_p=float(p), lags=l, mask=mask)


def resolution_check(tau: Any, lags: Any, *, q_hi: float = 0.995, min_tail: int = MIN_TAIL_SAMPLE) -> Resolution:
    """Is the spectrum resolved at this scale? (see the module docstring; +inf tau are not counted).

    >>> resolution_check(np.geomspace(1, 107, 128), np.arange(1, 78)).reason
    'envelope lags reach 77 < tau tail 105 (the 0.995 quantile)'
    >>> resolution_check(np.geomspace(1, 107, 128), np.arange(1, 129)).resolved
    True
    """
    t, _ = as_time_scales("tau", tau)
    q_hi = as_real("q_hi", q_hi, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    min_tail = as_int("min_tail", min_tail, minimum=1)
    lags = as_real_array("lags", lags)
    if lags.size == 0:
        raise ValueError("lags must be a nonempty array of lags")
    lag_max = float(np.max(lags))
    if t.size < min_tail:
        return Resolution(False, f"tail sample {t.size} < {min_tail} finite time scales", int(t.size),
                          math.nan, lag_max)
    tau_hi = float(np.quantile(t, q_hi))
    ok = lag_max >= tau_hi
    why = "" if ok else f"envelope lags reach {lag_max:.4g} < tau tail {tau_hi:.3g} (the {q_hi} quantile)"
    return Resolution(ok, why, int(t.size), tau_hi, lag_max)


def pareto_mixture_taus(beta: float, tau_min: float, tau_max: float, n: int) -> np.ndarray:
    r"""``n`` midpoint quantiles of the Pareto law ``p(tau) ~ tau^(-1-beta)`` truncated to [tau_min, tau_max]
    (``beta = 0``: log-uniform), increasing.

    >>> pareto_mixture_taus(1.0, 1.0, 4.0, 2).round(6).tolist()     # 1 / (1 - u (1 - 1/4)), u = 1/4, 3/4
    [1.230769, 2.285714]
    """
    beta = as_real("beta", beta, minimum=0.0)
    tau_min = as_real("tau_min", tau_min, minimum=0.0, open_min=True)
    tau_max = as_real("tau_max", tau_max, minimum=0.0, open_min=True)
    check_ordered("tau_min", tau_min, "tau_max", tau_max, strict=True)
    n = as_int("n", n, minimum=1, maximum=MAX_LENGTH)           # once: an __index__-only n has no division
    u = (np.arange(n) + 0.5) / n
    if beta < 1e-12:
        return tau_min * (tau_max / tau_min) ** u
    return tau_min * (1.0 - u * (1.0 - (tau_min / tau_max) ** beta)) ** (-1.0 / beta)


def tempered_beta(lags: Any, log_f: np.ndarray) -> np.ndarray:
    """``max(0, -d)`` of the tempered fit of each column (or the vector) ``log_f`` over ``lags``."""
    l = as_real_vector("lags", lags, min_size=3, minimum=0.0, open_min=True)     # the fit is in log l
    y = as_real_array("log_f", log_f, finite=False)
    if l.size < 3 or y.ndim not in (1, 2) or y.shape[0] != l.size:
        raise ValueError(f"lags (>= 3 of them) and the rows of log_f must match; got {l.size} lags, log_f {y.shape}")
    pinv = np.linalg.pinv(_design("tempered", l))
    return np.maximum(0.0, -(pinv @ y)[1])


def envelope_beta_bootstrap(unit_envelopes: Any, lags: Any, *, n_boot: int = 2000, seed: int = 0) -> np.ndarray:
    """Tempered ``beta_env`` of ``mean_q F[q]`` for ``n_boot`` resamples of the rows (units) of ``F`` (H, L)."""
    F = as_real_array("unit_envelopes", unit_envelopes, minimum=0.0)
    if F.ndim != 2 or F.shape[1] != np.size(lags):
        raise ValueError(f"unit_envelopes must have shape (units, len(lags)) = (units, {np.size(lags)}), got {F.shape}")
    n_boot = as_int("n_boot", n_boot, minimum=1, maximum=MAX_BOOT)
    rng = np.random.default_rng(as_int("seed", seed, minimum=0))
    H = F.shape[0]
    counts = np.stack([np.bincount(rng.integers(0, H, H), minlength=H) for _ in range(n_boot)])
    fb = counts @ F / H                                              # (n_boot, L)
    return tempered_beta(lags, np.log(np.maximum(fb, np.finfo(float).tiny)).T)


def calibrated_taus(tau: Any, beta: float, q_lo: float = 0.75) -> np.ndarray:
    r"""The measured spectrum with its tail replaced by an exact Pareto tail of exponent ``beta``.

    Units with tau at or below the ``q_lo`` quantile ``x_lo`` of the finite tau are kept; the other k get
    the midpoint quantiles ``x_lo (1 - u_i)^(-1/beta)``, ``u_i = (i + 1/2) / k``, of the Pareto law
    ``P(tau > x) = (x / x_lo)^(-beta)``, ``beta > 0`` (``beta = 0`` is no law). On this mixture the tail estimator
    returns ``beta`` up to discreteness, and its body and size are the measured ones. A quantile past
    float64 (a tiny ``beta``: ``(2k)^(1/beta)`` beyond 1e308) is +inf, a non-decaying unit, as in
    ``RateFit.tau``.

    >>> calibrated_taus([1.0, 2.0, 3.0, 4.0], 1.0, q_lo=0.5).round(6).tolist()   # x_lo = 2.5; k = 2
    [1.0, 2.0, 3.333333, 10.0]
    """
    t = np.sort(as_time_scales("tau", tau)[0])
    if t.size < 2:
        raise ValueError(f"tau must hold at least 2 finite positive time scales, got {t.size}")
    beta = as_real("beta", beta, minimum=0.0, open_min=True)      # beta = 0: P(tau > x) = 1 is no law
    q_lo = as_real("q_lo", q_lo, minimum=0.0, maximum=1.0, open_max=True)
    x_lo = float(np.quantile(t, q_lo))
    body = t[t <= x_lo]
    k = t.size - body.size
    u = (np.arange(k) + 0.5) / max(k, 1)
    with np.errstate(over="ignore"):                # documented: a quantile past float64 is +inf
        return np.concatenate([body, x_lo * (1.0 - u) ** (-1.0 / beta)])


_BETA_FLOOR = 1e-3


def _calibrated_betas(tau: np.ndarray, betas: np.ndarray, q_lo: float, lags: np.ndarray) -> np.ndarray:
    logs = np.empty((lags.size, betas.size))
    for i, b in enumerate(betas):
        # a bootstrap replicate of the tail beta may be 0: floored at _BETA_FLOOR (its quantiles are +inf anyway)
        mix = calibrated_taus(tau, max(float(b), _BETA_FLOOR), q_lo)
        logs[:, i] = np.log(np.maximum(np.mean(np.exp(-lags[:, None] / mix[None, :]), axis=1), 1e-300))
    return tempered_beta(lags, logs)


def calibrated_comparison(measured_beta: float, measured_boot: Any, tail: TailFit, tau: Any, lags: Any, *,
                          level: float = 0.90) -> CalibratedComparison:
    """Measured ``beta_env`` against the same estimator on the measured spectrum with an exact Pareto tail of
    the measured tail beta (:func:`calibrated_taus`, above the tail window's lower quantile).

    ``measured_boot``: replicates of the measured ``beta_env`` (:func:`envelope_beta_bootstrap`); each tail
    bootstrap replicate gives one calibrated replicate; ``tau``: the measured time scales (+inf ignored).
    """
    as_instance("tail", tail, TailFit, "numerics.anticollapse.estimators.TailFit (tail_beta)")
    measured_beta = as_real("measured_beta", measured_beta)
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    t, _ = as_time_scales("tau", tau)
    if t.size < MIN_TAIL_SAMPLE:
        raise ValueError(f"tau needs >= {MIN_TAIL_SAMPLE} finite time scales, got {t.size}")
    mb = as_real_array("measured_boot", measured_boot).ravel()
    if mb.size == 0:
        raise ValueError("measured_boot must hold at least one bootstrap replicate of beta_env, got none")
    l = as_real_array("lags", lags, minimum=0.0).ravel()
    k = min(mb.size, tail.boot.size)
    betas = _calibrated_betas(t, np.r_[tail.beta, tail.boot[:k]], tail.window_q[0], l)
    a = (1.0 - level) / 2.0
    q = lambda v: tuple(float(x) for x in np.quantile(v, [a, 1.0 - a]))  # noqa: E731
    diff = q(mb[:k] - betas[1:])
    return CalibratedComparison(beta_env=float(measured_beta), beta_env_ci=q(mb), beta_cal=float(betas[0]),
                                beta_cal_ci=q(betas[1:]), diff_ci=diff, agree=bool(diff[0] <= 0.0 <= diff[1]),
                                tau_range=(float(t.min()), float(t.max())), level=level)
