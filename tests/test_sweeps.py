"""Sweeps (numerics.memory_functions.bench.runs / store / sweep): content-addressed ids, config validation, the SQLite
store, resume after a kill, executors (process pool, Dask), the CLI, and the validation verdict logic."""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from numerics.memory_functions.bench.runs import RunConfig, execute_run, run_id
from numerics.experiments.store import ResultStore
from numerics.memory_functions.bench.aggregate import collect, median_by
from numerics.memory_functions.bench.sweep import SWEEPS, expand_sweep, run_sweep
from seqtheory.cli.sweep import main
import tiny_inputs as tiny

import script_module

ROOT = Path(__file__).resolve().parents[1]
TINY = {"model": {"arch": "lstm", "width": 2}, "target": {"kind": "exp", "alpha": 0.5, "T": 8, "n_seq": 8},
        "train": {"steps": 3, "batch": 4}}


def _sweep_doc(steps=3, seeds=(0, 1), kinds=("exp", "impulse")):
    return {"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16}, "train": {"steps": steps, "batch": 8}},
            "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}, "tcn": {"arch": "tcn", "channels": 2,
                                                                                       "levels": 2}},
                              "kinds": list(kinds), "alphas": [0.5], "seeds": list(seeds)},
                        "b": {"models": {"lstm": {"arch": "lstm", "width": 3}}, "kinds": ["exp"], "alphas": [0.5],
                              "seeds": [0]}}}


# ---------------------------------------------------------------------------------------------------- ids
def test_run_id_is_content_addressed():
    base = RunConfig.from_dict(TINY)
    explicit = {"model": {"width": 2, "arch": "lstm", "layers": 1},
                "target": {"T": 8, "kind": "exp", "alpha": 0.5, "n_seq": 8, "nonlinear": False, "data_seed": 0},
                "train": {"batch": 4, "steps": 3, "optimizer": "adam", "seed": 0}}
    assert RunConfig.from_dict(explicit).run_id == base.run_id          # defaults and key order do not matter
    as_int_alpha = json.loads(json.dumps(TINY).replace('"alpha": 0.5', '"alpha": 1'))
    one = {**TINY, "target": {**TINY["target"], "alpha": 1.0}}
    assert RunConfig.from_dict(as_int_alpha).run_id == RunConfig.from_dict(one).run_id
    assert RunConfig.from_dict({**TINY, "train": {**TINY["train"], "seed": 1}}).run_id != base.run_id
    assert len(base.run_id) == 16 and int(base.run_id, 16) >= 0
    assert run_id(base.to_dict()) == base.run_id
    # AdamW's default weight decay is resolved into the config, so the id sees it
    w = RunConfig.from_dict({**TINY, "train": {**TINY["train"], "optimizer": "adamw"}})
    assert w.train.weight_decay == 1e-2


@pytest.mark.parametrize("patch,exc,match", [
    ({"extra": 1}, ValueError, "unknown field"),
    ({"target": {"kind": "exp"}}, TypeError, "alpha"),
    ({"target": {"kind": "exp", "alpha": 1.5}}, ValueError, "target.alpha"),
    ({"target": {"kind": "sine", "alpha": 0.5}}, ValueError, "target.kind"),
    ({"target": {"kind": "mixed", "alpha": 0.5, "kind_a": "exp", "kind_b": "impulse"}}, TypeError, "target.lam"),
    ({"target": {"kind": "exp", "alpha": 0.5, "lam": 0.3}}, ValueError, "only for kind='mixed'"),
    ({"target": {"kind": "exp", "alpha": 0.5, "nonlinear": 1}}, TypeError, "target.nonlinear"),
    ({"target": {"kind": "exp", "alpha": 0.5, "T": 1}}, ValueError, "target.T"),
    ({"train": {"optimizer": "sgd"}}, ValueError, "train.optimizer"),
    ({"train": {"lr": 0}}, ValueError, "train.lr"),
    ({"train": {"steps": 10.0}}, TypeError, "train.steps"),
    ({"train": {"momentum": 0.9}}, ValueError, "momentum"),
    ({"model": {"arch": "lstm", "width": -1}}, ValueError, "width"),
])
def test_bad_run_configs_are_rejected_naming_the_field(patch, exc, match):
    with pytest.raises(exc, match=match):
        RunConfig.from_dict({**TINY, **patch})


