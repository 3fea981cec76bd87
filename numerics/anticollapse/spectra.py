"""Time-scale spectra and envelopes from leak traces: the model-free half of the gated-RNN diagnosis (numpy).

Source: L. Livi, arXiv:2606.29519 (2026) and the effective-learning-rate (ELR) framework of L. Livi,
arXiv:2512.05790, as restated in ``docs/papers/anti-collapse.md`` (section "Effective learning rates, time
scales, envelope"). A recurrence whose one-step Jacobian ``J_p = dh_p / dh_{p-1}`` has the diagonal
``a_p + r_p`` (the leak ``a_p`` and the first-order term ``r_p`` of each unit at step p; for the toolkit's
gated RNNs and a user's ``nn.GRU`` / ``nn.LSTM`` these come from :mod:`numerics.anticollapse.gated.diagnostics`
and :mod:`numerics.anticollapse.gated.rnn_timescales`) is diagnosed from its leak traces alone:

- Transport over the window ``W = {t-l+1, ..., t}`` (the l steps that carry h_{t-l} to h_t):

      Gamma_{t,l} = prod_{p in W} a_p * (1 + sum_{p in W} r_p / a_p),

  the first-order (in ``J_p - diag(a_p)``) expansion of the diagonal element ``[J_t ... J_{t-l+1}]_qq``.
  The remainder is bounded by ``prod_p alpha_p [prod_p (1 + e_p/alpha_p) - 1 - sum_p e_p/alpha_p]`` with
  ``e_p = ||J_p - diag(a_p)||_inf`` and ``alpha_p = max_q a_{p,q}`` (:func:`second_order_bound`). Computed with prefix sums in
  float64; ``|1 + sum r/a|`` is floored at ``1e-12`` before the log (the count of floored windows is
  reported: it is only reached where the first-order expansion itself has broken down).
- Rates: ``mubar_q`` = minus the least-squares slope of ``E log|Gamma_{t,l}|`` (mean over sequences and
  windows) against l on a lag grid (the author: 64..384 at T = 1280); ``zeta_q = log mubar_q``,
  ``tau_q = 1 / mubar_q``; a unit whose slope is >= 0 is *non-decaying*: ``tau_q = inf`` (counted, and
  left out of the tail fit, which needs finite tau). Leaks are floored at ``LEAK_FLOOR = 1e-12`` (a float32
  gate can round to s = 1), as in the author's code.
- Envelopes (``envelope=`` names the one returned as ``Envelope.measured``; both are computed):
  ``"mu0"`` (default, the author's canonical observable): ``f(l) = E_{b,t} mean_q prod_{p in W} a_p``, the
  unweighted zero-order transport (the first-order factor ``1 + sum r/a`` grows with l and is left out);
  its mixture reconstruction is ``mean_q exp(-l / tau_q)`` over the *finite* tau (the author's checkpoint
  envelope). ``"gelr"``: ``f(l) = E ||mu_{t,l}||_1 / ||Lambda||_1 = E sum_q Lambda_q |Gamma_{t,l,q}| /
  sum_q Lambda_q`` with the mixture ``sum_q Lambda_q exp(-l / tau_q) / sum_q Lambda_q`` (inf tau count as
  1). The author's grid is linear, ``linspace(4, 384, 128)`` at T = 1280; the lag grids are set by the
  experiment config (:mod:`numerics.anticollapse.gated.train`).
- beta from the tail of the tau sample (``numerics.anticollapse.estimators.tail_beta``: CCDF slope on the quantile
  window [0.75, 0.995], bootstrap over units; Hill as a cross-check); the envelope's power-law window,
  ``beta_env``, the resolution check and the calibrated tail-vs-envelope comparison from
  :mod:`numerics.anticollapse.envelope_gate`; the phase label is
  ``numerics.anticollapse.estimators.phase_rule(tail interval, gate passed, r2 = tail R^2)``: on the measured envelope
  (``phase``, the author's end-of-training rule) and on the mixture (``phase_mixture``, the author's rule at
  checkpoints).
- Precision: float64 throughout. The author's code casts the transport to float32 and clamps at 1e-30
  before the log, which inflates tau of every unit faster than about (largest rate lag) / 69 (0.15-0.64
  become 1.2-71 on identical weights); ours does not. ``variant="author"`` reproduces the clamp (and the
  envelope fit's floor ``log(max(f, 1e-30))``), not the float32 cast
  (see :mod:`numerics.anticollapse.envelope_gate`).
- Besides the rate-fit tau: ``RateFit.tau_leak = -1 / E log a`` (the leak alone) and ``RateFit.tau_halves``
  (the rate fit on the even / odd diagnostic sequences: the measurement noise the calibrated phase
  decision, :mod:`numerics.anticollapse.calibrated_phase`, uses).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Iterable, Sequence

import numpy as np

from theory._args import (LOG_FLOAT_MAX, MAX_LENGTH, as_bool, as_choice, as_instance, as_int, as_int_array, as_real, as_real_array,
                          as_real_vector, as_same_shape)

from numerics._config import dataclass_from_dict, setter
from numerics.anticollapse.envelope_gate import AUTHOR_FLOOR, VARIANTS   # "author": both of the author's 1e-30 floors
from numerics.stats import MAX_BOOT

REFERENCE_T = 1280
REFERENCE_RATE_LAGS = (64, 384, 32)        # (lo, hi, number of lags) at T = 1280
REFERENCE_ENVELOPE_LAGS = (4, 384, 128)    # geometric grid at T = 1280
_LOG_FLOOR = 1e-12
LEAK_FLOOR = 1e-12                          # a_p floor for gates that round to s = 1 in float32
ENVELOPES = ("mu0", "gelr")                 # the author's canonical envelope; the Lambda-weighted one


# ---------------------------------------------------------------------------------------------- lag grids
def scaled_lag_grid(T: int, lo: int, hi: int, n: int, *, geometric: bool = False, reference_T: int = REFERENCE_T) -> np.ndarray:
    """Integer lags on ``[lo, hi] * T / reference_T`` (rounded, at least 1, below T), distinct, ``<= n``.

    >>> scaled_lag_grid(1280, 64, 384, 6).tolist()
    [64, 128, 192, 256, 320, 384]
    >>> scaled_lag_grid(256, 64, 384, 32)[[0, -1]].tolist()
    [13, 77]
    """
    T = as_int("T", T, minimum=2, maximum=MAX_LENGTH)
    lo, hi = as_int("lo", lo, minimum=1, maximum=MAX_LENGTH), as_int("hi", hi, minimum=1, maximum=MAX_LENGTH)
    n = as_int("n", n, minimum=2, maximum=MAX_LENGTH)
    geometric = as_bool("geometric", geometric)
    f = T / as_int("reference_T", reference_T, minimum=2)
    a = min(T - 1, max(1, int(round(lo * f))))     # below T, as the docstring says, even for lo > reference_T
    b = min(T - 1, max(a + 1, int(round(hi * f))))
    grid = np.geomspace(a, b, n) if geometric else np.linspace(a, b, n)
    return np.unique(np.round(grid).astype(np.int64))


def _check_lags(name: str, lags: Any, T: int) -> np.ndarray:
    arr = np.asarray(lags)
    if arr.ndim != 1 or arr.size < 2 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} must be a 1-d integer array of at least 2 lags, got {lags!r}")
    if np.any(arr < 1) or np.any(arr > T):
        raise ValueError(f"{name} must lie in [1, T] = [1, {T}], got range [{arr.min()}, {arr.max()}]")
    if np.any(np.diff(arr) <= 0):
        raise ValueError(f"{name} must be strictly increasing")
    return arr.astype(np.int64)


# ---------------------------------------------------------------------------------------------- diagnosis settings
def _pair_or_triple(name: str, value: Any, size: int, what: str) -> tuple:
    """``value`` as a tuple of ``size`` items (a tuple or list: JSON gives lists), else a TypeError / ValueError
    naming ``name`` and the expected form ``what``."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r:.60}")
    if len(value) != size:
        raise ValueError(f"{name} must be {what}, got {tuple(value)!r:.80}")
    return tuple(value)


