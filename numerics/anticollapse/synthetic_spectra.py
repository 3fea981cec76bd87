"""Synthetic time-scale spectra pushed through the diagnostic pipeline (calibration of the phase decision).

A spectrum is H per-unit time scales ``tau_q``; its leak traces are ``a_p = 1 - s_p`` with a per-step
gate ``s_p = s_q exp(g eps_p - g^2 / 2)`` (``eps_p`` standard normal, ``g`` = ``gate_noise``; mean gate
``s_q = 1 - exp(-1 / tau_q)``, so a noiseless unit has exactly ``-1 / log a = tau_q``) and ``r_p = 0``.
These go through :func:`numerics.anticollapse.spectra.rates_and_envelope_from_leaks` (the lag grids,
window stride and number of sequences of a :class:`~numerics.anticollapse.spectra.LongDiagnosisSpec`)
and :func:`numerics.anticollapse.calibrated_phase.calibrated_phase`, so the measured tau carry the sampling
noise of finitely many diagnostic sequences, as a trained model's do (the first-order term of trained
models is not simulated).

Families: ``pareto`` (``tau = tau_min (1 - U)^(-1/beta)``, untruncated: the largest of H draws, about
``tau_min H^(1/beta)``, is what limits tau_max) and ``few`` (k time scales log-uniform on
``[tau_min, tau_min * span]``, the H units split evenly among them: a collapsed spectrum).
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np

from theory._args import MAX_LENGTH, MAX_MEMORY_BYTES, as_instance, as_int, as_real, as_real_array, check_budget

_LOG2_FLOAT_MAX = 1023.0        # log2 of float64's largest finite value, rounded down
# gate values one measurement simulates (n_seq x T x H): at about 6e6 per second on one core, 2**24 takes a
# few seconds; the calibration spectra need 2**22 each, and a typo (n_seq=10**6) is refused instead of an hour
MAX_SIMULATED = 2**24
# mixture entries of one gate_pass_rates call (draws x 7 families x H x len(lags)): the committed check's 200 draws
# at H = 128 on 128 lags are 2.9e7 (seconds); 2**31 is about 75 times that (minutes on one core), and a typo
# (draws=10**7: days) is refused up front
MAX_GATE_ENTRIES = 2**31

__all__ = ["pareto_taus", "few_exponential_taus", "synthetic_leaks", "measure_spectrum"]


def pareto_taus(beta: float, n: int, tau_min: float, rng: np.random.Generator) -> np.ndarray:
    """``n`` draws of ``tau_min (1 - U)^(-1/beta)``, sorted. ``1 - U >= 2^-53``, so the largest possible draw
    is ``tau_min 2^(53/beta)``: a ``beta`` (or ``tau_min``) that lets it pass float64 is refused."""
    as_instance("rng", rng, np.random.Generator, "numpy.random.Generator")
    beta = as_real("beta", beta, minimum=0.0, open_min=True)
    tau_min = as_real("tau_min", tau_min, minimum=0.0, open_min=True)
    if not math.log2(tau_min) + 53.0 / beta < _LOG2_FLOAT_MAX:
        raise ValueError(f"beta={beta!r} is too small for tau_min={tau_min!r}: a draw tau_min * 2**(53/beta) "
                         f"could pass float64 (need 53 / beta + log2(tau_min) < {_LOG2_FLOAT_MAX:.0f})")
    u = rng.random(as_int("n", n, minimum=1, maximum=MAX_LENGTH))
    return np.sort(tau_min * (1.0 - u) ** (-1.0 / beta))


def few_exponential_taus(k: int, n: int, span: float, tau_min: float, rng: np.random.Generator) -> np.ndarray:
    """``k`` time scales log-uniform on ``[tau_min, tau_min span]``, repeated over ``n`` units (evenly)."""
    as_instance("rng", rng, np.random.Generator, "numpy.random.Generator")
    k = as_int("k", k, minimum=1)
    n = as_int("n", n, minimum=k, maximum=MAX_LENGTH)
    span = as_real("span", span, minimum=1.0)
    centres = as_real("tau_min", tau_min, minimum=0.0, open_min=True) * span ** rng.random(k)
    return np.sort(np.resize(centres, n))


def synthetic_leaks(tau: np.ndarray, n_seq: int, T: int, *, gate_noise: float, rng: np.random.Generator,
                    batch: int = 2) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Leak traces ``(a, r)`` (batch, T, H) of the spectrum ``tau`` (module docstring), ``batch`` at a time.

    The arguments are checked when it is called (it returns the generator), not at the first chunk."""
    tau = as_real_array("tau", tau, minimum=0.0).reshape(-1)
    if not np.all(tau > 0):
        raise ValueError("tau must hold positive time scales")
    g = as_real("gate_noise", gate_noise, minimum=0.0)
    n_seq, T, batch = (as_int("n_seq", n_seq, minimum=1, maximum=MAX_LENGTH), as_int("T", T, minimum=2, maximum=MAX_LENGTH),
                       as_int("batch", batch, minimum=1, maximum=MAX_LENGTH))
    check_budget("batch", 16.0 * batch * T * tau.size, MAX_MEMORY_BYTES, value=batch)   # one chunk: a and r
    as_instance("rng", rng, np.random.Generator, "numpy.random.Generator")
    return _leak_chunks(tau, n_seq, T, g, rng, batch)


