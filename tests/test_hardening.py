"""Extreme parameters, bounded work, no traceback: the cases an independent fuzz of every room found.

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
    from numerics import ginibre, wick

    fn = {"wick_polynomial": lambda e: wick.wick_polynomial(3, executor=e),
          "count_pairings": lambda e: wick.count_pairings(3, executor=e),
          "estimate_Q": lambda e: ginibre.estimate_Q(3, 2, 16, seed=0, executor=e),
          "estimate_S": lambda e: ginibre.estimate_S(3, 2, 16, seed=0, executor=e)}[call]
    with pytest.raises(TypeError, match="executor"):
        fn(bad)


def test_executor_results_unchanged():
    from concurrent.futures import ThreadPoolExecutor

    from numerics import wick

    with ThreadPoolExecutor(2) as ex:
        assert wick.wick_polynomial(5, executor=ex) == wick.wick_polynomial(5)


# ------------------------------------------------------------------------------------------ paths
@pytest.mark.parametrize("bad", [0, 1, None, 3.5, b"sweep.json", ["a.json"]])
def test_load_sweep_takes_paths_only(bad):
    from numerics.memory_bench.sweep import load_sweep

    with pytest.raises(TypeError, match="path"):
        load_sweep(bad)
    os.fstat(0)                  # standard input is still open (load_sweep(0) used to read and close it)


@pytest.mark.parametrize("bad", [0, None, 2.0, b"s.sqlite"])
def test_store_takes_paths_only(bad):
    from numerics.memory_bench.store import ResultStore

    with pytest.raises(TypeError, match="path"):
        ResultStore(bad)


def test_store_accepts_pathlike(tmp_path):
    from numerics.memory_bench.store import ResultStore

    with ResultStore(tmp_path / "s.sqlite") as store:
        assert len(store) == 0


# ------------------------------------------------------------------------------------------ sizes
def test_memory_probe_estimates_memory_up_front():
    from numerics.memory_bench.probe import memory_probe
    from numerics.models.lstm import LSTM

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
    from numerics.models.gated_rnn import build_gated_rnn  # noqa: F401
    from numerics.models.lstm import LSTM  # noqa: F401
    from numerics.models.s4d import S4D  # noqa: F401
    from numerics.models.tcn import TCN  # noqa: F401
    from numerics.models.transformer import Transformer  # noqa: F401

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
    proc, _ = _cli(["-m", "theory", "energy", "--n", "1e1000", "--t", "5"])
    _one_line(proc, "n must be")


def test_rnn_timescales_cli_memory_estimate(tmp_path):
    import torch

    path = tmp_path / "gru.pt"
    torch.save(torch.nn.GRU(3, 8).state_dict(), path)
    proc, wall = _cli(["-m", "numerics.anticollapse.rnn_timescales", str(path), "--T", "65536", "--batch", "65536"])
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
    proc, _ = _cli(["-m", "numerics.memory_bench.sweep", "run", str(tiny_sweep), "--store",
                    str(tmp_path / "s.sqlite"), "--no-progress", *extra])
    _one_line(proc, needle)


def test_sweep_cli_export_to_a_full_disk(tiny_sweep, tmp_path):
    store = str(tmp_path / "s.sqlite")
    proc, _ = _cli(["-m", "numerics.memory_bench.sweep", "run", str(tiny_sweep), "--store", store, "--no-progress"])
    assert proc.returncode == 0, proc.stderr
    proc, _ = _cli(["-m", "numerics.memory_bench.sweep", "export", str(tiny_sweep), "--store", store,
                    "--csv", "/dev/full"])
    _one_line(proc, "/dev/full")


def test_sweep_cli_unreachable_dask_scheduler(tiny_sweep, tmp_path):
    proc, wall = _cli(["-m", "numerics.memory_bench.sweep", "run", str(tiny_sweep), "--store",
                       str(tmp_path / "s.sqlite"), "--dask", "127.0.0.1:1", "--no-progress"], timeout=120)
    _one_line(proc, "127.0.0.1:1")
    assert wall < 30