def test_expand_sweep_grid_and_errors():
    runs = expand_sweep(_sweep_doc())
    assert len(runs) == 2 * 2 * 2 + 1
    assert {r.study for r in runs} == {"a", "b"}
    # study b's run is the same experiment as one of study a's: one id, run once
    assert len({r.run_id for r in runs}) == 8
    assert len(expand_sweep(_sweep_doc(), studies=["b"])) == 1
    doc = _sweep_doc()
    doc["studies"]["a"]["colour"] = "red"
    with pytest.raises(ValueError, match="colour"):
        expand_sweep(doc)
    with pytest.raises(ValueError, match="unknown study"):
        expand_sweep(_sweep_doc(), studies=["zzz"])
    doc = _sweep_doc()
    doc["studies"]["a"]["kinds"] = ["mixed"]
    with pytest.raises(ValueError, match="'mix'"):
        expand_sweep(doc)
    doc = _sweep_doc()
    doc["studies"]["a"]["models"]["tcn"]["levels"] = 0
    with pytest.raises(ValueError, match=r"studies\.a \(tcn, default\).*levels"):
        expand_sweep(doc)


def test_the_shipped_sweep_files_expand():
    for name in ("quick", "cpu", "full"):
        doc = json.loads((SWEEPS / f"{name}.json").read_text())
        runs = expand_sweep(doc)
        assert {"main", "composition", "prony"} <= {r.study for r in runs}


def test_the_T256_sweep_is_the_tcn_impulse_cells_with_the_fewest_levels_that_cover_T():
    """cpu_T256 (asked for because tcn_impulse_flat does not reproduce at T = 64): the cpu profile's TCN impulse
    cells, the same budgets, T = 256, and as many TCN levels as cover T (the cpu profile's rule: 6 at T = 64)."""
    from numerics.memory_functions.models.tcn import TCN

    cpu, t256 = (json.loads((SWEEPS / f"{n}.json").read_text()) for n in ("cpu", "cpu_T256"))
    runs = expand_sweep(t256)
    assert len(runs) == 9 and {(r.study, r.model, r.config.target.kind, r.config.target.T) for r in runs} == \
        {("main", "tcn", "impulse", 256)}
    assert {r.config.target.alpha for r in runs} == set(cpu["studies"]["main"]["alphas"])
    assert t256["defaults"]["train"] == cpu["defaults"]["train"] and t256["defaults"]["polish"] == cpu["defaults"]["polish"]
    for doc, T in ((cpu, 64), (t256, 256)):
        spec = doc["studies"]["main"]["models"]["tcn"]
        field = TCN(channels=spec["channels"], levels=spec["levels"], kernel_size=spec["kernel_size"]).receptive_field()
        fewer = TCN(channels=spec["channels"], levels=spec["levels"] - 1, kernel_size=spec["kernel_size"]).receptive_field()
        assert fewer < T <= field, (T, fewer, field)
    cpu_ids = {r.run_id for r in expand_sweep(cpu)}
    assert not cpu_ids & {r.run_id for r in runs}                     # new runs: they never mix in the cpu store


