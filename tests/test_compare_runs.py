"""benchmarks/memory_arch/compare_runs.py: runs retrained into a store against a committed export, bit for bit
(the real-runs form of the CI's reproducibility cell): equal runs pass, a last-bit change, a missing field and a
run the export lacks are each reported, the process fields (timings, host, numerical environment) are not."""

from __future__ import annotations

import math

import pytest

from numerics.experiments.store import ResultStore

import script_module

CONFIG = {"model": {"arch": "s4d"}, "train": {"seed": 5}}


def _result(relmse: float, **volatile) -> dict:
    return {"relmse": relmse, "curve_loss": [1.0, 0.5, relmse], "polish": {"f64_iters": 3, "seconds": 1.5},
            "half_relmse": math.nan, "seconds": 9.0, "cpu_seconds": 8.0, "host": "a", "pid": 1,
            "numeric_env": {"pinned": True, "cpu": "x"}, **volatile}


@pytest.fixture
def export(tmp_path):
    with ResultStore(tmp_path / "committed.sqlite") as s:
        s.put("run-a", CONFIG, _result(1e-4))
        s.put("run-b", CONFIG, _result(2e-4))
        s.export_runs(tmp_path / "committed.jsonl.gz")
    return tmp_path / "committed.jsonl.gz"


def _store(path, runs: dict):
    with ResultStore(path) as s:
        for rid, res in runs.items():
            s.put(rid, CONFIG, res)
    return path


def test_equal_runs_pass_whatever_their_process_fields(tmp_path, export, capsys):
    mod = script_module.load("benchmarks/memory_arch/compare_runs.py")
    store = _store(tmp_path / "fresh.sqlite", {
        "run-a": _result(1e-4, seconds=1.0, cpu_seconds=2.0, host="b", pid=9,
                         numeric_env={"pinned": True, "cpu": "y"}, polish={"f64_iters": 3, "seconds": 99.0}),
    })
    assert mod.compare(store, export) == ([], 1)
    assert mod.main([str(store), str(export)]) == 0
    assert "1 runs compared: bitwise equal" in capsys.readouterr().out


@pytest.mark.parametrize("fresh, needle", [
    ({"run-a": _result(1e-4 * (1 + 2.2e-16))}, "run-a: curve_loss.2"),          # the last bit of a number
    ({"run-b": {k: v for k, v in _result(2e-4).items() if k != "half_relmse"}}, "half_relmse: only in the record"),
    ({"run-c": _result(1e-4)}, "run-c: not in"),                                # a run the export lacks
])
def test_a_difference_is_reported(tmp_path, export, capsys, fresh, needle):
    mod = script_module.load("benchmarks/memory_arch/compare_runs.py")
    store = _store(tmp_path / "fresh.sqlite", fresh)
    diffs, _ = mod.compare(store, export)
    assert any(needle in d for d in diffs), diffs
    assert mod.main([str(store), str(export)]) == 1
    assert "differences" in capsys.readouterr().out
