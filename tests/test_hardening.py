"""Extreme parameters, bounded work, no traceback: the cases an independent fuzz of every package found.

Each case is a call that crashed, was silently wrong, hung or printed a traceback, and must now give the
right value (checked against an independent route) or a TypeError/ValueError naming the parameter, fast.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import mpmath
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------------------ executor=
@pytest.mark.parametrize("call", ["wick_polynomial", "count_pairings", "estimate_Q", "estimate_S"])
@pytest.mark.parametrize("bad", [1, "threads", object()])
def test_executor_must_have_map(call, bad):
    from numerics.signal_propagation import ginibre, wick

    fn = {"wick_polynomial": lambda e: wick.wick_polynomial(3, executor=e),
          "count_pairings": lambda e: wick.count_pairings(3, executor=e),
          "estimate_Q": lambda e: ginibre.estimate_Q(3, 2, 16, seed=0, executor=e),
          "estimate_S": lambda e: ginibre.estimate_S(3, 2, 16, seed=0, executor=e)}[call]
    with pytest.raises(TypeError, match="executor"):
        fn(bad)


def test_executor_results_unchanged():
    from concurrent.futures import ThreadPoolExecutor

    from numerics.signal_propagation import wick

    with ThreadPoolExecutor(2) as ex:
        assert wick.wick_polynomial(5, executor=ex) == wick.wick_polynomial(5)


# ------------------------------------------------------------------------------------------ paths
@pytest.mark.parametrize("bad", [0, 1, None, 3.5, b"sweep.json", ["a.json"]])
def test_load_sweep_takes_paths_only(bad):
    from numerics.memory_functions.bench.sweep import load_sweep

    with pytest.raises(TypeError, match="path"):
        load_sweep(bad)
    os.fstat(0)                  # standard input is still open (load_sweep(0) used to read and close it)


@pytest.mark.parametrize("bad", [0, None, 2.0, b"s.sqlite"])
def test_store_takes_paths_only(bad):
    from numerics.experiments.store import ResultStore

    with pytest.raises(TypeError, match="path"):
        ResultStore(bad)


def test_store_accepts_pathlike(tmp_path):
    from numerics.experiments.store import ResultStore

    with ResultStore(tmp_path / "s.sqlite") as store:
        assert len(store) == 0


# ------------------------------------------------------------------------------------------ sizes
def test_memory_probe_estimates_memory_up_front():
    from numerics.memory_functions.bench.probe import memory_probe
    from numerics.memory_functions.models.lstm import LSTM

    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"T=10000000 .*GiB"):
        memory_probe(LSTM(4), T=10**7)
    assert time.perf_counter() - t0 < 5
    assert memory_probe(LSTM(4), T=32).shape == (32,)


@pytest.mark.parametrize("build, name", [
    ("LSTM(layers=10**7)", "layers"), ("LSTM(width=10**6)", "width"), ("TCN(levels=10**7)", "levels"),
    ("TCN(channels=10**6)", "channels"), ("S4D(layers=10**7, seq_len=64)", "layers"),
    ("S4D(state=10**9, seq_len=64)", "state"), ("Transformer(layers=10**7)", "layers"),
    ("Transformer(d_model=10**6, heads=1)", "d_model"), ("build_gated_rnn('diag', hidden=10**6)", "hidden"),
])
def test_model_sizes_have_a_maximum(build, name):
    from numerics.anticollapse.gated.gated_rnn import build_gated_rnn  # noqa: F401
    from numerics.memory_functions.models.lstm import LSTM  # noqa: F401
    from numerics.memory_functions.models.s4d import S4D  # noqa: F401
    from numerics.memory_functions.models.tcn import TCN  # noqa: F401
    from numerics.memory_functions.models.transformer import Transformer  # noqa: F401

    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=name):
        eval(build)
    assert time.perf_counter() - t0 < 5


def test_bootstrap_and_horizon_bounds():
    from numerics.anticollapse.envelope_gate import envelope_beta_bootstrap
    from theory.horizon import sigma_for_horizon

    with pytest.raises(ValueError, match="n_boot"):
        envelope_beta_bootstrap(np.ones((4, 3)), [1, 2, 3], n_boot=10**30)
    with pytest.raises(ValueError, match="t must"):
        sigma_for_horizon(64, 10**7, 0.05)


# ------------------------------------------------------------------------------------------ silent wrong
@pytest.mark.parametrize("key", ["eta_G", "eta_J", "lam", "C", "kappa"])
@pytest.mark.parametrize("value", [1e-30, 1e30])
def test_characteristic_root_mp_at_extreme_parameters(key, value):
    """The mp root at dps 30 agrees with dps 60 to 29 digits and with the float root to 1e-12 (mp used to
    give 6.31 for 9.99999999999999 at lam = 1e30)."""
    from theory.levy import Phi, characteristic_root

    p = {**dict(eta_G=0.1, kappa=1.0, eta_J=0.05, alpha=1.5, lam=2.0, C=1.0), key: value}
    a = characteristic_root(**p, method="mp", dps=30)
    b = characteristic_root(**p, method="mp", dps=60)
    f = characteristic_root(**p)
    with mpmath.workdps(60):
        assert abs(a - b) <= mpmath.mpf(10) ** -29 * abs(b)
    assert abs(f - float(b)) <= 1e-12 * float(b)
    if b < p["lam"]:              # an interior root: Phi changes sign there
        lo, hi = float(b) * (1 - 1e-9), float(b) * (1 + 1e-9)
        assert Phi(lo, **p, method="mp") < 0 < Phi(min(hi, p["lam"]), **p, method="mp")


def test_characteristic_root_small_alpha_float_and_mp():
    """alpha -> 0: the float symbol used to cancel to noise (root 1.0 instead of 1.99999999999999)."""
    from theory.levy import characteristic_root

    p = dict(eta_G=0.1, kappa=1.0, eta_J=0.05, alpha=1e-30, lam=2.0, C=1.0)
    b = characteristic_root(**p, method="mp", dps=60)
    assert abs(characteristic_root(**p) - float(b)) <= 1e-12
    assert abs(characteristic_root(**p, method="mp", dps=30) - b) <= mpmath.mpf(10) ** -28


def test_Q_critical_form_outside_its_domain():
    from theory.regimes import Q_critical_form
    from theory.signal_energy import Q

    with pytest.raises(ValueError, match="n=1, k=32"):
        Q_critical_form(1, 32)
    assert Q_critical_form(1, 32, corrected=False) > 0
    got = Q_critical_form(10**6, 1000)                     # inside: close to the exact value
    assert abs(got - Q(10**6, 1000)) <= 1e-5 * Q(10**6, 1000)


# ------------------------------------------------------------------------------------------ command lines
def _cli(args, timeout=60):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=ROOT)
    return proc, time.perf_counter() - t0


def _one_line(proc, *needles):
    err = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert len(err) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    for n in needles:
        assert n in err[0], (n, err[0])


def test_theory_cli_huge_integer():
    proc, _ = _cli(["-m", "seqtheory", "energy", "--n", "1e1000", "--t", "5"])
    _one_line(proc, "n must be")


def test_rnn_timescales_cli_memory_estimate(tmp_path):
    import torch

    path = tmp_path / "gru.pt"
    torch.save(torch.nn.GRU(3, 8).state_dict(), path)
    proc, wall = _cli(["-m", "seqtheory", "timescales", str(path), "--T", "65536", "--batch", "65536"])
    _one_line(proc, "--batch", "GiB")
    assert wall < 30


@pytest.fixture
def tiny_sweep(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16},
                                                             "train": {"steps": 2, "batch": 8}},
                                "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}},
                                                  "kinds": ["exp"], "alphas": [0.5], "seeds": [0]}}}))
    return path


@pytest.mark.parametrize("extra, needle", [(["--device", "bogus"], "--device"), (["--device", "cuda:99"], "CUDA")])
def test_sweep_cli_bad_device(tiny_sweep, tmp_path, extra, needle):
    proc, _ = _cli(["-m", "seqtheory", "sweep", "run", str(tiny_sweep), "--store",
                    str(tmp_path / "s.sqlite"), "--no-progress", *extra])
    _one_line(proc, needle)


def test_sweep_cli_export_to_a_full_disk(tiny_sweep, tmp_path):
    store = str(tmp_path / "s.sqlite")
    proc, _ = _cli(["-m", "seqtheory", "sweep", "run", str(tiny_sweep), "--store", store, "--no-progress"])
    assert proc.returncode == 0, proc.stderr
    proc, _ = _cli(["-m", "seqtheory", "sweep", "export", str(tiny_sweep), "--store", store,
                    "--csv", "/dev/full"])
    _one_line(proc, "/dev/full")


def test_sweep_cli_unreachable_dask_scheduler(tiny_sweep, tmp_path):
    proc, wall = _cli(["-m", "seqtheory", "sweep", "run", str(tiny_sweep), "--store",
                       str(tmp_path / "s.sqlite"), "--dask", "127.0.0.1:1", "--no-progress"], timeout=120)
    _one_line(proc, "127.0.0.1:1")
    assert wall < 30


# ------------------------------------------------------------------------------------------ named errors
def _gated_run():
    import fuzz_torch

    return fuzz_torch._gated_run()


def _gated_config():
    import fuzz_torch

    return fuzz_torch._gated_config()


def _rates_env():
    import fuzz_torch

    return fuzz_torch._rates_env()


def _long_spec(**kw):
    from numerics.anticollapse.spectra import LongDiagnosisSpec

    return LongDiagnosisSpec(**{**dict(T=64, n_diag=4, diag_batch=2, window_stride=2, rate_lags=(4, 32, 4),
                                       envelope_lags=(2, 32, 8), n_boot=20), **kw})


def _pareto(n=200, seed=1):
    return np.random.default_rng(seed).pareto(1.5, n) + 1.0


def _calibrated(**kw):
    from numerics.anticollapse.calibrated_phase import calibrated_phase

    tau = _pareto()
    halves = tau * np.exp(0.05 * np.random.default_rng(2).standard_normal((2, tau.size)))
    return calibrated_phase(**{**dict(tau=tau, tau_halves=halves, n_boot=20, n_sim=20), **kw})


def _diagnose_rates(**kw):
    from numerics.anticollapse.spectra import diagnose_rates

    rates, env = _rates_env()
    return diagnose_rates(rates, env, **{**dict(arch="diag", base_rate=np.ones(4), base_rate_method="uniform",
                                                n_boot=20), **kw})


def _rows():
    return [{"model": "lstm", "kind": "exp", "alpha": 0.5, "relmse": 0.1, "seed": 0, "half_relmse": 0.2,
             "half_step": 1, "half_is_budget": True, "curve_steps": [0, 1], "curve_loss": [1.0, 0.1]}]


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics import stats as numerics_stats
    from numerics.anticollapse import calibrated_phase as cp
    from numerics.anticollapse import envelope_gate, spectra
    from numerics.anticollapse.gated import delayed_task, rnn_timescales, train
    from numerics.anticollapse.gated import sweep as gated_sweep
    from numerics.experiments import ids
    from numerics.memory_functions.bench import aggregate, plots, polish, runs, sweep
    from numerics.memory_functions.bench.grouped import train_group
    from numerics.memory_functions.bench.trainer import TrainSpec, make_optimizer
    from numerics.memory_functions.bench.trainer import train as train_model
    from numerics.memory_functions.models.compose import Sequential
    from numerics.memory_functions.models.lstm import LSTM

    x = np.zeros((4, 12))
    return [
        (lambda: numerics_stats.kmeans_1d(np.float64(np.nan), 3), ValueError, "x"),
        (lambda: cp.measurement_sigma(""), TypeError, "tau_halves"),
        (lambda: cp.measurement_sigma(object()), TypeError, "tau_halves"),
        (lambda: cp.few_exponential_gof(_pareto(40), 0.05, k=10**6), ValueError, "k=1000000"),
        (lambda: _calibrated(p_null=np.nan), ValueError, "p_null"),
        (lambda: _calibrated(tau=np.float64(np.nan)), ValueError, "tau"),
        (lambda: _calibrated(tau=1 + 2j), TypeError, "tau"),
        (lambda: _calibrated(beta_hi_max=(1,)), TypeError, "beta_hi_max"),
        (lambda: _calibrated(beta_hi_max=np.nan), ValueError, "beta_hi_max"),
        (lambda: delayed_task.make_delayed_task(lag_exponent=0), ValueError, "lag_exponent"),
        (lambda: delayed_task.make_delayed_task(lag_exponent=10**6), ValueError, "lag_exponent"),
        (lambda: spectra.second_order_bound(np.array([-691.0, 0.1])), ValueError, "e must be >= 0"),
        (lambda: spectra.second_order_bound(np.full(3, 1e300)), ValueError, "e is too large"),
        (lambda: spectra.author_label_text(np.nan), TypeError, "label"),
        (lambda: spectra.author_label_text(np.array([1, 2])), TypeError, "label"),
        (lambda: _diagnose_rates(window=27), TypeError, "window"),
        (lambda: _diagnose_rates(seed=0.0), TypeError, "seed"),
        (lambda: _diagnose_rates(epoch=1.5), TypeError, "epoch"),
        (lambda: _diagnose_rates(step=-1), ValueError, "step"),
        (lambda: envelope_gate.resolution_check("", np.arange(1, 30)), TypeError, "tau"),
        (lambda: envelope_gate.pareto_mixture_taus(0.5, 1e7, 100.0, 8), ValueError, "tau_min"),
        (lambda: envelope_gate.calibrated_comparison(0.5, [], _tail(), _pareto(400), np.arange(1.0, 30.0)),
         ValueError, "measured_boot"),
        (lambda: train.TaskSpec(T=32, n_lags=2, lag_range=1000), TypeError, "lag_range"),
        (lambda: spectra.LongDiagnosisSpec(rate_lags=0), TypeError, "rate_lags"),
        (lambda: spectra.LongDiagnosisSpec(envelope_lags=10**6), TypeError, "envelope_lags"),
        (lambda: train.TaskSpec(T=32, n_lags=2, lag_exponent=10**6), ValueError, "lag_exponent"),
        (lambda: gated_sweep.load_gated_sweep("bogus"), ValueError, "name_or_path"),
        (lambda: train.slow_units(np.array([np.nan, 1.0]), 1), ValueError, "tau"),
        (lambda: train.train_gated(_gated_config(), progress=5), TypeError, "progress"),
        (lambda: rnn_timescales.load_state_dict("missing-model.pt"), ValueError, "path"),
        (lambda: rnn_timescales.run_layer(_rnn_weights(), 0, ""), ValueError, "x"),
        (lambda: rnn_timescales.rnn_timescales(_gru(), -10**30), ValueError, "x"),
        (lambda: aggregate.median_by(_rows(), np.array(1.0)), TypeError, "keys"),
        (lambda: aggregate.convergence(_rows(), np.array(1.0)), TypeError, "keys"),
        (lambda: aggregate.cell_floors(_rows(), np.array(1.0)), TypeError, "keys"),
        (lambda: plots.plot_convergence(_rows(), 253927, ("model", "kind", "alpha"), None), TypeError, "conv"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], 1.0, window=1, gtol=np.nan), ValueError, "gtol"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], 1.0, window=1, rtol=np.inf), ValueError, "rtol"),
        (lambda: runs.TargetSpec("exp", 0.5, T=12, lam=np.zeros((2, 2))), ValueError, "lam"),
        (lambda: ids.canonical_json(np.nan), ValueError, "obj"),
        (lambda: ids.canonical_json(np.int64(-1)), TypeError, "obj"),
        (lambda: runs.run_id(np.int64(-1)), TypeError, "config"),
        (lambda: runs.run_id({"a": np.array([1, 2])}), TypeError, "config"),
        (lambda: sweep.expand_sweep(_sweep_doc(), studies=np.array([np.nan])), TypeError, "studies"),
        (lambda: train_model(LSTM(3), x, x, TrainSpec(steps=2, batch=2), progress=-3), TypeError, "progress"),
        (lambda: train_model(LSTM(3), object(), x, TrainSpec(steps=2, batch=2)), TypeError, "x and y"),
        (lambda: polish.polish(LSTM(3), np.array([1, 2]), x, polish.PolishSpec()), ValueError, "x and y"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], True, window=1), TypeError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], None, window=1), TypeError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], np.nan, window=1), ValueError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], -np.inf, window=1), ValueError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], 1 + 2j, window=1), TypeError, "g0"),
        (lambda: make_optimizer([], TrainSpec()), ValueError, "named"),
        (lambda: make_optimizer([1, 2], TrainSpec()), TypeError, "named"),
        (lambda: train_group([LSTM(3)], [(x, x)], [1]), TypeError, "specs"),
        (lambda: plots.plot_heatmap(_rows(), None, title=np.array([1, 2])), TypeError, "title"),
        (lambda: Sequential(1, 2), TypeError, "stages[0]"),
    ]


def _sweep_doc():
    return {"name": "tiny", "defaults": {}, "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}},
                                                               "kinds": ["exp"], "alphas": [0.5], "seeds": [0]}}}


def _tail():
    from numerics.anticollapse.estimators import tail_beta

    return tail_beta(_pareto(400), n_boot=20)


def _gru():
    import torch

    torch.manual_seed(0)
    return torch.nn.GRU(2, 4)


def _rnn_weights():
    from numerics.anticollapse.gated.rnn_timescales import weights_from_state_dict

    return weights_from_state_dict(_gru().state_dict())


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    call, exc, needle = _bad_calls()[i]
    with pytest.raises(exc) as info:
        call()
    assert needle in str(info.value)


def test_run_sweep_progress_must_be_a_bool(tmp_path):
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep

    with ResultStore(tmp_path / "s.sqlite") as store, pytest.raises(TypeError, match="progress"):
        run_sweep(expand_sweep(_sweep_doc()), store, progress=1)
    with ResultStore(tmp_path / "s.sqlite") as store:
        assert len(store) == 0              # refused before any run started


def test_rediagnose_run_states_must_be_a_list():
    from numerics.anticollapse.gated.long_horizon import rediagnose_run

    with pytest.raises(TypeError, match="states"):
        rediagnose_run(_gated_run().config, 0, 10**6, _long_spec())


def test_load_sweep_errors_name_the_path(tmp_path):
    from numerics.memory_functions.bench.sweep import load_sweep

    bad = tmp_path / "bogus"
    bad.write_text("not json")
    for p, text in ((bad, "invalid JSON"), (tmp_path / "missing.json", "not found"), (tmp_path, "folder")):
        with pytest.raises(ValueError, match="path") as info:
            load_sweep(p)
        assert text in str(info.value)


def test_range_pairs_name_both_ends():
    from numerics.memory_functions.models.s4d import S4DKernel, S4DLayer

    for build in (lambda: S4DKernel(2, 4, dt_min=1e3, dt_max=0.1), lambda: S4DLayer(2, 4, dt_min=1e3, dt_max=0.1)):
        with pytest.raises(ValueError, match="dt_min=1000.0"):
            build()
    assert S4DKernel(2, 4, dt_min=0.1, dt_max=0.1) is not None          # a single dt is a range too


# ------------------------------------------------------------------------------------------ values and bounds
def test_diagnose_rates_normalises_integer_types():
    """np.uint8(0) as epoch used to be stored as given, so the diagnosis differed from epoch=0's."""
    d = _diagnose_rates(epoch=np.uint8(3), step=np.int64(5))
    assert type(d.epoch) is int and type(d.step) is int and (d.epoch, d.step) == (3, 5)


