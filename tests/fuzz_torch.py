"""Fuzz baselines of the torch subpackages (``numerics.memory_functions.models``, ``numerics.memory_functions.bench``,
``numerics.anticollapse``) and the command-line cases of every CLI, for ``tests/fuzz_harness.py``.

Sizes are tiny (a width of 3, two training steps) so that one baseline call takes well under a second;
paths point into the worker's scratch directory. Objects a function receives (models, traces, configs) are
kind ``object``: replacing them with a number or a string must give a TypeError/ValueError naming them.
"""

from __future__ import annotations

import json
import os

import numpy as np

# Result containers of the torch subpackages (returned, not called by users with fuzzable arguments)
TORCH_RESULT_TYPES = {
    "numerics.anticollapse.gated.gated_rnn.Trace", "numerics.memory_functions.bench.trainer.TrainResult",
    "numerics.memory_functions.bench.sweep.SweepRun",
    "numerics.anticollapse.gated.delayed_task.DelayedTask", "numerics.anticollapse.spectra.RateFit",
    "numerics.anticollapse.spectra.Envelope", "numerics.anticollapse.spectra.GatedDiagnostics",
    "numerics.anticollapse.envelope_gate.WindowGate", "numerics.anticollapse.envelope_gate.Resolution",
    "numerics.anticollapse.envelope_gate.CalibratedComparison", "numerics.anticollapse.gated.rnn_timescales.RNNWeights",
    "numerics.anticollapse.gated.rnn_timescales.RNNTimescales", "numerics.anticollapse.gated.sweep.GatedSweep",
    "numerics.anticollapse.gated.train.GatedRun", "numerics.experiments.store.StoreError",
    "numerics.anticollapse.calibrated_phase.CalibratedPhase", "numerics.memory_functions.bench.polish.PolishResult",
    "numerics.experiments.engine.RunOutput", "numerics.experiments.engine.SweepSummary",
}

OBJ = "object"
# result fields that differ between two identical training calls: the wall-clock time, the live optimiser
TIMED = ("seconds", "optimizer")
RUN_TIMES = ("seconds", "cpu_seconds", "finished_at")     # a run record's clock readings

# Functions whose baseline trains a network or renders a figure (about a second or more per call): the fuzz
# gives them a tenth of the examples of the others (the long run) or one (CI)
HEAVY = {
    "numerics.memory_functions.bench.grouped.train_group", "numerics.memory_functions.bench.runs.execute_run",
    "numerics.memory_functions.bench.runs.execute_group", "numerics.memory_functions.bench.sweep.run_sweep",
    "numerics.memory_functions.bench.trainer.train", "numerics.anticollapse.gated.train.train_gated",
    "numerics.anticollapse.gated.sweep.execute_train", "numerics.anticollapse.gated.sweep.execute_diagnosis",
    "numerics.anticollapse.gated.sweep.run_gated_sweep", "numerics.memory_functions.bench.plots.plot_alpha_curves",
    "numerics.anticollapse.figures.plot_spectra",
    "numerics.memory_functions.bench.plots.plot_heatmap", "numerics.memory_functions.bench.plots.plot_learning_curves",
    "numerics.memory_functions.bench.plots.plot_convergence", "numerics.memory_functions.bench.probe.memory_probe",
    "numerics.anticollapse.gated.rnn_timescales.rnn_timescales", "numerics.anticollapse.gated.diagnostics.diagnose",
    "numerics.anticollapse.gated.long_horizon.rediagnose_state", "numerics.anticollapse.gated.long_horizon.rediagnose_run",
    "numerics.memory_functions.bench.plots.plot_polish", "numerics.memory_functions.bench.polish.polish",
}


def _pin_state() -> dict:
    from numerics.experiments.pinning import PIN_ENV

    return {"machine": "x86_64", "device": "cpu", "initial_env": dict(PIN_ENV), "aten_capability": "AVX2",
            "mkldnn": False, "nnpack": False, "torch_threads": 1,
            "numpy": {"baseline": ["X86_V2"], "dispatch": ["X86_V3", "X86_V4"], "enabled": ["X86_V3"]}}


def _tmp(name: str) -> str:
    import tempfile

    d = os.path.join(tempfile.gettempdir(), f"seqtheory-fuzz-{os.getpid()}")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, name)


def _sweep_file() -> str:
    path = _tmp("sweep.json")
    with open(path, "w") as fh:
        json.dump({"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16}, "train": {"steps": 2, "batch": 8}},
                   "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}}, "kinds": ["exp"],
                                     "alphas": [0.5], "seeds": [0]}}}, fh)
    return path


def _run_config() -> dict:
    from numerics.memory_functions.bench.runs import RunConfig, TargetSpec
    from numerics.memory_functions.bench.trainer import TrainSpec

    return RunConfig(model={"arch": "lstm", "width": 3}, target=TargetSpec("exp", 0.5, T=12, n_seq=16),
                     train=TrainSpec(steps=2, batch=8)).to_dict()


def _rows() -> list[dict]:
    return [{"model": m, "kind": k, "alpha": a, "relmse": r, "steps": 2, "seed": s, "train_variant": "default",
             "half_relmse": 2 * r, "curve_steps": [0, 1], "curve_loss": [1.0, r]}
            for m, k, a, r, s in (("lstm", "exp", 0.5, 0.1, 0), ("lstm", "exp", 0.5, 0.2, 1),
                                  ("tcn", "poly", 0.25, 0.05, 0), ("tcn", "exp", 0.5, 0.3, 0))]


def _gated():
    import torch

    from numerics.anticollapse.gated.gated_rnn import build_gated_rnn

    torch.manual_seed(0)
    return build_gated_rnn("diag", d_in=2, hidden=4, d_out=1)


def _trace():
    import torch

    return _gated().run(torch.randn(2, 20, 2, generator=torch.Generator().manual_seed(0)), trace=True)[1]


def _leaks():
    from numerics.anticollapse.gated.diagnostics import leak_and_first_order

    return leak_and_first_order(_gated(), _trace())


def _rates_env():
    import torch

    from numerics.anticollapse.gated.diagnostics import rates_and_envelope

    x = torch.randn(2, 40, 2, generator=torch.Generator().manual_seed(1))
    return rates_and_envelope(_gated(), x, rate_lags=[4, 8, 12], envelope_lags=[2, 4, 6, 8, 10, 12, 14, 16])