def _leak_chunks(tau, n_seq, T, g, rng, batch):
    s_mean = -np.expm1(-1.0 / tau)
    for i in range(0, n_seq, batch):
        b = min(batch, n_seq - i)
        s = s_mean * np.exp(g * rng.standard_normal((b, T, tau.size)) - g * g / 2.0)
        yield 1.0 - np.minimum(s, 1.0 - 1e-12), np.zeros_like(s)


def measure_spectrum(tau: np.ndarray, spec, *, gate_noise: float = 0.3, n_seq: int = 4, seed: int = 0,
                     beta_hi_max: float | None = None):
    """The calibrated decision on the *measured* spectrum of ``tau`` (the pipeline of the module docstring,
    on the lag grids and window stride of ``spec``, ``n_seq`` sequences of length ``spec.T``)."""
    from .calibrated_phase import BETA_HI_MAX, calibrated_phase
    from numerics.anticollapse.spectra import LongDiagnosisSpec, rates_and_envelope_from_leaks

    tau = as_real_array("tau", tau, minimum=0.0).reshape(-1)
    as_instance("spec", spec, LongDiagnosisSpec, "LongDiagnosisSpec")
    n_seq = as_int("n_seq", n_seq, minimum=1, maximum=MAX_LENGTH)
    check_budget("n_seq", float(n_seq) * spec.T * tau.size, MAX_SIMULATED, unit="simulated gate values (n_seq T H)",
                 value=n_seq)
    rng = np.random.default_rng(as_int("seed", seed, minimum=0))
    rates, _ = rates_and_envelope_from_leaks(
        synthetic_leaks(tau, n_seq, spec.T, gate_noise=gate_noise, rng=rng), T=spec.T, hidden=len(tau),
        rate_lags=spec.grid("rate_lags"), envelope_lags=spec.grid("envelope_lags")[:8],
        window_stride=spec.window_stride)
    return calibrated_phase(rates.tau, rates.tau_halves, seed=seed,
                            beta_hi_max=BETA_HI_MAX if beta_hi_max is None else beta_hi_max)


# ---------------------------------------------------------------------------------------------- the author's gate
GATE_BETAS = (0.5, 0.8, 1.2)
GATE_KS = (1, 2, 3, 5)


def _mixture(lags: np.ndarray, tau: np.ndarray) -> np.ndarray:
    return np.mean(np.exp(-lags[:, None] / tau[None, :]), axis=1)


def gate_pass_rates(lags, *, draws: int = 200, H: int = 128, seed: int = 0, variant: str = "author") -> dict:
    """Pass counts of the author's window gate (:func:`~numerics.anticollapse.envelope_gate.window_gate`,
    ``variant`` floors) on exact mixtures ``f(l) = mean_q exp(-l / tau_q)`` over ``lags``:

    - ``pareto_quantiles``: per beta in :data:`GATE_BETAS`, the H midpoint quantiles
      ``tau_min (1 - u)^(-1/beta)`` for 9 values of tau_min geometric on [l_min / 2, 4 l_min] (noiseless);
    - ``pareto_draws``: per beta, ``draws`` spectra of H Pareto draws, tau_min log-uniform on that range;
    - ``few``: per k in :data:`GATE_KS`, ``draws`` spectra of k time scales log-uniform on
      [l_min, l_max], the H units split evenly (a collapsed spectrum).

    Returns ``{family: {param: {"passed": k, "n": n}}}``. The cost, ``draws (|GATE_BETAS| + |GATE_KS|) H
    len(lags)`` mixture entries, is checked up front against :data:`MAX_GATE_ENTRIES` (a ValueError naming
    ``draws``).
    """
    from .envelope_gate import window_gate

    lags = as_real_array("lags", lags, minimum=0.0)
    if lags.size == 0:
        raise ValueError("lags must be a nonempty array")
    draws = as_int("draws", draws, minimum=1)
    H = as_int("H", H, minimum=1, maximum=MAX_LENGTH)
    check_budget("draws", float(draws) * (len(GATE_BETAS) + len(GATE_KS)) * H * lags.size, MAX_GATE_ENTRIES,
                 unit="mixture entries (draws x 7 x H x lags)", value=draws)
    rng = np.random.default_rng(as_int("seed", seed, minimum=0))
    lo, hi = float(lags.min()), float(lags.max())
    tmins = np.geomspace(lo / 2.0, 4.0 * lo, 9)
    u = (np.arange(H) + 0.5) / H

    def passed(tau) -> bool:
        return bool(window_gate(lags, _mixture(lags, tau), variant=variant).passed)

    out = {"pareto_quantiles": {}, "pareto_draws": {}, "few": {}}
    for b in GATE_BETAS:
        out["pareto_quantiles"][str(b)] = {"passed": sum(passed(t * (1 - u) ** (-1 / b)) for t in tmins),
                                           "n": tmins.size}
        k = sum(passed(pareto_taus(b, H, float(np.exp(rng.uniform(np.log(tmins[0]), np.log(tmins[-1])))), rng))
                for _ in range(draws))
        out["pareto_draws"][str(b)] = {"passed": int(k), "n": draws}
    for kk in GATE_KS:
        k = sum(passed(few_exponential_taus(kk, H, hi / lo, lo, rng)) for _ in range(draws))
        out["few"][str(kk)] = {"passed": int(k), "n": draws}
    return out