def _lag_triple(name: str, value: Any, *, max_hi: int | None = None) -> tuple[int, int, int]:
    """A lag grid ``(lo, hi, n)``: integers with ``1 <= lo < hi <= max_hi`` and ``n >= 4``."""
    lo, hi, n = _pair_or_triple(name, value, 3, "a triple (lo, hi, n) of integers")
    lo = as_int(f"{name}[0]", lo, minimum=1)
    return lo, as_int(f"{name}[1]", hi, minimum=lo + 1, maximum=max_hi), as_int(f"{name}[2]", n, minimum=4)


@dataclasses.dataclass(frozen=True)
class LongDiagnosisSpec:
    """The long-horizon re-diagnosis of a gated sweep (:mod:`numerics.anticollapse.gated.long_horizon`): length,
    sequences, batching, window stride and the two lag grids ``(lo, hi, n)`` (linear)."""

    T: int = 8192
    n_diag: int = 64
    diag_batch: int = 16
    window_stride: int = 64
    rate_lags: tuple[int, int, int] = (416, 2464, 24)
    envelope_lags: tuple[int, int, int] = (2, 4096, 128)
    n_boot: int = 2000

    def __post_init__(self) -> None:
        f = setter(self)
        for name, lo in (("T", 16), ("n_diag", 2), ("diag_batch", 1), ("window_stride", 1), ("n_boot", 1)):
            f(name, as_int(name, getattr(self, name), minimum=lo))
        for name in ("rate_lags", "envelope_lags"):
            f(name, _lag_triple(f"long_diagnosis.{name}", getattr(self, name), max_hi=self.T - 1))

    def grid(self, which: str) -> np.ndarray:
        lo, hi, n = getattr(self, which)
        return np.unique(np.round(np.linspace(lo, hi, n)).astype(np.int64))