def test_cpu_results_writes_another_sweeps_report_beside_the_committed_one(tmp_path):
    """--sweep X without --out reports into docs/results/cpu-architectures-X, never over the cpu profile's
    committed report (whose answers the package ships)."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "memory_arch" / "cpu_results.py"), "--sweep",
                           "cpu_T256", "--plan-extension"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 2 and "no report at" in proc.stderr, proc.stderr[-2000:]
    assert str(ROOT / "docs" / "results" / "cpu-architectures-cpu_T256" / "results.json") in proc.stderr


def test_cpu_results_selects_cells_by_pattern():
    cpu_results = script_module.load("benchmarks/memory_arch/cpu_results.py")
    runs = expand_sweep(json.loads((SWEEPS / "cpu.json").read_text()), studies=["main"])
    one = cpu_results.select_cells(runs, ["lstm/exp/0.5"])
    assert len(one) == 3 and {(r.model, r.config.target.kind, r.config.target.alpha) for r in one} == {("lstm", "exp", 0.5)}
    s4d = cpu_results.select_cells(runs, ["s4d/*/0.5", "lstm/poly/0.25"])
    assert {r.model for r in s4d} == {"s4d", "lstm"} and len(s4d) == 4 * 3 + 3
    assert cpu_results.select_cells(runs, None) == runs and cpu_results.select_cells(runs, ["gru/*"]) == []


# ---------------------------------------------------------------------------------------------------- store


def test_median_by_counts_diverged_runs_as_infinite():
    rows = [{"m": "a", "relmse": 1.0}, {"m": "a", "relmse": 3.0}, {"m": "a", "relmse": None},
            {"m": "b", "relmse": 2.0}, {"m": "b", "relmse": 4.0}]
    assert median_by(rows, ("m",)) == {("a",): 3.0, ("b",): 3.0}


# ---------------------------------------------------------------------------------------------------- execution
def test_inline_sweep_resumes_and_is_deterministic(tmp_path):
    runs = expand_sweep(_sweep_doc())
    with ResultStore(tmp_path / "s.sqlite") as st:
        s1 = run_sweep(runs, st, progress=False, limit=3, pin=False)
        assert (s1.total, s1.skipped, s1.ran, len(st)) == (8, 0, 3, 3)
        s2 = run_sweep(runs, st, progress=False, pin=False)
        assert (s2.skipped, s2.ran, len(st)) == (3, 5, 8)
        rows = collect(runs, st)
        assert len(rows) == 9 and all(r["relmse"] > 0 for r in rows)
        r0 = rows[0]
        # the sweep trained r0 in a vmapped group: a lone rerun, or the same run in a group of other members
        # (the resumed sweep's groups differ), agrees up to float32 reassociation (tests/test_arch_verdicts.py)
        again = execute_run(r0["config"].to_dict())
        assert math.isclose(again["relmse"], r0["relmse"], rel_tol=1e-4)
        assert len(r0["probe"]) == 12 and r0["n_params"] > 0
    fresh = []
    for _ in range(2):                  # the same sweep from scratch twice: the same groups, bitwise results
        with ResultStore(":memory:") as st2:
            run_sweep(runs, st2, progress=False, pin=False)
            fresh.append([(r["relmse"], r["curve_loss"]) for r in collect(runs, st2)])
    assert fresh[0] == fresh[1]
    np.testing.assert_allclose([f[0] for f in fresh[0]], [r["relmse"] for r in rows], rtol=1e-4)


def test_process_pool_and_dask_executors_give_the_inline_results(tmp_path):
    """The engine's executors, unpinned (the pinned pool: tests/test_repro_cell.py)."""
    from dask.distributed import Client, LocalCluster

    runs = expand_sweep(_sweep_doc(seeds=(0,)))
    with ResultStore(":memory:") as ref:
        run_sweep(runs, ref, progress=False, pin=False)
        expect = {r["run_id"]: r["relmse"] for r in collect(runs, ref)}
    with ResultStore(tmp_path / "pool.sqlite") as st:
        run_sweep(runs, st, workers=2, progress=False, pin=False)
        assert {r["run_id"]: r["relmse"] for r in collect(runs, st)} == expect
    # one worker thread: torch's thread count is process-global (processes=False shares it between
    # workers), and bitwise equality with the inline runs needs it fixed
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client, ResultStore(tmp_path / "dask.sqlite") as st:
        s = run_sweep(runs, st, executor=client.get_executor(), progress=False, pin=False)
        assert s.ran == len(expect) == len(st)
        assert {r["run_id"]: r["relmse"] for r in collect(runs, st)} == expect