def _tail():
    from numerics.anticollapse.estimators import tail_beta

    return tail_beta(np.random.default_rng(1).pareto(1.5, 400) + 1.0, n_boot=20)


def _gru_path() -> str:
    import torch

    path = _tmp("gru.pt")
    torch.manual_seed(0)
    torch.save(torch.nn.GRU(2, 4).state_dict(), path)
    return path


def _gated_config() -> dict:
    return {"task": {"T": 32, "d_in": 2, "n_lags": 2, "lag_range": [2, 8], "n_train": 16, "n_diag": 8},
            "model": {"arch": "diag", "hidden": 4}, "train": {"batch": 8, "epochs": 2, "checkpoint_every": 1},
            "diagnostics": {"rate_lags": [4, 12, 4], "envelope_lags": [2, 12, 6], "n_boot": 20, "diag_batch": 8}}


def torch_baselines(Case) -> dict:
    """The baseline calls of the torch subpackages (``Case`` is ``fuzz_harness.Case``)."""
    import torch

    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep
    from numerics.memory_functions.bench.trainer import TrainSpec
    from numerics.memory_functions.models.lstm import LSTM

    x64 = np.random.default_rng(0).standard_normal((16, 12))
    y64 = np.cumsum(x64, axis=1) * 0.1
    rates, env = _rates_env()
    leaks = _leaks()
    lags = np.arange(1.0, 40.0)
    store_path = _tmp("store.sqlite")
    sweep = _sweep_file()
    runs = expand_sweep(load_sweep(sweep))
    rgen = np.random.default_rng(0)
    ptau = np.random.default_rng(1).pareto(1.5, 200) + 1.0
    phalves = ptau * np.exp(0.05 * np.random.default_rng(2).standard_normal((2, ptau.size)))
    grun = _gated_run()
    out = {
        # numerics.memory_functions.models
        "numerics.memory_functions.models.compose.Sequential": Case(dict(stages=(LSTM(3, d_out=2), _tcn(d_in=2))),
                                                   kinds={"stages": OBJ}),
        "numerics.anticollapse.gated.gated_rnn.logit": Case(dict(p=0.3)),
        "numerics.anticollapse.gated.gated_rnn.GatedRNN": Case(dict(arch="diag", d_in=2, hidden=4, d_out=1, init_s=0.005,
                                                        init="orthogonal")),
        "numerics.anticollapse.gated.gated_rnn.ConstGate": Case(dict(d_in=2, hidden=4, d_out=1, init_s=0.005, init="orthogonal")),
        "numerics.anticollapse.gated.gated_rnn.SharedGate": Case(dict(d_in=2, hidden=4, d_out=1, init_s=0.005, init="orthogonal")),
        "numerics.anticollapse.gated.gated_rnn.DiagGate": Case(dict(d_in=2, hidden=4, d_out=1, init_s=0.005, init="orthogonal")),
        "numerics.anticollapse.gated.gated_rnn.build_gated_rnn": Case(dict(arch="diag", d_in=2, hidden=4, d_out=1, init_s=0.005,
                                                               init="orthogonal")),
        "numerics.memory_functions.models.lstm.LSTM": Case(dict(width=3, layers=1, d_in=1, d_out=1)),
        "numerics.memory_functions.models.s4d.dt_bounds": Case(dict(dt_range="task", seq_len=64), kinds={"seq_len": "int?"}),
        "numerics.memory_functions.models.s4d.S4DKernel": Case(dict(H=2, N=4, init="lin", dt_min=1e-3, dt_max=1e-1)),
        "numerics.memory_functions.models.s4d.fft_causal_conv": Case(dict(u=torch.ones(1, 2, 8), k=torch.ones(2, 8)),
                                                     kinds={"u": OBJ, "k": OBJ}),
        "numerics.memory_functions.models.s4d.S4DLayer": Case(dict(H=2, N=4, init="lin", dt_min=1e-3, dt_max=1e-1, linear=False,
                                                  skip=True)),
        "numerics.memory_functions.models.s4d.S4D": Case(dict(width=3, state=4, layers=1, init="lin", dt_range="task", dt_min=None,
                                             dt_max=None, linear=False, skip=True, seq_len=16, d_in=1, d_out=1),
                                        kinds={"dt_min": "real?", "dt_max": "real?", "seq_len": "int?"},
                                        names={"dt_min": ("dt_max",), "dt_max": ("dt_min",)}),
        "numerics.memory_functions.models.tcn.CausalConv1d": Case(dict(in_channels=1, out_channels=2, kernel_size=2, dilation=1),
                                                 kinds={"kernel_size": "size"}),
        "numerics.memory_functions.models.tcn.TemporalBlock": Case(dict(c_in=1, c_out=2, kernel_size=2, dilation=1)),
        "numerics.memory_functions.models.tcn.TCN": Case(dict(channels=3, levels=2, kernel_size=2, d_in=1, d_out=1)),
        "numerics.memory_functions.models.transformer.sinusoidal_encoding": Case(dict(T=8, d=4)),
        "numerics.memory_functions.models.transformer.Transformer": Case(dict(d_model=4, heads=2, layers=1, pos="sinusoidal",
                                                             max_len=32, ffn_mult=2, d_in=1, d_out=1),
                                                        names={"d_model": ("heads",), "heads": ("d_model",)}),
        # numerics.memory_functions.bench
        "numerics.memory_functions.bench.aggregate.collect": Case(dict(runs=runs, store=ResultStore(store_path)),
                                                        kinds={"runs": OBJ, "store": OBJ}),
        "numerics.memory_functions.bench.aggregate.median_by": Case(dict(rows=_rows(), keys=("model", "kind"), value="relmse"),
                                                          kinds={"rows": OBJ, "keys": OBJ, "value": "text"}),
        "numerics.memory_functions.bench.aggregate.convergence": Case(dict(rows=_rows(), keys=("model", "kind", "alpha")),
                                                            kinds={"rows": OBJ, "keys": OBJ}),
        # documented: +inf (a diverged RelMSE) stays +inf
        "numerics.memory_functions.bench.aggregate.log10_or_inf": Case(dict(v=0.5), kinds={"v": "realinf?"}, allow_inf=True),
        "numerics.memory_functions.bench.aggregate.kind_scores": Case(dict(rows=_rows(), label="model"),
                                                            kinds={"rows": OBJ, "label": "text"}, allow_inf=True),
        "numerics.memory_functions.bench.grouped.groupable": Case(dict(spec={"arch": "lstm", "width": 3}), kinds={"spec": OBJ}),
        "numerics.memory_functions.bench.grouped.train_group": Case(
            dict(models=[LSTM(3), LSTM(3)], data=[(x64, y64), (x64, y64)], specs=[TrainSpec(steps=2, batch=8)] * 2,
                 device="cpu"), kinds={"models": OBJ, "data": OBJ, "specs": OBJ}),
        "numerics.memory_functions.bench.plots.plot_alpha_curves": Case(dict(rows=_rows(), path=_tmp("a.png"), title=""),
                                                              kinds={"rows": OBJ, "path": "path", "title": "text"},
                                                              raises=(OSError,)),
        "numerics.memory_functions.bench.plots.plot_heatmap": Case(dict(rows=_rows(), path=_tmp("h.png"), title=""),
                                                         kinds={"rows": OBJ, "path": "path", "title": "text"},
                                                         raises=(OSError,)),
        "numerics.memory_functions.bench.plots.plot_learning_curves": Case(dict(rows=_rows(), path=_tmp("l.png"), title=""),
                                                                 kinds={"rows": OBJ, "path": "path", "title": "text"},
                                                                 raises=(OSError,)),
        "numerics.memory_functions.bench.plots.plot_convergence": Case(
            dict(rows=_rows(), conv={}, keys=("model", "kind", "alpha"), path=_tmp("c.png"), title=""),
            kinds={"rows": OBJ, "conv": OBJ, "keys": OBJ, "path": "path", "title": "text"}, raises=(OSError,)),
        "numerics.memory_functions.bench.probe.memory_probe": Case(dict(model=LSTM(3), T=16, method="jacobian", n=4, seed=0),
                                                         kinds={"model": OBJ}),
        "numerics.memory_functions.bench.runs.TargetSpec": Case(dict(kind="exp", alpha=0.5, T=12, nonlinear=False, n_seq=16,
                                                           data_seed=0, kind_a=None, kind_b=None, lam=None),
                                                      kinds={"kind_a": "text?", "kind_b": "text?", "lam": "real?"}),
        "numerics.memory_functions.bench.runs.RunConfig": Case(
            dict(model={"arch": "lstm", "width": 3}, target=_spec_target(), train=TrainSpec(steps=2, batch=8)),
            kinds={"model": OBJ, "target": OBJ, "train": OBJ}),
        "numerics.experiments.ids.canonical_json": Case(dict(obj={"a": 1}), kinds={"obj": "any"}),
        "numerics.experiments.ids.content_id": Case(dict(config={"a": 1}, schema=3), kinds={"schema": "any"}),
        "numerics.memory_functions.bench.runs.run_id": Case(dict(config=_run_config()), kinds={"config": OBJ}),
        "numerics.memory_functions.bench.runs.execute_run": Case(dict(config=_run_config(), threads=1, device="cpu"),
                                                       kinds={"config": OBJ, "device": "text"}, volatile=RUN_TIMES),
        "numerics.memory_functions.bench.runs.execute_group": Case(dict(configs=[_run_config()], threads=1, device="cpu"),
                                                         kinds={"configs": OBJ, "device": "text"}, volatile=RUN_TIMES),
        "numerics.memory_functions.bench.runs.group_key": Case(dict(cfg=runs[0].config), kinds={"cfg": OBJ}),
        # the pinned numerical environment: pools are created, never given work (no worker starts)
        "numerics.experiments.pinning.pinned_environ": Case(dict(base={"PATH": "/usr/bin"}), kinds={"base": "any"}),
        "numerics.experiments.pinning.initial_environ": Case(dict()),
        "numerics.experiments.pinning.numpy_simd": Case(dict()),
        "numerics.experiments.pinning.cpu_description": Case(dict(cpuinfo=None), kinds={"cpuinfo": "text?"}),
        "numerics.experiments.pinning.pin_problems": Case(dict(state=_pin_state()), kinds={"state": "any"}),
        "numerics.experiments.pinning.pinned_pool": Case(dict(workers=1), comparable=False),
        "numerics.experiments.pinning.spawn_pool": Case(dict(workers=1, context=None), kinds={"context": "object?"},
                                                        comparable=False),
        "numerics.memory_functions.bench.repro.reproducible_part": Case(
            dict(result={"relmse": 0.5, "seconds": 1.0, "curve": [1.0, 0.5]}), kinds={"result": "any"}),
        "numerics.memory_functions.bench.repro.differences": Case(
            dict(recorded={"a": {"x": [1.0, 2.0]}}, fresh={"a": {"x": [1.0, 2.5]}}, max_fields=10),
            kinds={"recorded": "any", "fresh": "any"}),
        "numerics.experiments.store.ResultStore": Case(dict(path=store_path, create=True, stale_after=86400.0),
                                                        kinds={"path": "path"}, comparable=False),
        "numerics.experiments.engine.pending_runs": Case(
            dict(runs=[("a" * 16, {"x": 1})], store=ResultStore(":memory:"), limit=None),
            kinds={"runs": OBJ, "store": OBJ, "limit": "int?"}),
        "numerics.experiments.engine.run_jobs": Case(
            dict(jobs=[[("b" * 16, {"x": 2})]], store=ResultStore(":memory:"), execute=_echo, total=1, skipped=0,
                 executor=None, workers=1, inputs=None, progress=False, stop_after=None, desc="sweep", postfix=None),
            kinds={"jobs": OBJ, "store": OBJ, "execute": "callable", "executor": "object?", "inputs": "callable?",
                   "stop_after": "real?", "desc": "text", "postfix": "callable?"}, volatile=("ran", "skipped")),
        "numerics.experiments.executors.make_executor": Case(dict(spec=None, workers=1), kinds={"spec": "text?"},
                                                             comparable=False),
        "numerics.memory_functions.bench.sweep.check_study_name": Case(dict(name="main", where="study name"),
                                                             kinds={"name": "text", "where": "text"}),
        "numerics.memory_functions.bench.sweep.load_sweep": Case(dict(path=sweep), kinds={"path": "path"}),
        "numerics.memory_functions.bench.sweep.expand_sweep": Case(dict(doc=load_sweep(sweep), studies=None),
                                                         kinds={"doc": OBJ, "studies": "any"}),
        "numerics.memory_functions.bench.sweep.sweep_grid": Case(dict(doc=load_sweep(sweep), studies=None),
                                                       kinds={"doc": OBJ, "studies": "any"}),
        "numerics.memory_functions.bench.sweep.run_sweep": Case(
            dict(runs=runs, store=ResultStore(_tmp("sweep.sqlite")), executor=None, workers=1, threads=1,
                 device="cpu", progress=False, limit=None, group=10, pin=False),
            kinds={"runs": OBJ, "store": OBJ, "executor": "object?", "device": "text", "limit": "int?"}),
        "numerics.memory_functions.bench.trainer.TrainSpec": Case(
            dict(optimizer="adam", lr=3e-3, steps=2, batch=8, weight_decay=None, schedule="cosine", clip=1.0, seed=0,
                 log_every=10, ssm_group=False), kinds={"weight_decay": "real?"}),
        "numerics.memory_functions.bench.trainer.lr_factor": Case(dict(spec=TrainSpec(steps=4), e=1), kinds={"spec": OBJ}),
        "numerics.memory_functions.bench.trainer.make_optimizer": Case(
            dict(named=list(LSTM(3).named_parameters()), spec=TrainSpec(steps=2)), kinds={"named": OBJ, "spec": OBJ}),
        "numerics.memory_functions.bench.trainer.train": Case(
            dict(model=LSTM(3), x=x64, y=y64, spec=TrainSpec(steps=2, batch=8), device="cpu", progress=False),
            kinds={"model": OBJ, "spec": OBJ, "device": "text"}, volatile=TIMED),
        "numerics.memory_functions.bench.zoo.normalize_model_spec": Case(dict(spec={"arch": "lstm", "width": 3}, where="model"),
                                                               kinds={"spec": OBJ, "where": "text"},
                                                               names={"spec": ("model",)}),   # named by where=
        "numerics.memory_functions.bench.zoo.build_model": Case(dict(spec={"arch": "lstm", "width": 3}, seq_len=None),
                                                      kinds={"spec": OBJ, "seq_len": "int?"}),
        "numerics.memory_functions.bench.zoo.describe": Case(dict(spec={"arch": "lstm", "width": 3}), kinds={"spec": OBJ}),
        # numerics.anticollapse
        "numerics.anticollapse.gated.delayed_task.scaled_lag_range": Case(dict(T=640, reference_T=1280, lag_range=(8, 640)),
                                                                    kinds={"lag_range": OBJ}),
        "numerics.anticollapse.gated.delayed_task.pareto_lag_probabilities": Case(dict(lag_min=2, lag_max=20, exponent=1.6)),
        "numerics.anticollapse.gated.delayed_task.pareto_lags": Case(dict(n_lags=3, lag_min=2, lag_max=20, exponent=1.6,
                                                                    rng=rgen), kinds={"rng": "seed"},
                                                               comparable=False),    # the Generator advances
        "numerics.anticollapse.gated.delayed_task.make_delayed_task": Case(
            dict(n_lags=3, lag_min=2, lag_max=20, lag_exponent=1.6, coeff_base=0.6, coeff_decay=0.85, d_in=2,
                 noise_std=0.3, seed=0, lag_seed=None), kinds={"lag_seed": "int?"}),
        "numerics.anticollapse.spectra.scaled_lag_grid": Case(dict(T=640, lo=4, hi=300, n=8, geometric=False,
                                                                       reference_T=1280)),
        "numerics.anticollapse.gated.diagnostics.leak_and_first_order": Case(dict(model=_gated(), trace=_trace()),
                                                                       kinds={"model": OBJ, "trace": OBJ}),
        "numerics.anticollapse.spectra.transport": Case(dict(a=leaks[0], r=leaks[1], lag=3),
                                                            kinds={"a": OBJ, "r": OBJ}),
        "numerics.anticollapse.gated.diagnostics.one_step_jacobian_remainders": Case(dict(model=_gated(), trace=_trace()),
                                                                               kinds={"model": OBJ, "trace": OBJ}),
        "numerics.anticollapse.spectra.second_order_bound": Case(dict(e=np.array([0.1, 0.2]), alpha=None),
                                                                     kinds={"alpha": "realarray?"}, allow_inf=True),
        "numerics.anticollapse.gated.diagnostics.optimizer_base_rate": Case(dict(model=_gated(), optimizer=None),
                                                                      kinds={"model": OBJ, "optimizer": "object?"}),
        "numerics.anticollapse.gated.diagnostics.rates_and_envelope": Case(
            dict(model=_gated(), x=torch.randn(2, 40, 2, generator=torch.Generator().manual_seed(1)),
                 rate_lags=[4, 8, 12], envelope_lags=[2, 4, 6], base_rate=None, envelope="mu0", batch=64,
                 window_stride=1),
            kinds={"model": OBJ, "x": OBJ, "rate_lags": "intarray", "envelope_lags": "intarray",
                   "base_rate": "realarray?"}),
        "numerics.anticollapse.spectra.rates_and_envelope_from_leaks": Case(
            dict(leaks=[leaks], T=20, hidden=4, rate_lags=[4, 8], envelope_lags=[2, 4], base_rate=None,
                 envelope="mu0", window_stride=1),
            kinds={"leaks": OBJ, "rate_lags": "intarray", "envelope_lags": "intarray", "base_rate": "realarray?"}),
        "numerics.anticollapse.spectra.mixture_envelope": Case(dict(lags=[1, 2, 4], tau=np.array([2.0, 5.0]),
                                                                        weights=None),
                                                                   kinds={"lags": "intarray", "weights": "realarray?"}),
        "numerics.anticollapse.gated.diagnostics.diagnose": Case(
            dict(model=_gated(), x=torch.randn(2, 40, 2, generator=torch.Generator().manual_seed(1)), optimizer=None,
                 rate_lags=[4, 8, 12], envelope_lags=[2, 4, 6, 8, 10, 12, 14, 16], envelope="mu0", n_boot=20, level=0.9,
                 window=(0.75, 0.995), seed=0, batch=64, window_stride=1, epoch=0, step=0),
            kinds={"model": OBJ, "x": OBJ, "optimizer": "object?", "rate_lags": "intarray",
                   "envelope_lags": "intarray", "window": OBJ}, allow_nan=True),
        "numerics.anticollapse.spectra.diagnose_rates": Case(
            dict(rates=rates, env=env, arch="diag", base_rate=np.ones(4), base_rate_method="uniform", n_boot=20,
                 level=0.9, window=(0.75, 0.995), seed=0, epoch=0, step=0),
            kinds={"rates": OBJ, "env": OBJ, "arch": "text", "base_rate_method": "text", "window": OBJ},
            allow_nan=True),
        "numerics.anticollapse.spectra.phase_trajectory": Case(dict(checkpoints=[]), kinds={"checkpoints": OBJ}),
        "numerics.anticollapse.envelope_gate.window_gate": Case(
            dict(lags=lags, f=lags ** -0.7, beta_min=0.1, min_points=8, min_fraction=0.05, runs_alpha=0.05),
            allow_nan=True),    # documented: ell_star is nan when no tempering is fitted
        "numerics.stats.runs_test_normal": Case(
            dict(residuals=np.sin(np.arange(1.0, 30.0) * 1.7)), allow_inf=True,
            allow_nan=True),    # documented: (nan, nan, nan) below 8 residuals or with one sign only
        "numerics.anticollapse.envelope_gate.resolution_check": Case(
            dict(tau=np.random.default_rng(1).pareto(1.5, 400) + 1.0, lags=lags, q_hi=0.995, min_tail=16),
            allow_nan=True),    # documented: an unresolved record says why (tau_hi nan without a tail)
        "numerics.anticollapse.envelope_gate.pareto_mixture_taus": Case(dict(beta=0.5, tau_min=1.0, tau_max=100.0, n=8)),
        "numerics.anticollapse.envelope_gate.tempered_beta": Case(dict(lags=lags, log_f=-0.7 * np.log(lags)),
                                                                  allow_inf=True),
        "numerics.anticollapse.envelope_gate.envelope_beta_bootstrap": Case(
            dict(unit_envelopes=np.exp(-np.outer(np.arange(1, 5), lags) / 50.0), lags=lags, n_boot=20, seed=0)),
        "numerics.anticollapse.envelope_gate.calibrated_taus": Case(
            dict(tau=np.random.default_rng(1).pareto(1.5, 400) + 1.0, beta=0.5, q_lo=0.75),
            allow_inf=True),    # documented: a Pareto quantile past float64 is +inf (a non-decaying unit)
        "numerics.anticollapse.envelope_gate.calibrated_comparison": Case(
            dict(measured_beta=0.5, measured_boot=np.full(20, 0.5) + np.linspace(-0.1, 0.1, 20), tail=_tail(),
                 tau=np.random.default_rng(1).pareto(1.5, 400) + 1.0, lags=lags, level=0.9), kinds={"tail": OBJ},
            allow_nan=True),
        "numerics.anticollapse.gated.rnn_timescales.weights_from_state_dict": Case(
            dict(sd=torch.nn.GRU(2, 4).state_dict(), prefix=""), kinds={"sd": OBJ, "prefix": "text"},
            names={"sd": ("state dict",)}),
        "numerics.anticollapse.gated.rnn_timescales.load_state_dict": Case(dict(path=_gru_path(), prefix=""),
                                                                     kinds={"path": "path", "prefix": "text"}),
        "numerics.anticollapse.gated.rnn_timescales.as_rnn": Case(dict(model=torch.nn.GRU(2, 4), prefix=""),
                                                            kinds={"model": OBJ, "prefix": "text"}),
        "numerics.anticollapse.gated.rnn_timescales.run_layer": Case(
            dict(w=_rnn_weights(), k=0, x=np.zeros((2, 20, 2))), kinds={"w": OBJ, "x": "realarray"},
            names={"x": ("inputs",)}),
        "numerics.anticollapse.gated.rnn_timescales.leak_traces": Case(
            dict(w=_rnn_weights(), x=np.zeros((2, 20, 2)), layer=0, batch=64), kinds={"w": OBJ, "x": "realarray"},
            names={"x": ("inputs",)}, comparable=False),      # a generator: no value to compare
        "numerics.anticollapse.gated.rnn_timescales.rnn_timescales": Case(
            dict(model=torch.nn.GRU(2, 4), x=np.random.default_rng(0).standard_normal((2, 64, 2)), layer=None,
                 prefix="", rate_lags=None, envelope_lags=None, envelope="mu0", n_boot=20, level=0.9, seed=0,
                 batch=64, window_stride=1),
            kinds={"model": OBJ, "layer": "int?", "prefix": "text", "rate_lags": "intarray?",
                   "envelope_lags": "intarray?"}, allow_nan=True),
        "numerics.anticollapse.gated.train.TaskSpec": Case(
            dict(T=32, d_in=2, n_lags=2, lag_range=(2, 8), lag_exponent=1.6, coeff_base=0.6, coeff_decay=0.85,
                 noise_std=0.3, lag_seed=1, n_train=16, n_diag=8), kinds={"lag_range": OBJ, "lag_seed": "int?"}),
        "numerics.anticollapse.gated.train.ModelSpec": Case(dict(arch="diag", hidden=4, init_s=0.005, init="orthogonal")),
        "numerics.anticollapse.gated.train.GatedTrainSpec": Case(
            dict(optimizer="adamw", lr=1e-3, weight_decay=1e-4, batch=8, epochs=2, clip=1.0, forcing=0.0,
                 forcing_alpha=1.5, forcing_clip=100.0, slow_fraction=0.1, checkpoint_every=1)),
        "numerics.anticollapse.gated.train.DiagnosticsSpec": Case(
            dict(rate_lags=(4, 12, 4), envelope_lags=(2, 12, 6), envelope_grid="linear", envelope="mu0", n_boot=20,
                 diag_batch=8, window_stride=1), kinds={"rate_lags": OBJ, "envelope_lags": OBJ}),
        "numerics.anticollapse.gated.train.GatedConfig": Case(dict(task=_task_spec(), diagnostics=_diag_spec()),
                                                        kinds={"task": OBJ, "diagnostics": OBJ}),
        "numerics.anticollapse.gated.sweep.load_gated_sweep": Case(dict(name_or_path="quick"),
                                                                  kinds={"name_or_path": "path"}),
        "numerics.anticollapse.gated.sweep.train_config": Case(dict(config=_gated_config(), seed=0, keep="final"),
                                                              kinds={"config": OBJ, "keep": "choice"}),
        "numerics.anticollapse.gated.sweep.diagnosis_configs": Case(dict(train=_train_cfg(), long=_long_spec()),
                                                                   kinds={"train": OBJ, "long": OBJ}),
        "numerics.anticollapse.gated.sweep.execute_train": Case(
            dict(configs=[_train_cfg()], inputs=None, threads=1, device="cpu"),
            kinds={"configs": OBJ, "inputs": "any", "device": "text"}, allow_nan=True, comparable=False),
        "numerics.anticollapse.gated.sweep.execute_diagnosis": Case(
            dict(configs=[_diag_cfg()], inputs=_diag_inputs(grun), threads=1),
            kinds={"configs": OBJ, "inputs": OBJ}, allow_nan=True, comparable=False),
        "numerics.anticollapse.gated.sweep.run_gated_sweep": Case(
            dict(sweep=_tiny_sweep(), store=ResultStore(_tmp("gated.sqlite")), executor=None, workers=1, threads=1,
                 device="cpu", progress=False, limit=None, stop_after=None),
            kinds={"sweep": OBJ, "store": OBJ, "executor": "object?", "device": "text", "limit": "int?",
                   "stop_after": "real?"}, comparable=False),
        "numerics.anticollapse.gated.sweep.gated_results": Case(dict(sweep=_tiny_sweep(), store=ResultStore(":memory:")),
                                                               kinds={"sweep": OBJ, "store": OBJ}),
        "numerics.anticollapse.gated.sweep.run_status": Case(dict(sweep=_tiny_sweep(), store=None),
                                                            kinds={"sweep": OBJ, "store": "object?"}),
        "numerics.anticollapse.gated.train.merge_sections": Case(
            dict(defaults={"model": {"hidden": 4}}, run={"model": {"arch": "shared"}}, where="runs.x"),
            kinds={"defaults": OBJ, "run": OBJ, "where": "text"}),
        "numerics.anticollapse.gated.rnn_timescales.working_bytes": Case(dict(B=2, T=32, d_in=3, H=4, batch=2)),
        "numerics.anticollapse.gated.rnn_timescales.first_order_warning": Case(
            dict(s={"first_order_size_median": 0.7, "tau_leak_median": 3.0}), kinds={"s": OBJ}),
        "numerics.anticollapse.gated.train.make_task": Case(dict(config=_gated_config(), seed=0), kinds={"config": OBJ}),
        "numerics.anticollapse.gated.train.seed_streams": Case(dict(seed=3), comparable=False),
        "numerics.anticollapse.gated.train.slow_units": Case(dict(tau=np.array([1.0, 5.0, 2.0]), n_slow=1),
                                                       allow_inf=True),
        "numerics.anticollapse.gated.train.apply_forcing": Case(
            dict(model=_gated(), before={k: v.detach().clone() for k, v in _gated().state_dict().items()},
                 rows=torch.arange(4), scale=0.1, alpha=1.5, clip=100.0, rng=np.random.default_rng(0)),
            kinds={"model": OBJ, "before": OBJ, "rows": OBJ, "rng": "seed"}),
        "numerics.anticollapse.gated.train.train_gated": Case(
            dict(config=_gated_config(), seed=0, progress=False, device="cpu", keep_states=False),
            kinds={"config": OBJ, "device": "text"}, allow_nan=True, volatile=TIMED),
        # numerics.memory_functions.models (new)
        "numerics.memory_functions.models.s4d.dt_limits": Case(dict(dt_range="task", seq_len=64, dt_min=None, dt_max=None),
                                              kinds={"seq_len": "int?", "dt_min": "real?", "dt_max": "real?"},
                                              names={"dt_min": ("dt_max",), "dt_max": ("dt_min",)}),
        # numerics.memory_functions.bench (new)
        "numerics.memory_functions.bench.plots.plot_polish": Case(
            dict(rows=_polish_rows(), keys=("model", "kind", "alpha"), path=_tmp("p.png"), title=""),
            kinds={"rows": OBJ, "keys": OBJ, "path": "path?", "title": "text"}, raises=(OSError,)),
        "numerics.memory_functions.bench.polish.PolishSpec": Case(
            dict(f32_iters=2, f64_iters=3, history=5, max_eval=4, window=2, rtol=0.01, gtol=1e-3, f32_window=2,
                 check_every=1, curve_every=1)),
        "numerics.memory_functions.bench.polish.certificate": Case(
            dict(relmse=[1e-3, 9e-4, 8.9e-4, 8.9e-4], grad=[1.0, 0.1, 1e-4, 1e-5], g0=1.0, window=2, rtol=0.01,
                 gtol=1e-3), kinds={"relmse": "realarray", "grad": "realarray", "gtol": "realinf"}, allow_inf=True),
        "numerics.memory_functions.bench.polish.polish": Case(
            dict(model=LSTM(3), x=x64, y=y64, spec=_polish_spec()), kinds={"model": OBJ, "spec": OBJ}),
        "numerics.memory_functions.bench.trainer.batch_denominator": Case(dict(y=y64, batch=8)),
        # numerics.anticollapse (new)
        "numerics.stats.kmeans_1d": Case(dict(x=np.array([0.0, 0.1, 5.0, 5.2, 9.0]), k=3)),
        "numerics.anticollapse.calibrated_phase.measurement_sigma": Case(
            dict(tau_halves=np.array([[2.0, 3.0, 40.0], [2.2, 2.9, 35.0]]))),
        "numerics.anticollapse.calibrated_phase.few_exponential_gof": Case(
            dict(tau=ptau[:40], sigma=0.05, k=5, n_sim=20, seed=0)),
        "numerics.anticollapse.calibrated_phase.calibrated_phase": Case(
            dict(tau=ptau, tau_halves=phalves, beta_hi_max=3.87509, p_null=0.05, n_boot=20, n_sim=20, seed=0,
                 level=0.9, envelope_agree=None, tail=None),
            kinds={"envelope_agree": "bool?", "tail": "object?", "beta_hi_max": "realinf"}, allow_nan=True),
        "numerics.anticollapse.calibrated_phase.calibrated_from_rates": Case(dict(rates=rates, comparison=None),
                                                                            kinds={"rates": OBJ,
                                                                                   "comparison": "object?"},
                                                                            allow_nan=True),
        "numerics.anticollapse.spectra.diagnosis_record": Case(dict(d=grun.checkpoints[-1]), kinds={"d": OBJ},
                                                                allow_nan=True, allow_inf=True),
        "numerics.anticollapse.spectra.record_summary": Case(dict(record=_record(grun)), kinds={"record": OBJ},
                                                              allow_nan=True, allow_inf=True),
        "numerics.anticollapse.figures.plot_spectra": Case(dict(path=_tmp("spectra.png"), finals={"a": _record(grun)},
                                                                ax=None),
                                                           kinds={"path": "path?", "finals": OBJ, "ax": "object?"},
                                                           raises=(OSError,), comparable=False),
        "numerics.anticollapse.spectra.author_label_text": Case(dict(label="unresolved"), kinds={"label": "text"}),
        "numerics.anticollapse.spectra.LongDiagnosisSpec": Case(dict(**LONG), kinds=LONG_KINDS),
        "numerics.anticollapse.spectra.long_spec": Case(dict(d=dict(LONG)), kinds={"d": OBJ},
                                                             ),
        "numerics.anticollapse.gated.long_horizon.diagnostic_inputs": Case(dict(config=grun.config, seed=0, T=32, n=2),
                                                                           kinds={"config": OBJ},
                                                                           names={"n": ("n_seq",)}),
        "numerics.anticollapse.gated.long_horizon.training_spec": Case(dict(config=grun.config), kinds={"config": OBJ}),
        "numerics.anticollapse.gated.long_horizon.model_from_state": Case(dict(config=grun.config, state=grun.states[-1]),
                                                                    kinds={"config": OBJ, "state": OBJ}),
        "numerics.anticollapse.gated.long_horizon.rediagnose_state": Case(
            dict(config=grun.config, seed=0, state=grun.states[-1], spec=_long_spec(), x=None, variant="no_floor"),
            kinds={"config": OBJ, "state": OBJ, "spec": OBJ, "x": "object?"}, allow_nan=True),
        "numerics.anticollapse.gated.long_horizon.rediagnose_run": Case(
            dict(config=grun.config, seed=0, states=grun.states[-1:], spec=_long_spec(), variant="no_floor"),
            kinds={"config": OBJ, "states": OBJ, "spec": OBJ}, allow_nan=True),
        "numerics.anticollapse.synthetic_spectra.pareto_taus": Case(dict(beta=0.8, n=20, tau_min=2.0, rng=rgen),
                                                                   kinds={"rng": OBJ}, comparable=False),
        "numerics.anticollapse.synthetic_spectra.few_exponential_taus": Case(
            dict(k=3, n=12, span=100.0, tau_min=2.0, rng=rgen), kinds={"rng": OBJ}, comparable=False,
            names={"k": ("n",)}),     # n >= k: a k above n is named by n's check
        "numerics.anticollapse.synthetic_spectra.synthetic_leaks": Case(
            dict(tau=ptau[:8], n_seq=2, T=16, gate_noise=0.3, rng=rgen, batch=2), kinds={"rng": OBJ},
            comparable=False),      # a generator: no value to compare
        "numerics.anticollapse.synthetic_spectra.measure_spectrum": Case(
            dict(tau=ptau[:20], spec=_long_spec(), gate_noise=0.3, n_seq=4, seed=0, beta_hi_max=None),
            kinds={"spec": OBJ, "beta_hi_max": "realinf?"}, allow_nan=True),
    }
    return out


