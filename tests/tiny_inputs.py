"""Small valid inputs shared by the tests of several modules (Pareto samples, a calibrated phase, benchmark rows,
a sweep document, a tail fit, a long-diagnosis spec), the check that a bad argument's error names it, and a
runner for command lines in a subprocess. No PyTorch (the torch inputs: tests/tiny_torch.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def assert_named(call, exc, needle: str) -> None:
    """``call()`` raises ``exc`` whose message holds ``needle`` (the parameter it names)."""
    import pytest

    with pytest.raises(exc) as info:
        call()
    assert needle in str(info.value)


def cli(args, timeout=60):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=ROOT)
    return proc, time.perf_counter() - t0


def one_line(proc, *needles):
    err = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert len(err) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    for n in needles:
        assert n in err[0], (n, err[0])


def long_spec(**kw):
    from numerics.anticollapse.spectra import LongDiagnosisSpec

    return LongDiagnosisSpec(**{**dict(T=64, n_diag=4, diag_batch=2, window_stride=2, rate_lags=(4, 32, 4),
                                       envelope_lags=(2, 32, 8), n_boot=20), **kw})


def pareto(n=200, seed=1):
    return np.random.default_rng(seed).pareto(1.5, n) + 1.0


def calibrated(**kw):
    from numerics.anticollapse.calibrated_phase import calibrated_phase

    tau = pareto()
    halves = tau * np.exp(0.05 * np.random.default_rng(2).standard_normal((2, tau.size)))
    return calibrated_phase(**{**dict(tau=tau, tau_halves=halves, n_boot=20, n_sim=20), **kw})


def rows():
    return [{"model": "lstm", "kind": "exp", "alpha": 0.5, "relmse": 0.1, "seed": 0, "half_relmse": 0.2,
             "half_step": 1, "half_is_budget": True, "curve_steps": [0, 1], "curve_loss": [1.0, 0.1]}]


def sweep_doc():
    return {"name": "tiny", "defaults": {}, "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}},
                                                               "kinds": ["exp"], "alphas": [0.5], "seeds": [0]}}}


def tail():
    from numerics.anticollapse.estimators import tail_beta

    return tail_beta(pareto(400), n_boot=20)
