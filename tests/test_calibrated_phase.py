"""The calibrated phase decision (numerics.anticollapse.calibrated_phase) and its committed calibration table."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from numerics.anticollapse import calibrated_phase as cp  # noqa: E402
from numerics.anticollapse.synthetic_spectra import few_exponential_taus, measure_spectrum, pareto_taus  # noqa: E402
import tiny_inputs as tiny  # noqa: E402

TABLE = ROOT / "docs" / "results" / "gated-calibration" / "calibration.json"


def test_measurement_sigma():
    rng = np.random.default_rng(3)
    tau = np.geomspace(1, 100, 4000)
    sig_half = 0.02                          # each half: log tau + N(0, sig_half^2); full sample: sig_half / sqrt 2
    halves = tau * np.exp(sig_half * rng.standard_normal((2, tau.size)))
    s = cp.measurement_sigma(halves)
    se = sig_half / np.sqrt(2) / np.sqrt(2 * tau.size)        # se of a sd estimated from n draws
    assert abs(s - sig_half / np.sqrt(2)) <= 4.5 * se
    assert np.isnan(cp.measurement_sigma(np.full((2, 3), np.inf)))
    with pytest.raises(ValueError, match="tau_halves"):
        cp.measurement_sigma(np.ones((3, 4)))


def test_gof_p_value_is_valid_under_the_null():
    """Under the null (5 time scales, known noise) the simulated p-value is (super-)uniform: P(p < 0.05) <= 0.05
    up to binomial noise, z from a stated false-alarm rate."""
    from numerics.stats import z_for_false_alarm

    rng = np.random.default_rng(5)
    n_rep, hits = 60, 0
    for i in range(n_rep):
        centres = np.repeat(np.exp(rng.uniform(0, 6, 5)), 26)[:128]
        hits += cp.few_exponential_gof(centres * np.exp(0.01 * rng.standard_normal(128)), 0.01, n_sim=49,
                                       seed=i)[1] < 0.05
    z = z_for_false_alarm(1e-6)
    assert hits <= n_rep * 0.05 + z * np.sqrt(n_rep * 0.05 * 0.95)


def _halves(tau, sigma, rng):
    return tau * np.exp(sigma * np.sqrt(2) * rng.standard_normal((2, tau.size)))


def test_it_can_say_each_label():
    rng = np.random.default_rng(0)
    u = (np.arange(512) + 0.5) / 512
    for beta, want in ((0.4, "extended"), (1.0, "boundary"), (2.0, "concentrated")):
        tau = 2.0 * (1 - u) ** (-1 / beta) * np.exp(0.003 * rng.standard_normal(u.size))
        r = cp.calibrated_phase(tau, _halves(tau, 0.003, rng), n_boot=300, n_sim=49)
        assert r.label == want and r.heavy_tailed, (beta, r)
    few = np.repeat([3.0, 40.0, 500.0], 43)[:128] * np.exp(0.003 * rng.standard_normal(128))
    r = cp.calibrated_phase(few, _halves(few, 0.003, rng), n_boot=300, n_sim=49)
    assert r.label == "collapsed" and "not rejected" in r.reason
    narrow = 80.0 * np.exp(0.05 * rng.standard_normal(128))   # continuous but light: rejected null, steep tail
    r = cp.calibrated_phase(narrow, _halves(narrow, 0.001, rng), n_boot=300, n_sim=49)
    assert r.label == "collapsed" and "upper end" in r.reason
    r = cp.calibrated_phase(np.arange(1.0, 10.0), np.ones((2, 9)))
    assert r.label == "unresolved" and "finite time scales" in r.reason
    assert set(cp.LABELS) == {"collapsed", "extended", "boundary", "concentrated", "unresolved"}


def test_threshold_is_the_committed_table():
    out = json.loads(TABLE.read_text())
    assert cp.BETA_HI_MAX == pytest.approx(out["beta_hi_max"], rel=1e-3)
    assert (out["p_null"], out["k_null"], out["n_boot"], out["n_sim"]) == (cp.P_NULL, cp.K_NULL, cp.N_BOOT, cp.N_SIM)
    worst = max(r["rate"] for r in out["table"]["false_collapse"].values())
    assert worst <= out["target_false_collapse"]


def _upper_count(n, p_hi):
    """The largest count of n fresh draws compatible with a true rate <= p_hi (false alarm 1e-6)."""
    return int(stats.binom.ppf(1.0 - 1e-6, n, p_hi))


def test_fresh_spectra_reproduce_the_table():
    """Fresh synthetic spectra (seeds the table did not use) through the same pipeline: the false-collapse count
    at the hardest beta and the false-heavy-tail count of the most exposed mixture stay within the table's
    95% intervals (a binomial bound at false-alarm rate 1e-6 on the interval's upper end)."""
    from numerics.anticollapse.gated.sweep import load_gated_sweep

    out = json.loads(TABLE.read_text())
    s = out["settings"]
    spec = load_gated_sweep("cpu").long
    fc = out["table"]["false_collapse"][str(max(s["betas"]))]
    key, fh = max(out["table"]["false_heavy_tail"].items(), key=lambda kv: kv[1]["rate"])
    k_mix, span = int(key.split(",")[0].split("=")[1]), float(key.split("=")[-1])
    n = 6
    coll = heavy = 0
    for i in range(n):
        rng = np.random.default_rng([10 ** 6 + i, 7])
        r = measure_spectrum(pareto_taus(max(s["betas"]), s["H"], s["tau_min"], rng), spec,
                             gate_noise=s["gate_noise"], n_seq=s["n_seq"], seed=10 ** 6 + i)
        coll += r.label == "collapsed"
        r = measure_spectrum(few_exponential_taus(k_mix, s["H"], span, s["tau_min"], rng), spec,
                             gate_noise=s["gate_noise"], n_seq=s["n_seq"], seed=10 ** 6 + i)
        heavy += r.label != "collapsed"
    assert coll <= _upper_count(n, fc["ci95"][1]), (coll, fc)
    assert heavy <= _upper_count(n, fh["ci95"][1]), (heavy, key, fh)


def test_bad_input():
    with pytest.raises(ValueError, match="tau"):
        cp.few_exponential_gof([1.0, 2.0], 0.1)
    with pytest.raises(ValueError, match="sigma"):
        cp.few_exponential_gof(np.arange(1.0, 30.0), -1.0)


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.anticollapse import calibrated_phase as cp

    return [
        (lambda: cp.measurement_sigma(""), TypeError, "tau_halves"),
        (lambda: cp.measurement_sigma(object()), TypeError, "tau_halves"),
        (lambda: cp.few_exponential_gof(tiny.pareto(40), 0.05, k=10**6), ValueError, "k=1000000"),
        (lambda: tiny.calibrated(p_null=np.nan), ValueError, "p_null"),
        (lambda: tiny.calibrated(tau=np.float64(np.nan)), ValueError, "tau"),
        (lambda: tiny.calibrated(tau=1 + 2j), TypeError, "tau"),
        (lambda: tiny.calibrated(beta_hi_max=(1,)), TypeError, "beta_hi_max"),
        (lambda: tiny.calibrated(beta_hi_max=np.nan), ValueError, "beta_hi_max"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


def test_calibrated_phase_threshold_may_be_infinite():
    """beta_hi_max = inf is the calibration's "threshold left free": the label then depends on the null test
    only (a finite threshold above every interval gives the same label)."""
    free, high = tiny.calibrated(beta_hi_max=np.inf), tiny.calibrated(beta_hi_max=1e6)
    assert free.label == high.label and free.gof_p == high.gof_p and free.beta_hi_max == np.inf


def test_pareto_taus_never_overflow():
    from numerics.anticollapse.synthetic_spectra import pareto_taus

    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="beta"):
        pareto_taus(7.7e-219, 20, 2.0, rng)
    with pytest.raises(ValueError, match="tau_min"):
        pareto_taus(0.5, 20, 1e300, rng)
    beta = 53.0 / (1022.0 - np.log2(2.0))          # just inside the stated bound
    assert np.all(np.isfinite(pareto_taus(beta, 10**5, 2.0, rng)))


def test_measure_spectrum_estimates_its_work():
    from numerics.anticollapse.synthetic_spectra import measure_spectrum

    with pytest.raises(ValueError, match="n_seq=1000000"):
        measure_spectrum(tiny.pareto(20), tiny.long_spec(), n_seq=10**6)
    with pytest.raises(ValueError, match="beta_hi_max"):
        measure_spectrum(tiny.pareto(20), tiny.long_spec(), beta_hi_max=-np.inf)
    assert measure_spectrum(tiny.pareto(20), tiny.long_spec(), beta_hi_max=np.inf).beta_hi_max == np.inf