LONG = dict(T=64, n_diag=4, diag_batch=2, window_stride=2, rate_lags=(4, 32, 4), envelope_lags=(2, 32, 8), n_boot=20)
LONG_KINDS = {"rate_lags": OBJ, "envelope_lags": OBJ}


def _long_spec():
    from numerics.anticollapse.spectra import LongDiagnosisSpec

    return LongDiagnosisSpec(**LONG)


_RUN: list = []


def _gated_run():
    """A tiny trained run with its checkpoint states (two epochs; built once per process)."""
    if not _RUN:
        from numerics.anticollapse.gated.train import train_gated

        _RUN.append(train_gated(_gated_config(), seed=0, keep_states=True))
    return _RUN[0]


def _echo(configs: list, inputs=None) -> list:
    """An engine job that returns its configs as results (the fuzz of ``run_jobs``)."""
    return [dict(c) for c in configs]


def _train_cfg() -> dict:
    from numerics.anticollapse.gated.sweep import train_config

    return train_config(_gated_config(), 0, "all")


def _diag_cfg() -> dict:
    from numerics.anticollapse.gated.sweep import diagnosis_configs

    return diagnosis_configs(_train_cfg(), _long_spec())["long"]


def _diag_inputs(run) -> dict:
    import io

    import torch

    buf = io.BytesIO()
    torch.save(run.states[-1:], buf)
    return {"train": _train_cfg(), "states": buf.getvalue()}