def long_spec(d: Any, *, where: str = "d") -> LongDiagnosisSpec:
    """From a sweep file's ``"long_diagnosis"`` mapping (JSON lists accepted), naming unknown fields (``where``:
    the mapping's name in the messages, ``"long_diagnosis"`` for a sweep file's field)."""
    return dataclass_from_dict(LongDiagnosisSpec, d, where, tuples=("rate_lags", "envelope_lags"))


# ---------------------------------------------------------------------------------------------- transport
class _Prefix:
    """Prefix sums of ``log a`` and ``r / a`` along time, for O(1) window sums."""

    def __init__(self, a: np.ndarray, r: np.ndarray):
        B, T, H = a.shape
        self.T = T
        self.log_a = np.zeros((B, T + 1, H))
        np.cumsum(np.log(a), axis=1, out=self.log_a[:, 1:])
        self.ratio = np.zeros((B, T + 1, H))
        np.cumsum(r / a, axis=1, out=self.ratio[:, 1:])

    def window(self, lag: int, stride: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Window sums for the windows of length ``lag`` ending at t = lag-1..T-1 (with ``stride``: the
        ends T-1, T-1-stride, ..., in increasing order); shape (B, n_windows, H)."""
        ends = np.arange(self.T - 1, lag - 2, -stride)[::-1]          # window ends t
        return (self.log_a[:, ends + 1] - self.log_a[:, ends + 1 - lag],
                self.ratio[:, ends + 1] - self.ratio[:, ends + 1 - lag])


def transport(a: np.ndarray, r: np.ndarray, lag: int) -> np.ndarray:
    """``Gamma_{t,l}`` (signed) for every window of length ``lag``, shape (B, T-lag+1, H); index i is t = lag-1+i."""
    a, r = _check_ar(a, r)
    lag = as_int("lag", lag, minimum=1, maximum=a.shape[1])
    la, sr = _Prefix(a, r).window(lag)
    return np.exp(la) * (1.0 + sr)


def _check_ar(a, r):
    return as_same_shape(("a", "r"), a, r, ndim=3, shape="(B, T, H)")


def second_order_bound(e: np.ndarray, alpha: np.ndarray | None = None) -> float:
    """Bound on the first-order remainder of one window: ``|[J_t...J_{t-l+1}]_qq - Gamma_{t,l}|``.

    Write ``J_p = A_p + E_p`` with ``A_p = diag(a_p)``, ``alpha_p = ||A_p||_inf = max_q a_{p,q}`` and
    ``e_p = ||E_p||_inf``. Expanding the product, the terms with two or more E factors are what Gamma
    leaves out; each has inf-norm at most ``prod_{p in S} e_p prod_{p not in S} alpha_p`` (S = the steps
    contributing an E), and a diagonal element is bounded by the inf-norm. Summing over ``|S| >= 2``:

        R = prod_p (alpha_p + e_p) - prod_p alpha_p - sum_p e_p prod_{p' != p} alpha_p'
          = prod_p alpha_p * [prod_p (1 + e_p/alpha_p) - 1 - sum_p e_p/alpha_p].

    ``alpha=None`` uses ``alpha_p = 1`` (valid since every leak is <= 1, looser). Computed without any
    difference: the sums ``E_0, E_1, E_(>=2)`` of the terms with 0, 1 and at least 2 E factors are carried
    through the product step by step (``E_(>=2) <- E_(>=2) (alpha_p + e_p) + E_1 e_p``, all terms
    non-negative) in logs, so tiny ``e/alpha`` (the bracket above rounds to 0) and
    huge ``alpha`` (``prod alpha`` overflows while R does not) keep their digits.

    >>> second_order_bound(np.array([0.1, 0.2]))   # = e1 e2
    0.02
    >>> second_order_bound(np.array([0.1, 0.2]), np.array([0.5, 0.5]))   # still e1 e2: no alpha in that term
    0.02
    >>> second_order_bound(np.array([0.1, 0.1, 0.1]), np.array([0.5, 0.5, 0.5]))   # 3 e^2 alpha + e^3
    0.016
    """
    e = as_real_vector("e", e, minimum=0.0)          # norms, one per step of the window
    alpha = np.ones_like(e) if alpha is None else as_real_vector("alpha", alpha)
    if alpha.shape != e.shape or np.any(alpha <= 0):
        raise ValueError("alpha must be positive and have the shape of e")
    with np.errstate(divide="ignore"):             # log 0 = -inf: a term that is exactly 0
        la, le, lae = np.log(alpha).tolist(), np.log(e).tolist(), np.log(alpha + e).tolist()
    l0, l1, l2 = 0.0, -math.inf, -math.inf         # logs of E_0, E_1, E_(>=2)
    for a_p, e_p, ae_p in zip(la, le, lae):
        l0, l1, l2 = l0 + a_p, float(np.logaddexp(l1 + a_p, l0 + e_p)), float(np.logaddexp(l2 + ae_p, l1 + e_p))
    if l2 == -math.inf:
        return 0.0
    if l2 >= LOG_FLOAT_MAX:                        # R past float64: the bound is no bound
        raise ValueError(f"e is too large for alpha: the remainder bound exp({l2:.4g}) overflows float64")
    return float(f"{math.exp(l2):.15g}")           # 15 significant digits: the doctests' 0.02 is 0.02


@dataclasses.dataclass
class RateFit:
    """Per-unit asymptotic rates from the slope of ``E log|Gamma|`` against the lag."""

    lags: np.ndarray            # (L,)
    mean_log_gamma: np.ndarray  # (L, H)
    mubar: np.ndarray           # (H,), <= 0 for non-decaying units
    tau: np.ndarray             # (H,), inf for non-decaying units
    r2: np.ndarray              # (H,) R^2 of each unit's line
    n_floored: int
    first_order_size: np.ndarray = None  # (H,) mean |sum_W r_p/a_p| at the largest rate lag
    method: str = "mubar_q = -LS slope of E_{b,t} log|Gamma_{t,l}| vs l; tau_q = 1/mubar_q"
    tau_leak: np.ndarray = None         # (H,) -1 / E log a_p: the leak alone (first-order term left out)
    tau_halves: np.ndarray = None       # (2, H) tau from the even / odd diagnostic sequences (noise estimate)
    variant: str = "no_floor"               # "author": |Gamma| clamped at 1e-30 before the log

    @property
    def zeta(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.mubar > 0, np.log(np.where(self.mubar > 0, self.mubar, 1.0)), -np.inf)

    @property
    def finite_tau(self) -> np.ndarray:
        return self.tau[np.isfinite(self.tau)]


@dataclasses.dataclass
class Envelope:
    """Envelopes on one lag grid; ``measured`` is the observable named ``observable`` (see module doc)."""

    lags: np.ndarray
    observable: str             # "mu0" (the author's canonical envelope) | "gelr" (Lambda-weighted |Gamma|)
    measured: np.ndarray        # (L,) the chosen observable
    mixture: np.ndarray         # (L,) its mixture-of-exponentials reconstruction from the measured tau
    unit_mu0: np.ndarray        # (H, L) per-unit E_{b,t} prod_W a_p; the mu0 envelope is its mean over q
    gelr: np.ndarray            # (L,) E sum_q Lambda_q |Gamma_{t,l,q}| / sum_q Lambda_q
    weights: np.ndarray         # Lambda_q
    method: str

    @property
    def max_abs_log_ratio(self) -> float:
        """``max_l |log f(l) - log mixture(l)|``: how well the mixture of exponentials reproduces f."""
        with np.errstate(divide="ignore"):
            return float(np.max(np.abs(np.log(self.measured) - np.log(self.mixture))))


@dataclasses.dataclass
class GatedDiagnostics:
    """Everything measured at one checkpoint. ``gate`` is the author's window gate on the measured envelope
    and ``phase`` its label (the end-of-training rule); ``gate_mixture``/``phase_mixture`` use the mixture
    ``mean exp(-l/tau)`` (the author's rule at checkpoints). ``tail``/``hill``/``comparison`` are None when
    the tau sample is too small (``note`` says why); ``resolution`` says whether this scale resolves the
    spectrum (envelope lags reaching the tail's time scales)."""

    epoch: int
    step: int
    arch: str
    rates: RateFit
    base_rate: np.ndarray
    base_rate_method: str
    envelope: Envelope
    gate: Any = None
    gate_mixture: Any = None
    resolution: Any = None
    tail: Any = None
    hill: float | None = None
    comparison: Any = None
    phase: str = "unresolved"
    phase_mixture: str = "unresolved"
    note: str = ""
    calibrated: Any = None      # numerics.anticollapse.calibrated_phase.CalibratedPhase (our decision)
    variant: str = "no_floor"       # "author": both of the author's 1e-30 floors

    @property
    def tau(self) -> np.ndarray:
        return self.rates.tau

    def summary(self) -> dict:
        """JSON-able decisive numbers of this checkpoint."""
        out = {"epoch": self.epoch, "step": self.step, "arch": self.arch, "phase": self.phase,
               "phase_mixture": self.phase_mixture, "note": self.note, **_tau_summary(self.rates.finite_tau),
               "n_units": int(self.tau.size), "envelope_observable": self.envelope.observable,
               "envelope_mixture_max_abs_log_ratio": self.envelope.max_abs_log_ratio,
               "n_floored": int(self.rates.n_floored),
               "first_order_size_median": float(np.median(self.rates.first_order_size)),
               "first_order_size_max": float(np.max(self.rates.first_order_size)),
               "variant": getattr(self, "variant", "no_floor")}
        tl = getattr(self.rates, "tau_leak", None)
        if tl is not None:
            out.update({f"tau_leak_{k[4:]}": v for k, v in _tau_summary(tl[np.isfinite(tl)]).items()
                        if k in ("tau_min", "tau_median", "tau_q90", "tau_max")})
        if getattr(self, "calibrated", None) is not None:
            out.update(self.calibrated.summary())
        r = self.resolution
        out.update(resolved=bool(r.resolved), resolution_reason=r.reason, tau_tail_hi=r.tau_hi, lag_max=r.lag_max)
        out.update(_gate_summary("envelope", self.gate), **_gate_summary("mixture", self.gate_mixture))
        if self.tail is not None:
            out.update(beta_tail=float(self.tail.beta), beta_tail_ci=[float(v) for v in self.tail.ci],
                       beta_tail_r2=float(self.tail.r2), p_beta_below_1=float(self.tail.p_below_1),
                       beta_hill=float(self.hill))
        if self.comparison is not None:
            c = self.comparison
            out.update(beta_env_ci=list(c.beta_env_ci), beta_env_calibrated=c.beta_cal,
                       beta_env_calibrated_ci=list(c.beta_cal_ci), beta_env_diff_ci=list(c.diff_ci),
                       tail_envelope_agree=bool(c.agree))
        return out


def _tau_summary(tf: np.ndarray) -> dict:
    q = (lambda v: float(np.quantile(tf, v))) if tf.size else (lambda v: float("nan"))  # noqa: E731
    return {"n_finite_tau": int(tf.size), "tau_min": float(tf.min()) if tf.size else float("nan"),
            "tau_median": q(0.5), "tau_q90": q(0.9), "tau_q99": q(0.99),
            "tau_max": float(tf.max()) if tf.size else float("nan"),
            "tau_spread_q90_q10": q(0.9) / q(0.1) if tf.size else float("nan")}


def _gate_summary(prefix: str, g) -> dict:
    if g is None:
        return {f"{prefix}_gate_passed": False, f"{prefix}_gate_reason": "no envelope"}
    key = "beta_env" if prefix == "envelope" else "beta_env_mixture"
    return {key: float(g.beta_env), f"{prefix}_gate_passed": bool(g.passed), f"{prefix}_gate_reason": g.reason,
            f"{prefix}_model": g.best, f"{prefix}_ell_star": float(g.ell_star),
            f"{prefix}_window": [float(v) for v in g.window], f"{prefix}_window_points": int(g.n_window),
            f"{prefix}_window_min_points": int(g.min_points), f"{prefix}_runs_p": float(g.runs_p)}


# ---------------------------------------------------------------------------------------------- rates and envelopes
@dataclasses.dataclass
class _Sums:
    """Running sums over sequences and windows (see :func:`rates_and_envelope`)."""

    log_gamma: np.ndarray       # (L_rate, H)
    n_log: np.ndarray           # (L_rate,)
    unit_mu0: np.ndarray        # (L_env, H)
    gelr: np.ndarray            # (L_env,)
    n_env: np.ndarray           # (L_env,)
    abs_ratio: np.ndarray       # (H,) |sum_W r/a| at the largest rate lag
    n_abs: int = 0
    n_floored: int = 0
    log_gamma_half: np.ndarray = None   # (2, L_rate, H): even / odd sequences
    n_log_half: np.ndarray = None       # (2, L_rate)
    log_a: np.ndarray = None            # (H,) sum of log a_p over sequences and steps
    n_steps: int = 0

    @classmethod
    def zeros(cls, n_rate: int, n_env: int, H: int) -> "_Sums":
        return cls(np.zeros((n_rate, H)), np.zeros(n_rate), np.zeros((n_env, H)), np.zeros(n_env), np.zeros(n_env),
                   np.zeros(H), log_gamma_half=np.zeros((2, n_rate, H)), n_log_half=np.zeros((2, n_rate)),
                   log_a=np.zeros(H))


def _log_abs_gamma(la: np.ndarray, sr: np.ndarray, variant: str) -> tuple[np.ndarray, int]:
    """``log |Gamma|`` of windows and the count of floored ``|1 + sum r/a|``. ``"author"`` also clamps
    ``|Gamma|`` at 1e-30 before the log (``log(clamp(|mu|, 1e-30))`` in the author's ``diagnostics.py``):
    every window whose transport is below 1e-30 reads as exactly 1e-30."""
    g = np.abs(1.0 + sr)
    lg = la + np.log(np.maximum(g, _LOG_FLOOR))
    if variant == "author":
        lg = np.maximum(la + np.log(np.maximum(g, np.finfo(float).tiny)), math.log(AUTHOR_FLOOR))
    return lg, int(np.count_nonzero(g < _LOG_FLOOR))


def _accumulate(sums: _Sums, pre: _Prefix, rl: np.ndarray, el: np.ndarray, wn: np.ndarray, stride: int,
                variant: str = "no_floor") -> None:
    sums.log_a += pre.log_a[:, -1].sum(axis=0)
    sums.n_steps += pre.log_a.shape[0] * pre.T
    for j, lag in enumerate(rl):
        la, sr = pre.window(int(lag), stride)
        lg, n_fl = _log_abs_gamma(la, sr, variant)
        sums.n_floored += n_fl
        sums.log_gamma[j] += lg.sum(axis=(0, 1))
        sums.n_log[j] += lg.shape[0] * lg.shape[1]
        for h in (0, 1):                    # even / odd sequences: two independent halves
            sums.log_gamma_half[h, j] += lg[h::2].sum(axis=(0, 1))
            sums.n_log_half[h, j] += lg[h::2].shape[0] * lg.shape[1]
        if j == rl.size - 1:
            sums.abs_ratio += np.abs(sr).sum(axis=(0, 1))
            sums.n_abs += sr.shape[0] * sr.shape[1]
    for j, lag in enumerate(el):
        la, sr = pre.window(int(lag), stride)
        mu0 = np.exp(la)                                              # (B, windows, H)
        sums.unit_mu0[j] += mu0.sum(axis=(0, 1))
        sums.gelr[j] += float((mu0 * np.abs(1.0 + sr) @ wn).sum())
        sums.n_env[j] += mu0.shape[0] * mu0.shape[1]


def _slopes(rl: np.ndarray, mlg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(mubar, tau, r2)`` of the per-unit least-squares lines of ``mlg`` (L, H) against the lags."""
    A = np.vstack([np.ones(rl.size), rl.astype(np.float64)]).T
    coef, *_ = np.linalg.lstsq(A, mlg, rcond=None)
    resid = mlg - A @ coef
    ss_tot = np.sum((mlg - mlg.mean(axis=0)) ** 2, axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r2 = np.where(ss_tot > 0, 1.0 - np.sum(resid ** 2, axis=0) / ss_tot, 1.0)
        mubar = -coef[1]
        tau = np.where(mubar > 0, 1.0 / np.where(mubar > 0, mubar, 1.0), np.inf)
    return mubar, tau, r2


def _rate_fit(rl: np.ndarray, sums: _Sums, variant: str = "no_floor") -> RateFit:
    """Per-unit least-squares line of ``E log|Gamma|`` against the lag: ``mubar = -slope``; the same on the
    two halves of the sequences, and the leak-only time scale ``-1 / E log a``."""
    mlg = sums.log_gamma / sums.n_log[:, None]
    mubar, tau, r2 = _slopes(rl, mlg)
    halves = np.full((2, tau.size), np.nan)
    if np.all(sums.n_log_half > 0):
        halves = np.stack([_slopes(rl, sums.log_gamma_half[h] / sums.n_log_half[h][:, None])[1] for h in (0, 1)])
    mean_log_a = sums.log_a / sums.n_steps
    with np.errstate(divide="ignore"):
        tau_leak = np.where(mean_log_a < 0, -1.0 / np.minimum(mean_log_a, -1e-300), np.inf)
    return RateFit(lags=rl, mean_log_gamma=mlg, mubar=mubar, tau=tau, r2=r2, n_floored=sums.n_floored,
                   first_order_size=sums.abs_ratio / sums.n_abs, tau_leak=tau_leak, tau_halves=halves,
                   variant=variant)


def rates_and_envelope_from_leaks(leaks: Iterable[tuple[np.ndarray, np.ndarray]], *, T: int, hidden: int,
                                  rate_lags: Sequence[int], envelope_lags: Sequence[int],
                                  base_rate: np.ndarray | None = None, envelope: str = "mu0",
                                  window_stride: int = 1, variant: str = "no_floor") -> tuple[RateFit, Envelope]:
    """Per-unit rates and the envelopes from leak traces: the model-free core of :func:`rates_and_envelope`.

    ``leaks`` yields ``(a, r)`` pairs, each of shape (B_i, T, hidden): the leak ``a_p`` and the first-order
    term ``r_p`` of a batch of sequences (for the toolkit's models :func:`leak_and_first_order`; any RNN
    whose one-step Jacobian has the diagonal ``a_p + r_p`` fits, e.g. :mod:`numerics.anticollapse.gated.rnn_timescales`
    for ``torch.nn.GRU``/``LSTM``). Leaks are floored at ``LEAK_FLOOR``. The means are over all sequences
    of all batches and the windows described in :func:`rates_and_envelope`. ``variant="author"`` clamps
    ``|Gamma|`` at 1e-30 before the log, as the author's code does (it inflates tau of units faster than
    about (largest rate lag) / 69, where ``exp(-l / tau)`` falls below 1e-30); ``"no_floor"`` does not.
    """
    if isinstance(leaks, (str, bytes)) or not isinstance(leaks, Iterable):
        raise TypeError(f"leaks must be an iterable of (a, r) array pairs, got {type(leaks).__name__}")
    T = as_int("T", T, minimum=2)
    H = as_int("hidden", hidden, minimum=1, maximum=1 << 20)
    rl = _check_lags("rate_lags", np.asarray(rate_lags), T)
    el = _check_lags("envelope_lags", np.asarray(envelope_lags), T)
    envelope = as_choice("envelope", envelope, ENVELOPES)
    stride = as_int("window_stride", window_stride, minimum=1, maximum=MAX_LENGTH)
    variant = as_choice("variant", variant, VARIANTS)
    w = np.ones(H) if base_rate is None else as_real_array("base_rate", base_rate, finite=False)
    if w.shape != (H,) or not np.all(np.isfinite(w) & (w > 0)):
        raise ValueError(f"base_rate must be {H} positive finite numbers")
    sums = _Sums.zeros(rl.size, el.size, H)
    for a, r in leaks:
        a, r = _check_ar(a, r)
        if a.shape[1:] != (T, H):
            raise ValueError(f"leak traces must have shape (B, T, hidden) = (B, {T}, {H}), got {a.shape}")
        _accumulate(sums, _Prefix(np.maximum(a, LEAK_FLOOR), r), rl, el, w / w.sum(), stride, variant)
    if sums.n_abs == 0:
        raise ValueError("leaks yielded no sequences")
    rates = _rate_fit(rl, sums, variant)
    unit_mu0 = (sums.unit_mu0 / sums.n_env[:, None]).T
    gelr = sums.gelr / sums.n_env
    tf = rates.finite_tau
    if envelope == "mu0":
        measured, method = unit_mu0.mean(axis=0), "f(l) = E_{b,t} mean_q prod_W a_p (unweighted, zero order)"
        mixture = mixture_envelope(el, tf) if tf.size else np.full(el.size, np.nan)
    else:
        measured, method = gelr, "f(l) = E sum_q Lambda_q |Gamma_{t,l,q}| / sum_q Lambda_q"
        mixture = mixture_envelope(el, rates.tau, w)
    return rates, Envelope(lags=el, observable=envelope, measured=measured, mixture=mixture, unit_mu0=unit_mu0,
                           gelr=gelr, weights=w, method=method)


def mixture_envelope(lags: Sequence[int], tau: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """``sum_q w_q exp(-l / tau_q) / sum_q w_q`` (non-decaying units, tau = inf, contribute ``w_q``):
    :func:`theory.tauberian.envelope_from_spectrum`, the Laplace transform of the measured spectrum.

    >>> mixture_envelope([0, 10], np.array([10.0, np.inf])).round(6).tolist()
    [1.0, 0.68394]
    """
    from theory.tauberian import envelope_from_spectrum

    return envelope_from_spectrum(as_int_array("lags", lags, minimum=0), tau, weights=weights)


def _gate_or_none(lags: np.ndarray, f: np.ndarray, variant: str = "no_floor"):
    from numerics.anticollapse.envelope_gate import window_gate

    ok = np.all(np.isfinite(f) & ((f >= 0) if variant == "author" else (f > 0)))
    return window_gate(lags.astype(np.float64), f, variant=variant) if ok else None


def author_label_text(label: str) -> str:
    """The author's phase label in words: ``"unresolved"`` (the window gate passed but the tail fit has
    R^2 < 0.90) is the author's "anti-collapsed (unresolved beta)", not a statement about the resolution
    check (envelope lags reaching the tau tail).

    >>> author_label_text("unresolved"), author_label_text("collapsed")
    ('anti-collapsed (unresolved beta)', 'collapsed')
    """
    from theory.levy import PHASES

    label = as_choice("label", label, PHASES)
    return "anti-collapsed (unresolved beta)" if label == "unresolved" else label


def _label(gate, tail) -> str:
    from numerics.anticollapse.estimators import phase_rule

    passed = gate is not None and gate.passed
    if tail is None:
        return "collapsed" if not passed else "unresolved"
    return phase_rule(tuple(tail.ci), bool(passed), r2=tail.r2)


def diagnose_rates(rates: RateFit, env: Envelope, *, arch: str, base_rate: np.ndarray, base_rate_method: str,
                   n_boot: int = 2000, level: float = 0.90, window: tuple[float, float] = (0.75, 0.995),
                   seed: int = 0, epoch: int = 0, step: int = 0, variant: str = "no_floor") -> GatedDiagnostics:
    """The model-free second half of :func:`diagnose`: window gates, resolution, tail and envelope beta and
    the phase labels (the author's and the calibrated one) from measured rates and envelopes
    (:func:`rates_and_envelope_from_leaks`); ``variant`` as in :func:`diagnose` (the envelope-fit floor)."""
    as_instance("rates", rates, RateFit)
    as_instance("env", env, Envelope)
    from numerics.anticollapse.estimators import MIN_TAIL_SAMPLE, DegenerateTail, _check_window, hill_beta, tail_beta

    from numerics.anticollapse.envelope_gate import calibrated_comparison, envelope_beta_bootstrap, resolution_check

    n_boot = as_int("n_boot", n_boot, minimum=1, maximum=MAX_BOOT)
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    variant = as_choice("variant", variant, VARIANTS)
    window, seed = _check_window(window), as_int("seed", seed, minimum=0)
    epoch, step = as_int("epoch", epoch, minimum=0), as_int("step", step, minimum=0)
    arch = as_instance("arch", arch, str, "str (the architecture's label)")
    base_rate_method = as_instance("base_rate_method", base_rate_method, str, "str (how base_rate was measured)")
    base_rate = as_real_array("base_rate", base_rate, minimum=0.0)
    if base_rate.shape != rates.tau.shape:
        raise ValueError(f"base_rate must have one entry per unit, shape {rates.tau.shape}; got {base_rate.shape}")
    out = GatedDiagnostics(epoch=epoch, step=step, arch=arch, rates=rates, base_rate=base_rate,
                           base_rate_method=base_rate_method, envelope=env,
                           gate=_gate_or_none(env.lags, env.measured, variant),
                           gate_mixture=_gate_or_none(env.lags, env.mixture, variant), variant=variant,
                           resolution=resolution_check(rates.tau, env.lags, q_hi=window[1]))
    tf = rates.finite_tau
    if tf.size >= MIN_TAIL_SAMPLE:
        try:
            out.tail = tail_beta(tf, window=window, n_boot=n_boot, seed=seed, level=level)
        except DegenerateTail:          # e.g. every gate constant and equal
            out.note = f"{tf.size} finite time scales but too few distinct values in the tail window: no tail fit"
    else:
        out.note = f"only {tf.size} finite time scales (< {MIN_TAIL_SAMPLE}): no tail fit"
    if out.tail is not None:
        out.hill = float(hill_beta(tf))
        if out.gate is not None and env.observable == "mu0":
            boot = envelope_beta_bootstrap(env.unit_mu0, env.lags, n_boot=n_boot, seed=seed)
            out.comparison = calibrated_comparison(out.gate.beta_env, boot, out.tail, tf, env.lags, level=level)
    out.phase, out.phase_mixture = _label(out.gate, out.tail), _label(out.gate_mixture, out.tail)
    from numerics.anticollapse.calibrated_phase import calibrated_from_rates

    out.calibrated = calibrated_from_rates(rates, out.comparison)
    return out


def phase_trajectory(checkpoints: Sequence[GatedDiagnostics]) -> list[dict]:
    """The phase labels and the decisive numbers at every checkpoint, in order."""
    if not isinstance(checkpoints, (list, tuple)):
        raise TypeError(f"checkpoints must be a list of GatedDiagnostics, got {type(checkpoints).__name__}")
    return [as_instance("checkpoints[i]", c, GatedDiagnostics).summary() for c in checkpoints]


# ---------------------------------------------------------------------------------------------- stored records
def diagnosis_record(d: GatedDiagnostics) -> dict:
    """The JSON-able record of one checkpoint's diagnosis, as a result store keeps it: the decisive numbers
    (:meth:`GatedDiagnostics.summary`), the per-unit time scales and their two halves (from which
    :func:`record_summary` re-decides the calibrated label after a recalibration), the measured envelope
    and the calibration threshold the label was decided with."""
    as_instance("d", d, GatedDiagnostics)
    cal = getattr(d, "calibrated", None)
    halves = d.rates.tau_halves
    return {"summary": d.summary(), "tau": d.rates.tau.tolist(),
            "tau_halves": None if halves is None else np.asarray(halves).tolist(),
            "envelope_lags": d.envelope.lags.tolist(), "envelope_measured": d.envelope.measured.tolist(),
            "beta_hi_max": None if cal is None else cal.beta_hi_max}


def record_summary(record: dict) -> dict:
    """The summary of a stored :func:`diagnosis_record`, its calibrated label re-decided when it was decided
    with another threshold than the current ``calibrated_phase.BETA_HI_MAX`` (seed 0 always, as
    :func:`~numerics.anticollapse.calibrated_phase.calibrated_from_rates`: the same draws every time)."""
    from numerics.anticollapse.calibrated_phase import BETA_HI_MAX, calibrated_phase

    as_instance("record", record, dict, "dict (diagnosis_record)")
    out = dict(record["summary"])
    if record.get("beta_hi_max") != BETA_HI_MAX:
        tau = as_real_array("record['tau']", record["tau"], finite=False)        # inf: a non-decaying unit
        halves = record.get("tau_halves")
        halves = np.full((2, tau.size), np.nan) if halves is None else as_real_array("record['tau_halves']", halves,
                                                                                      finite=False)
        out.update(calibrated_phase(tau, halves, seed=0, envelope_agree=out.get("tail_envelope_agree")).summary())
    return out