def test_second_order_bound_stays_exact_on_valid_input():
    from numerics.anticollapse.spectra import second_order_bound

    e = np.array([0.1, 0.2, 0.3])         # e1 e2 + e1 e3 + e2 e3 + e1 e2 e3 at alpha = 1
    assert second_order_bound(e) == pytest.approx(0.02 + 0.03 + 0.06 + 0.006, rel=1e-12)
    assert second_order_bound(np.zeros(3)) == 0.0


def test_author_label_text_takes_the_phase_labels():
    from numerics.anticollapse.spectra import author_label_text
    from theory.levy import PHASES

    assert [author_label_text(p) for p in PHASES] == [p if p != "unresolved" else
                                                      "anti-collapsed (unresolved beta)" for p in PHASES]
    with pytest.raises(ValueError, match="label"):
        author_label_text("bogus")


def test_calibrated_phase_threshold_may_be_infinite():
    """beta_hi_max = inf is the calibration's "threshold left free": the label then depends on the null test
    only (a finite threshold above every interval gives the same label)."""
    free, high = _calibrated(beta_hi_max=np.inf), _calibrated(beta_hi_max=1e6)
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
        measure_spectrum(_pareto(20), _long_spec(), n_seq=10**6)
    with pytest.raises(ValueError, match="beta_hi_max"):
        measure_spectrum(_pareto(20), _long_spec(), beta_hi_max=-np.inf)
    assert measure_spectrum(_pareto(20), _long_spec(), beta_hi_max=np.inf).beta_hi_max == np.inf


