"""Cross-machine reproducibility: the reproducibility cell (numerics.memory_functions.bench.repro), retrained under
the pins in a fresh worker process, equals its committed record bit for bit, and a process without the pins
records itself as unpinned or refuses to train.

The record (tests/data/repro_cell.json) was written on another machine (its CPU and library versions are in the
record); equal PyTorch, NumPy and SciPy versions are part of the claim, so a failure names them."""

import concurrent.futures as cf
import json
import math
from pathlib import Path

import pytest
import torch

from numerics._torch import numeric_environment
from numerics.experiments.pinning import UnpinnedError
from numerics.experiments.store import ResultStore
from numerics.memory_functions.bench.repro import GROUP, SWEEP, differences, reproducible_part, train_cell
from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep

RECORD = Path(__file__).parent / "data" / "repro_cell.json"


def _record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def test_the_record_is_the_cells_and_was_written_pinned():
    rec = _record()
    assert rec["sweep"] == SWEEP and rec["group"] == GROUP, "the cell changed: rewrite the record (repro_cell.py)"
    assert set(rec["runs"]) == {r.run_id for r in expand_sweep(SWEEP)}
    assert rec["written"]["numeric_env"]["pinned"] is True
    polished = [r["polish"] for r in rec["runs"].values()]
    assert all(p["f32_iters"] > 0 and p["f64_iters"] > 0 for p in polished)      # both precision stages ran


def test_a_pinned_retrain_reproduces_the_record_bit_for_bit(tmp_path):
    rec = _record()
    with ResultStore(tmp_path / "cell.sqlite") as store:
        fresh = train_cell(store)
    envs = [r["numeric_env"] for r in fresh.values()]
    assert all(e["pinned"] for e in envs), [e["problems"] for e in envs]
    diff = differences(rec["runs"], fresh)
    was, now = rec["written"]["numeric_env"], envs[0]
    assert not diff, (f"the cell differs from its record, written on {was['cpu']} with {was['versions']}; retrained "
                      f"on {now['cpu']} with {now['versions']}:\n" + "\n".join(diff[:30]))


def test_differences_finds_one_ulp_anywhere_and_missing_runs():
    rec = {"a": {"relmse": 0.5, "polish": {"curve": {"relmse": [1.0, 0.25, math.nan]}}}}
    fresh = {"a": {"relmse": 0.5, "pid": 3, "numeric_env": {"cpu": "x"},
                   "polish": {"curve": {"relmse": [1.0, 0.25, math.nan]}, "seconds": 9.0}}}
    assert differences(rec, fresh) == [] and "pid" not in reproducible_part(fresh["a"])
    fresh["a"]["polish"]["curve"]["relmse"][1] = math.nextafter(0.25, 1.0)
    assert differences(rec, fresh) == [f"a: polish.curve.relmse.1: 0.25 != {math.nextafter(0.25, 1.0)!r}"]
    assert differences(rec, {}) == ["a: not retrained"] and differences({}, fresh) == ["a: not in the record"]
    assert differences(rec, {"a": {"relmse": 0.5}}) == ["a: polish: only in the record"]


def test_an_unpinned_process_records_itself_as_such_and_refuses_to_train_pinned():
    """This test process was not started with the pins: its record says why, and pin=True refuses before it
    changes anything (oneDNN stays as it was)."""
    before = torch.backends.mkldnn.enabled
    env = numeric_environment(pin=False)
    assert env["pinned"] is False and any("MKL_CBWR" in p for p in env["problems"])
    assert env["versions"]["torch"] == torch.__version__
    with pytest.raises(UnpinnedError, match="MKL_CBWR"):
        numeric_environment(pin=True)
    assert torch.backends.mkldnn.enabled == before


def test_a_pinned_sweep_on_unpinned_workers_refuses_and_stores_nothing():
    runs = expand_sweep(SWEEP, studies=["lone"])[:1]
    with ResultStore(":memory:") as store, cf.ThreadPoolExecutor(1) as pool:
        with pytest.raises(UnpinnedError):
            run_sweep(runs, store, executor=pool, progress=False, pin=True)    # threads of this unpinned process
        assert len(store) == 0
        with pytest.raises(ValueError, match="one thread"):
            run_sweep(runs, store, threads=2, progress=False, pin=True)


def test_the_cli_asks_for_unpinned_before_other_threads(tmp_path, capsys):
    from seqtheory.cli.sweep import main

    path = tmp_path / "cell.json"
    path.write_text(json.dumps(SWEEP))
    assert main(["run", str(path), "--store", str(tmp_path / "s.sqlite"), "--threads", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--unpinned" in err[0], err


def test_differences_checks_max_fields():
    """benchmarks/fuzz.py: max_fields=0.0 crashed unnamed, True / None were accepted (2026-12-06)."""
    rec, fresh = {"a": {"x": [1.0, 2.0, 3.0]}}, {"a": {"x": [1.0, 2.5, 3.5]}}
    assert len(differences(rec, fresh, max_fields=1)) == 1 and len(differences(rec, fresh, max_fields=2)) == 2
    with pytest.raises(ValueError, match=r"^max_fields must be"):
        differences(rec, fresh, max_fields=0)
    for bad in (0.5, True, None):
        with pytest.raises(TypeError, match=r"^max_fields must be"):
            differences(rec, fresh, max_fields=bad)