def test_killed_sweep_resumes_without_loss_or_duplicates(tmp_path):
    doc = _sweep_doc(steps=150, seeds=(0, 1, 2))
    sweep = tmp_path / "sweep.json"
    sweep.write_text(json.dumps(doc))
    db = tmp_path / "runs.sqlite"
    ids = {r.run_id for r in expand_sweep(doc)}
    cmd = [sys.executable, "-m", "seqtheory", "sweep", "run", str(sweep), "--store", str(db), "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        n = 0
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                with sqlite3.connect(db, timeout=30) as con:
                    try:
                        n = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
                    except sqlite3.OperationalError:       # table not created yet
                        n = 0
                if n >= 2:
                    break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    with ResultStore(db) as st:
        before = {r["run_id"]: r["result"] for r in st.records()}
    assert 2 <= len(before) < len(ids), "the sweep must be killed mid-way"
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    assert f"{len(ids)} runs: {len(before)} already stored, {len(ids) - len(before)} run now" in out
    with ResultStore(db) as st:
        after = {r["run_id"]: r["result"] for r in st.records()}
        assert set(after) == ids and len(st) == len(ids)
    for rid, res in before.items():                      # completed runs kept as they were, not redone
        assert after[rid] == res
    assert len({after[rid]["pid"] for rid in before}) == 1
    assert all(after[rid]["pid"] != after[next(iter(before))]["pid"] for rid in ids - set(before))
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # the CLI's other commands on the finished store
    figs = tmp_path / "figs"
    assert main(["plot", str(sweep), "--store", str(db), "--out", str(figs), "--allow-outside"]) == 0
    assert (figs / "a_relmse_vs_alpha.png").stat().st_size > 1000
    assert (figs / "a_heatmap.png").stat().st_size > 1000


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.memory_functions.bench import aggregate, plots, runs, sweep

    return [
        (lambda: aggregate.median_by(tiny.rows(), np.array(1.0)), TypeError, "keys"),
        (lambda: aggregate.convergence(tiny.rows(), np.array(1.0)), TypeError, "keys"),
        (lambda: plots.plot_polish(tiny.rows(), np.array(1.0)), TypeError, "keys"),
        (lambda: plots.plot_convergence(tiny.rows(), 253927, ("model", "kind", "alpha"), None), TypeError, "conv"),
        (lambda: runs.TargetSpec("exp", 0.5, T=12, lam=np.zeros((2, 2))), ValueError, "lam"),
        (lambda: runs.run_id(np.int64(-1)), TypeError, "config"),
        (lambda: runs.run_id({"a": np.array([1, 2])}), TypeError, "config"),
        (lambda: sweep.expand_sweep(tiny.sweep_doc(), studies=np.array([np.nan])), TypeError, "studies"),
        (lambda: plots.plot_heatmap(tiny.rows(), None, title=np.array([1, 2])), TypeError, "title"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


@pytest.mark.parametrize("bad", [0, 1, None, 3.5, b"sweep.json", ["a.json"]])
def test_load_sweep_takes_paths_only(bad):
    from numerics.memory_functions.bench.sweep import load_sweep

    with pytest.raises(TypeError, match="path"):
        load_sweep(bad)
    os.fstat(0)                  # standard input is still open (load_sweep(0) used to read and close it)


def test_run_sweep_progress_must_be_a_bool(tmp_path):
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep

    with ResultStore(tmp_path / "s.sqlite") as store, pytest.raises(TypeError, match="progress"):
        run_sweep(expand_sweep(tiny.sweep_doc()), store, progress=1)
    with ResultStore(tmp_path / "s.sqlite") as store:
        assert len(store) == 0              # refused before any run started


def test_load_sweep_errors_name_the_path(tmp_path):
    from numerics.memory_functions.bench.sweep import load_sweep

    bad = tmp_path / "bogus"
    bad.write_text("not json")
    for p, text in ((bad, "invalid JSON"), (tmp_path / "missing.json", "not found"), (tmp_path, "folder")):
        with pytest.raises(ValueError, match="path") as info:
            load_sweep(p)
        assert text in str(info.value)


def test_the_sweeps_are_package_data_read_by_name():
    """The configs the library reads live inside its packages (a wheel has them), found by importlib.resources."""
    import numerics.memory_functions.bench as bench
    from numerics.anticollapse.gated.sweep import SWEEP_DIR, load_gated_sweep
    from numerics.memory_functions.bench.sweep import load_sweep

    assert SWEEPS.parent == Path(bench.__file__).parent and SWEEP_DIR.parent.name == "gated"
    for name in ("quick", "cpu", "full"):
        assert load_sweep(name) == json.loads((SWEEPS / f"{name}.json").read_text())
    assert load_gated_sweep("quick").name == json.loads((SWEEP_DIR / "quick.json").read_text())["name"]
    assert not (ROOT / "benchmarks" / "memory_arch" / "quick.json").exists()          # one copy


def test_sweep_grid_raises_at_the_call():
    """sweep_grid was a generator: a bad document raised only when iterated (issue 43's fuzz saw a clean call)."""
    from numerics.memory_functions.bench.sweep import sweep_grid
    with pytest.raises(TypeError, match=r"studies\.a must be a dict"):
        sweep_grid({"studies": {"a": 3}})
    with pytest.raises(ValueError, match="unknown study name"):
        sweep_grid({"studies": {}}, studies=["x"])
    assert len(sweep_grid({"studies": {"a": {"models": {"m": {"arch": "lstm"}}, "kinds": ["exp"], "alphas": [0.5],
                                               "seeds": [0, 1]}}})) == 2