def _tiny_sweep():
    from numerics.anticollapse.gated.sweep import GatedSweep
    from numerics.anticollapse.gated.train import GatedConfig

    return GatedSweep("tiny", "", {"diag": GatedConfig.from_dict(_gated_config())}, (0,), None)


def _record(run) -> dict:
    from numerics.anticollapse.spectra import diagnosis_record

    return diagnosis_record(run.checkpoints[-1])


def _polish_spec():
    from numerics.memory_functions.bench.polish import PolishSpec

    return PolishSpec(f32_iters=2, f64_iters=3, history=5, max_eval=4, window=2, f32_window=2, check_every=1)


def _polish_rows() -> list[dict]:
    curve = {"stage": ["f32", "f32", "f64", "f64"], "iter": [0, 1, 0, 1], "relmse": [0.2, 0.1, 0.1, 0.09],
             "grad": [1.0, 0.5, 0.5, 0.1]}
    return [dict(r, floor=0.09 * (1 + r["seed"]), certified=r["seed"] == 0, cert_change=0.001, grad_ratio=1e-4,
                 polish_curve=curve) for r in _rows()]


def _spec_target():
    from numerics.memory_functions.bench.runs import TargetSpec

    return TargetSpec("exp", 0.5, T=12, n_seq=16)


def _tcn(**kw):
    from numerics.memory_functions.models.tcn import TCN

    return TCN(channels=2, levels=1, **kw)