@pytest.mark.parametrize("build, name", [
    ("build_gated_rnn('diag', d_in=2, hidden=9500)", "hidden"), ("sinusoidal_encoding(10**8, 4)", "T"),
    ("S4DKernel(H=65075610, N=4, dt_min=1e-3, dt_max=0.1)", "H=65075610"), ("TemporalBlock(1, 11248, 2, 1)", "c_out"),
    ("Transformer(layers=1000)", "layers"),
    ("sinusoidal_encoding(8, 10**7)", "d"),
    ("jump_symbol(1.5, eta_J=0.05, alpha=1.5, lam=2.0, method='mp', dps=74896)", "dps"),
    ("Phi(1.5, eta_G=0.1, kappa=1.0, eta_J=0.05, alpha=1.5, lam=2.0, method='mp', dps=10**5)", "dps"),
])
def test_costly_sizes_have_a_maximum(build, name):
    from numerics.anticollapse.gated.gated_rnn import build_gated_rnn  # noqa: F401
    from numerics.memory_functions.models.s4d import S4DKernel  # noqa: F401
    from numerics.memory_functions.models.tcn import TemporalBlock  # noqa: F401
    from numerics.memory_functions.models.transformer import Transformer, sinusoidal_encoding  # noqa: F401
    from theory.levy import Phi, jump_symbol  # noqa: F401

    with pytest.raises(ValueError, match=name):
        eval(build)


