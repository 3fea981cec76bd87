"""numerics.anticollapse.gated.sweep: gated-RNN sweeps through the experiment engine. A small sweep on a Dask
LocalCluster with two worker processes stores exactly the results (and weights) of a serial run; a sweep killed
mid-way resumes without losing or redoing a run; the stored records give the checks' summaries."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from numerics.anticollapse.gated.sweep import (DIAGNOSES, gated_results, load_gated_sweep, run_gated_sweep,
                                               train_config)
from numerics.anticollapse.spectra import record_summary
from numerics.experiments.store import ResultStore
import tiny_inputs

ROOT = Path(__file__).resolve().parents[1]
# seconds, pids and hosts differ between two executions of the same run; everything else is the experiment
VOLATILE = ("seconds", "cpu_seconds", "pid", "host", "finished_at")
TINY = {
    "name": "tiny", "description": "a few seconds of training: the engine's tests",
    "defaults": {
        "task": {"T": 32, "d_in": 4, "n_lags": 4, "lag_range": [2, 16], "n_train": 32, "n_diag": 8},
        "model": {"hidden": 8, "init_s": 0.05},
        "train": {"batch": 8, "epochs": 2, "lr": 0.01, "checkpoint_every": 1},
        "diagnostics": {"rate_lags": [2, 12, 4], "envelope_lags": [2, 16, 8], "n_boot": 50, "diag_batch": 8}},
    "long_diagnosis": {"T": 64, "n_diag": 4, "diag_batch": 4, "window_stride": 2, "rate_lags": [4, 40, 4],
                       "envelope_lags": [2, 48, 8], "n_boot": 50},
    "runs": {"shared": {"model": {"arch": "shared"}}, "diag_forced": {"model": {"arch": "diag"},
                                                                       "train": {"forcing": 1.0}}},
    "seeds": [0, 1],
}


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY))
    return load_gated_sweep(path)


def _stable(store: ResultStore) -> dict:
    """``{run_id: (config, result without the volatile fields)}`` of every stored run."""
    out = {}
    for r in store.records():
        res = {k: v for k, v in r["result"].items() if k not in VOLATILE}
        out[r["run_id"]] = (r["config"], res)
    return out


def _weights(store: ResultStore) -> dict:
    out = {}
    for rid in store.done_ids():
        try:
            data = store.artifact(rid, "states")
        except KeyError:
            continue
        out[rid] = torch.load(io.BytesIO(data), weights_only=True)
    return out


def _same_states(a: list, b: list) -> bool:
    def eq(x, y):
        if isinstance(x, torch.Tensor):
            return isinstance(y, torch.Tensor) and torch.equal(x, y)
        if isinstance(x, dict):
            return x.keys() == y.keys() and all(eq(x[k], y[k]) for k in x)
        if isinstance(x, (list, tuple)):
            return len(x) == len(y) and all(eq(u, v) for u, v in zip(x, y))
        return x == y

    return eq(a, b)


def test_dask_local_cluster_stores_the_serial_results(tiny, tmp_path):
    from dask.distributed import Client, LocalCluster

    with ResultStore(tmp_path / "serial.sqlite") as st:
        s = run_gated_sweep(tiny, st, progress=False)
        assert (s["train"].ran, s["diagnosis"].ran) == (4, 4 * len(DIAGNOSES))
        serial, serial_w = _stable(st), _weights(st)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client, ResultStore(tmp_path / "dask.sqlite") as st:
        s = run_gated_sweep(tiny, st, executor=client.get_executor(), workers=2, progress=False)
        assert (s["train"].ran, s["diagnosis"].ran) == (4, 8)
        pids = {r["result"]["pid"] for r in st.records()}
        dask, dask_w = _stable(st), _weights(st)
    assert os.getpid() not in pids and len(pids) == 2          # both workers ran, none of it in this process
    assert dask == serial                                      # identical results, bitwise (JSON floats)
    assert dask_w.keys() == serial_w.keys() and all(_same_states(dask_w[k], serial_w[k]) for k in serial_w)


def test_records_and_summaries(tiny, tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as st:
        run_gated_sweep(tiny, st, progress=False)
        again = run_gated_sweep(tiny, st, progress=False)          # a rerun: everything is stored already
        assert (again["train"].skipped, again["train"].ran, again["diagnosis"].ran) == (4, 0, 0)
        rec = gated_results(tiny, st)
    assert list(rec) == [(run, s) for s in (0, 1) for run in ("shared", "diag_forced")]
    r = rec[("diag_forced", 1)]
    assert len(r["train"]["checkpoints"]) == 3 and len(r["long"]["checkpoints"]) == 3     # epochs 0, 1, 2
    assert len(r["train_author"]["checkpoints"]) == 1 and len(r["train"]["step_loss"]) == 8
    summ = record_summary(r["long"]["checkpoints"][-1])
    assert summ["lag_max"] == 48 and summ["n_units"] == 8 and summ["variant"] == "no_floor"
    assert record_summary(r["train_author"]["checkpoints"][-1])["variant"] == "author"
    assert r["train"]["forcing_stats"]["steps"] == 8 and rec[("shared", 0)]["train"]["forcing_stats"]["steps"] == 0


def test_a_sweep_without_long_diagnosis_stores_the_final_weights_only(tiny, tmp_path):
    import dataclasses

    short = dataclasses.replace(tiny, long=None).with_seeds([0])
    with ResultStore(tmp_path / "s.sqlite") as st:
        s = run_gated_sweep(short, st, progress=False)
        assert s["diagnosis"].total == 0 and s["train"].ran == 2
        states = _weights(st)
    assert all(len(v) == 1 and v[0]["epoch"] == 2 for v in states.values())
    assert train_config(tiny.configs["shared"], 0, "final") != train_config(tiny.configs["shared"], 0, "all")


def test_killed_sweep_resumes_without_loss_or_duplicates(tiny, tmp_path):
    doc = {**TINY, "defaults": {**TINY["defaults"], "train": {**TINY["defaults"]["train"], "epochs": 6}},
           "seeds": [0, 1, 2]}
    path, db = tmp_path / "sweep.json", tmp_path / "runs.sqlite"
    path.write_text(json.dumps(doc))
    code = ("import sys; from numerics.anticollapse.gated.sweep import load_gated_sweep, run_gated_sweep; "
            "from numerics.experiments.store import ResultStore; "
            "st = ResultStore(sys.argv[2]); print(run_gated_sweep(load_gated_sweep(sys.argv[1]), st, progress=False))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-c", code, str(path), str(db)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline, n = time.monotonic() + 120, 0
        while time.monotonic() < deadline and proc.poll() is None and n < 2:
            if db.exists():
                with sqlite3.connect(db, timeout=30) as con:
                    try:
                        n = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
                    except sqlite3.OperationalError:       # tables not created yet
                        n = 0
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    sweep = load_gated_sweep(path)
    with ResultStore(db) as st:
        before = {r["run_id"]: r["result"] for r in st.records()}
        assert 2 <= len(before) < 18, "the sweep must be killed mid-way"
        s = run_gated_sweep(sweep, st, progress=False)
        after = {r["run_id"]: r["result"] for r in st.records()}
        resumed = _stable(st)
    assert s["train"].skipped + s["train"].ran == s["train"].total == 6
    assert s["train"].skipped == sum(1 for r in before.values() if "step_loss" in r)
    assert len(after) == 18 and all(after[k] == v for k, v in before.items())     # kept as they were, not redone
    assert all(after[k]["pid"] == os.getpid() for k in set(after) - set(before))  # the rest ran now, once
    with ResultStore(tmp_path / "clean.sqlite") as st:
        run_gated_sweep(sweep, st, progress=False)
        assert _stable(st) == resumed                              # nothing lost or changed by the kill
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*) FROM artifacts").fetchone()[0] == 6


def test_bad_input(tiny, tmp_path):
    with pytest.raises(TypeError, match="sweep"):
        run_gated_sweep({"runs": {}}, ResultStore(":memory:"))
    with pytest.raises(ValueError, match="keep"):
        train_config(tiny.configs["shared"], 0, "some")
    with pytest.raises(ValueError, match="name_or_path"):
        load_gated_sweep("no_such_sweep")


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.anticollapse.gated import sweep as gated_sweep

    return [
        (lambda: gated_sweep.load_gated_sweep("bogus"), ValueError, "name_or_path"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny_inputs.assert_named(*_bad_calls()[i])