def _diag_spec():
    from numerics.anticollapse.gated.train import DiagnosticsSpec

    return DiagnosticsSpec(rate_lags=(4, 12, 4), envelope_lags=(2, 12, 6), n_boot=20, diag_batch=8)


def _task_spec():
    from numerics.anticollapse.gated.train import TaskSpec

    return TaskSpec(T=32, d_in=2, n_lags=2, lag_range=(2, 8), n_train=16, n_diag=8)


def _rnn_weights():
    import torch

    from numerics.anticollapse.gated.rnn_timescales import weights_from_state_dict

    torch.manual_seed(0)
    return weights_from_state_dict(torch.nn.GRU(2, 4).state_dict())


# ------------------------------------------------------------------------------------------------------
# command lines: (name, argv) run as ``python -m seqtheory ...``; each must exit 0, or 2 with one line on stderr
# naming the problem, without a traceback, within CLI_TIMEOUT_S seconds
# ------------------------------------------------------------------------------------------------------
CLI_TIMEOUT_S = 30.0
CLI_MODULES = ("seqtheory.cli.energy", "seqtheory.cli.validate", "seqtheory.cli.sweep", "seqtheory.cli.timescales",
               "seqtheory.cli.horizon", "seqtheory.cli.memory_report")


def cli_cases(tmp: str) -> list[tuple[str, list[str]]]:
    """The command-line cases, with files written under ``tmp`` (bad values of every option)."""
    sweep = os.path.join(tmp, "sweep.json")
    with open(sweep, "w") as fh:
        json.dump({"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16}, "train": {"steps": 2, "batch": 8}},
                   "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}}, "kinds": ["exp"],
                                     "alphas": [0.5], "seeds": [0]}}}, fh)
    store = os.path.join(tmp, "s.sqlite")
    junk = os.path.join(tmp, "junk.bin")
    with open(junk, "wb") as fh:
        fh.write(os.urandom(256))
    gru = os.path.join(tmp, "gru.pt")
    import torch

    torch.save(torch.nn.GRU(2, 4).state_dict(), gru)
    th = ["-m", "seqtheory", "energy"]
    sw = ["-m", "seqtheory", "sweep"]
    rt = ["-m", "seqtheory", "timescales"]
    cases = []
    for n, t in (("1e1000", "5"), ("5", "1e1000"), ("0", "3"), ("-1", "3"), ("1.5", "3"), ("nan", "3"),
                 ("inf", "3"), ("10**400", "2"), ("64", "10**12"), ("2**64", "7"), ("1e18", "1e9"), ("4", "")):
        cases.append((f"energy --n {n} --t {t}", th + ["--n", n, "--t", t]))
    for extra in (["--dps", "0"], ["--dps", "10**9"], ["--method", "bogus"], ["--method", "exact", "--dps", "30"],
                  ["--method", "ball", "--dps", "50"], ["--json"]):
        cases.append((f"energy --n 64 --t 8 {' '.join(extra)}", th + ["--n", "64", "--t", "8", *extra]))
    cases.append(("seqtheory (no command)", ["-m", "seqtheory"]))
    cases.append(("seqtheory bogus", ["-m", "seqtheory", "bogus"]))
    for sub in ("status", "export", "plot"):
        cases.append((f"sweep {sub} missing store", sw + [sub, sweep, "--store", os.path.join(tmp, "none", "s.sqlite")]
                      + (["--csv", "-"] if sub == "export" else [])))
    for bad in (junk, os.path.join(tmp, "missing.json"), tmp, "/dev/null"):
        cases.append((f"sweep run {os.path.basename(bad)}", sw + ["run", bad, "--store", store, "--no-progress"]))
    for extra in (["--device", "bogus"], ["--device", "cuda:99"], ["--workers", "0"], ["--workers", "10**9"],
                  ["--threads", "-1"], ["--limit", "x"], ["--dask", "127.0.0.1:1"], ["--study", "nope"]):
        cases.append((f"sweep run {' '.join(extra)}", sw + ["run", sweep, "--store", store, "--no-progress", *extra]))
    cases.append(("sweep run junk store", sw + ["run", sweep, "--store", junk, "--no-progress"]))
    cases.append(("sweep export --csv /dev/full", sw + ["export", sweep, "--store", store, "--csv", "/dev/full"]))
    cases.append(("sweep export --csv folder", sw + ["export", sweep, "--store", store, "--csv", tmp]))
    for extra in (["--T", "65536", "--batch", "65536"], ["--T", "8"], ["--batch", "0"], ["--T", "1e9"],
                  ["--n-boot", "10**30"], ["--n-boot", "0"], ["--level", "nan"], ["--level", "2"], ["--layer", "5"],
                  ["--rate-lags", "1", "0", "3"], ["--window-stride", "0"], ["--seed", "-1"], ["--prefix", "x."]):
        cases.append((f"timescales {' '.join(extra)}", rt + [gru, *extra]))
    for bad in (junk, os.path.join(tmp, "missing.pt"), tmp):
        cases.append((f"timescales {os.path.basename(bad)}", rt + [bad]))
    cases.append(("timescales --inputs junk", rt + [gru, "--inputs", junk]))
    for extra in (["--bogus"], ["--only", "nope.nope"]):
        cases.append((f"validation {' '.join(extra)}", ["-m", "validation", *extra]))
    return cases


def run_cli_case(argv: list[str], root: str, timeout: float = CLI_TIMEOUT_S) -> tuple[str, str]:
    """(outcome, detail) of one command line: clean (exit 0, or exit 2 with one stderr line and no
    traceback), crash (a traceback or another exit status), hang (no exit within ``timeout``)."""
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), MPLBACKEND="Agg")
    try:
        proc = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=root, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "hang", f"no exit within {timeout} s"
    # argparse's own usage errors print the usage block before their one error line: the block is not counted
    err = [ln for ln in proc.stderr.strip().splitlines() if ln.strip() and not ln.startswith(("usage:", " "))]
    if "Traceback" in proc.stderr:
        return "crash", f"traceback: {err[-1] if err else ''}"
    if proc.returncode == 0:
        return "clean", "exit 0"
    if proc.returncode == 2 and len(err) == 1:
        return "clean", err[0][:200]
    return "crash", f"exit {proc.returncode}, {len(err)} stderr lines: {' | '.join(err[-3:])[:300]}"