def test_as_real_array_may_keep_nonfinite():
    from theory._args import as_real_array

    got = as_real_array("x", [1.0, np.nan, np.inf], finite=False)
    assert np.isnan(got[1]) and got[2] == np.inf
    with pytest.raises(ValueError, match="x must be finite"):
        as_real_array("x", [1.0, np.nan])
    with pytest.raises(TypeError, match="x"):
        as_real_array("x", "1.0", finite=False)


def test_delayed_task_draws_in_blocks_the_stream_of_one_draw():
    from numerics.anticollapse.gated.delayed_task import make_delayed_task

    task = make_delayed_task(n_lags=4, lag_min=2, lag_max=40, d_in=3, seed=1)
    x, y = task.sample(3000, 700, rng=np.random.default_rng(3))        # 6.3e6 entries: several blocks
    rng = np.random.default_rng(3)
    x0, noise = rng.standard_normal((3000, 700, 3)), rng.standard_normal((3000, 700))
    y0, proj = task.noise_std * noise, x0 @ task.u
    for lag, c in zip(task.lags, task.coeffs):
        y0[:, lag:] += c * proj[:, :700 - lag]
    assert np.array_equal(x, x0.astype(np.float32)) and np.array_equal(y[..., 0], y0.astype(np.float32))


def test_long_diagnostic_inputs_are_announced(capsys):
    from numerics.anticollapse.gated.long_horizon import diagnostic_inputs

    run = _gated_run()
    diagnostic_inputs(run.config, run.seed, 32, 16)
    assert "delayed-task sequences" not in capsys.readouterr().err
    n = (1 << 25) // (32 * run.task.d_in) + 1                         # just past the announcement threshold
    assert diagnostic_inputs(run.config, run.seed, 32, n).shape == (n, 32, run.task.d_in)
    assert "delayed-task sequences" in capsys.readouterr().err


def test_memory_probe_estimates_its_time_up_front(monkeypatch):
    """A recurrent probe steps through T sequentially: a long T that fits in memory can still run for hours;
    it is refused after a timing probe at a short T. The limit is lowered so that the test does not depend
    on this machine's speed (T = 2**24 estimated 200-1000 s here, depending on the load)."""
    from numerics.memory_functions.bench import probe
    from numerics.memory_functions.models.lstm import LSTM

    monkeypatch.setattr(probe, "MAX_PROBE_SECONDS", 1e-6)
    with pytest.raises(ValueError, match=r"T=4096 .* s \(timed"):
        probe.memory_probe(LSTM(3), T=4096, n=1)
    monkeypatch.setattr(probe, "_TIMED_ABOVE_T", 10**6)                  # below it: no timing, no limit
    assert probe.memory_probe(LSTM(3), T=4096, n=1).shape == (4096,)


def test_memory_probe_announces_a_long_probe(monkeypatch, capsys):
    from numerics.memory_functions.bench import probe
    from numerics.memory_functions.models.lstm import LSTM

    monkeypatch.setattr(probe, "_TIMED_ABOVE_T", 64)
    monkeypatch.setattr(probe, "_TIMING_T", 16)
    monkeypatch.setattr(probe, "_ANNOUNCE_SECONDS", 0.0)
    import torch
    torch.manual_seed(0)
    model = LSTM(3)
    got = probe.memory_probe(model, T=80, n=2)
    assert "memory_probe: T=80 will take about" in capsys.readouterr().err
    monkeypatch.setattr(probe, "_TIMED_ABOVE_T", 10**6)
    assert np.array_equal(got, probe.memory_probe(model, T=80, n=2))      # the timing run changes nothing
