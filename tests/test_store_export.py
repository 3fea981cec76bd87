"""Export and import of stored runs (numerics.experiments.store): the committed form of a long profile's
finished parts, from which the next part resumes on another machine."""

from __future__ import annotations

import gzip
import json

import pytest

from numerics.memory_functions.bench.runs import SCHEMA, RunConfig
from numerics.experiments.store import ResultStore, StoreError

import script_module


def _configs(n: int) -> list[RunConfig]:
    base = {"model": {"arch": "lstm", "width": 2}, "target": {"kind": "exp", "alpha": 0.5, "T": 8, "n_seq": 8},
            "train": {"steps": 3, "batch": 4}}
    return [RunConfig.from_dict({**base, "train": {**base["train"], "seed": s}}) for s in range(n)]


def _filled(path, n=3) -> list[RunConfig]:
    cfgs = _configs(n)
    with ResultStore(path) as st:
        for i, c in enumerate(cfgs):
            st.put(c.run_id, c.to_dict(), {"relmse": 10.0 ** -i, "curve": [1.0, 0.5]})
    return cfgs


def _cpu_results():
    """The benchmark script ``benchmarks/memory_arch/cpu_results.py`` as a module (it is not a package)."""
    return script_module.load("benchmarks/memory_arch/cpu_results.py")


def test_export_import_round_trip(tmp_path):
    cfgs = _filled(tmp_path / "a.sqlite")
    with ResultStore(tmp_path / "a.sqlite") as st:
        assert st.export_runs(tmp_path / "runs.jsonl.gz") == 3
        assert st.export_runs(tmp_path / "two.jsonl.gz", [cfgs[0].run_id, cfgs[2].run_id]) == 2
        want = {r["run_id"]: r for r in st.records()}
    with ResultStore(tmp_path / "b.sqlite") as st:
        assert st.import_runs(tmp_path / "two.jsonl.gz", (SCHEMA,)) == (2, 0)
        assert st.import_runs(tmp_path / "runs.jsonl.gz", (SCHEMA,)) == (1, 2)      # resumes: only the missing run added
        assert st.import_runs(tmp_path / "runs.jsonl.gz", (SCHEMA,)) == (0, 3)
        got = {r["run_id"]: r for r in st.records()}
    assert got == want


def test_export_is_byte_stable(tmp_path):
    _filled(tmp_path / "a.sqlite")
    with ResultStore(tmp_path / "a.sqlite") as st:
        st.export_runs(tmp_path / "one.jsonl.gz")
        st.export_runs(tmp_path / "two.jsonl.gz")
    assert (tmp_path / "one.jsonl.gz").read_bytes() == (tmp_path / "two.jsonl.gz").read_bytes()


def _write(path, records) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")


def test_import_refuses_a_tampered_or_foreign_file(tmp_path):
    c = _configs(1)[0]
    good = {"run_id": c.run_id, "config": c.to_dict(), "result": {"relmse": 1.0}, "finished": 0.0}
    _write(tmp_path / "bad_id.jsonl.gz", [good, {**good, "run_id": "0" * 16}])
    _write(tmp_path / "bad_keys.jsonl.gz", [{"run_id": c.run_id}])
    (tmp_path / "plain.txt").write_text("not gzip")
    with ResultStore(tmp_path / "s.sqlite") as st:
        with pytest.raises(StoreError, match="line 2.*content address"):
            st.import_runs(tmp_path / "bad_id.jsonl.gz", (SCHEMA,))
        with pytest.raises(StoreError, match="line 1.*not a run record"):
            st.import_runs(tmp_path / "bad_keys.jsonl.gz", (SCHEMA,))
        with pytest.raises(StoreError, match="plain.txt"):
            st.import_runs(tmp_path / "plain.txt", (SCHEMA,))
        with pytest.raises(StoreError, match="does not exist"):
            st.import_runs(tmp_path / "missing.jsonl.gz", (SCHEMA,))
        with pytest.raises(StoreError, match="folder"):
            st.export_runs(tmp_path / "no" / "where.jsonl.gz")
        assert len(st) == 0                                  # nothing of a bad file is stored


def test_cpu_results_exports_the_part_it_selects_and_imports_it(tmp_path, capsys):
    import argparse

    cpu_results = _cpu_results()
    a = argparse.Namespace(sweep="cpu", study=None, part="1", cell=["lstm/exp/0.5"], import_runs=None,
                           export=str(tmp_path / "part.jsonl.gz"))
    mine = cpu_results.selected_runs(a)
    other = cpu_results.part_runs("cpu", "3")
    assert len(mine) == 3 and not {r.run_id for r in mine} & {r.run_id for r in other}
    with ResultStore(tmp_path / "a.sqlite") as st:
        for r in (*mine, other[0]):
            st.put(r.run_id, r.config.to_dict(), {"relmse": 0.5})
    cpu_results.exchange(a, tmp_path / "a.sqlite", "after")
    b = argparse.Namespace(import_runs=[a.export], export=None)
    cpu_results.exchange(b, tmp_path / "b.sqlite", "before")
    assert "3 runs added" in capsys.readouterr().out
    with ResultStore(tmp_path / "b.sqlite") as st:
        assert st.done_ids() == {r.run_id for r in mine}           # the part's runs, not the other part's


def test_plan_extension_plans_each_claim_once_as_its_answer_comes_in(tmp_path, monkeypatch, capsys):
    """The rule's 5-seed step per claim: a claim lacking power at 3 seeds is added when its runs are complete
    (it has cells); an unfinished claim waits; a planned claim is never replanned."""
    import argparse

    from validation.checks import architectures as arch

    cpu_results = _cpu_results()
    plan_path = tmp_path / "cpu_extension.json"
    monkeypatch.setattr(arch, "extension_path", lambda sweep: plan_path)
    monkeypatch.setattr(cpu_results, "ROOT", tmp_path)
    cell = [["optimizer", "tcn", "adam", "sparse", 0.5, None]]

    def report(results, commit):
        out = tmp_path / commit
        out.mkdir()
        (out / "results.json").write_text(json.dumps({"provenance": {"commit": commit, "date": "d"},
                                                      "results": results}))
        return argparse.Namespace(sweep="cpu", out=str(out))

    weak = {"name": "architectures.a", "verdict": "inconclusive", "summary": "lacks power",
            "data": {"lacks_power": True, "cells": cell, "budgets": {"adam": {"verdict": "inconclusive"}}}}
    waiting = {"name": "architectures.b", "verdict": "inconclusive", "summary": "not finished", "data": {}}
    assert cpu_results.plan(report([weak, waiting], "c1")) == 0
    first = json.loads(plan_path.read_text())
    assert list(first["claims"]) == ["architectures.a"] and first["seeds"] == [3, 4]
    assert first["claims"]["architectures.a"]["planned_from"]["commit"] == "c1"
    assert first["claims"]["architectures.a"]["planned_from"]["report"] == "c1"  # inside ROOT: the relative path
    # later: b is complete and lacks power; a, now answered at 5 seeds and still lacking power, is not replanned
    b_done = dict(waiting, data={"lacks_power": True, "cells": cell})
    a_again = dict(weak, summary="5 seeds, still lacks power")
    assert cpu_results.plan(report([a_again, b_done], "c2")) == 0
    second = json.loads(plan_path.read_text())
    assert second["claims"]["architectures.a"] == first["claims"]["architectures.a"]
    assert second["claims"]["architectures.b"]["planned_from"]["commit"] == "c2"


def test_status_counts_each_parts_stored_runs(tmp_path, capsys):
    """``cpu_results.py --status``: per part, the stored runs out of its runs, their CPU hours, and the CPU hours
    left at the *mean* CPU seconds of its stored runs (a total; the median would say 1.5 here); "-" for a part
    with no stored run, 0.0 for a complete one."""

    cpu_results = _cpu_results()

    part6 = cpu_results.part_runs("cpu", "6")
    with ResultStore(tmp_path / "s.sqlite") as st:
        for r, cpu in zip(part6[:3], (600.0, 600.0, 4200.0)):
            st.put(r.run_id, r.config.to_dict(), {"relmse": 1e-3, "cpu_seconds": cpu})
    assert cpu_results.main(["--status", "--store", str(tmp_path / "s.sqlite")]) == 0
    out = capsys.readouterr().out
    assert f"| 6 | 3 / {len(part6)} | 1.5 | {(len(part6) - 3) * 0.5:.1f} |" in out
    assert "| 1 | 0 / 123 | 0.0 | - |" in out
    assert "| the 3-seed profile | 3 / " in out
    with ResultStore(tmp_path / "all.sqlite") as st:
        for r in part6:
            st.put(r.run_id, r.config.to_dict(), {"relmse": 1e-3, "cpu_seconds": 300.0})
    assert cpu_results.main(["--status", "--store", str(tmp_path / "all.sqlite")]) == 0
    assert f"| 6 | {len(part6)} / {len(part6)} | {len(part6) / 12:.1f} | 0.0 |" in capsys.readouterr().out


def test_status_estimates_each_missing_run_from_its_own_cell_or_model():
    """The CPU left of a part whose cells differ in cost: a missing run at its cell's mean, else its model's, else
    the mean of every stored run of the part (round 2's depth part: a 3-layer LSTM takes 4x a 1-layer one)."""
    cpu_results = _cpu_results()
    runs = list({r.run_id: r for r in cpu_results.part_runs("cpu", "r2-3")}.values())
    cfg = {r.run_id: r.config.to_dict() for r in runs}

    def lstm(r, layers):
        return cfg[r.run_id]["model"]["arch"] == "lstm" and cfg[r.run_id]["model"]["layers"] == layers

    def pick(layers, kind, alpha, seed):
        return next(r for r in runs if lstm(r, layers) and cfg[r.run_id]["target"]["kind"] == kind
                    and cfg[r.run_id]["target"]["alpha"] == alpha and cfg[r.run_id]["train"]["seed"] == seed)

    stored = {pick(3, "exp", 0.5, 5).run_id: 400.0, pick(3, "exp", 0.5, 6).run_id: 400.0,
              pick(3, "impulse", 0.75, 5).run_id: 700.0, pick(1, "impulse", 0.75, 5).run_id: 100.0}
    lstm3, lstm1 = [r for r in runs if lstm(r, 3)], [r for r in runs if lstm(r, 1)]
    rest = len(runs) - len(lstm3) - len(lstm1)
    assert len(runs) == 224 and len(lstm3) == len(lstm1) == 56
    # the two stored 3-layer cells: their other seeds at their own cost; its other two cells at the model's mean
    want = 12 * 400.0 + 13 * 700.0 + (len(lstm3) - 28) * 500.0 + (len(lstm1) - 1) * 100.0 + rest * 400.0
    assert cpu_results._cpu_left(runs, stored) == pytest.approx(want, rel=1e-12)
    assert cpu_results._cpu_left(runs, {}) is None
    assert cpu_results._cpu_left(runs[:2], {r.run_id: 5.0 for r in runs[:2]}) == 0.0


def test_status_estimates_a_part_from_the_stores_other_runs():
    """A part's missing run with no cell or model of its own part stored: at its cell's mean among the store's
    other runs (round 1's, other parts), else its model's there; the part's own model first (a part that began
    with its dearest model); None while some missing run has nothing to go on."""
    cpu_results = _cpu_results()
    runs = list({r.run_id: r for r in cpu_results.part_runs("cpu", "r2-3")}.values())
    cfg = {r.run_id: r.config.to_dict() for r in runs}

    def model(r):
        return json.dumps(cfg[r.run_id]["model"], sort_keys=True)

    models = sorted({model(r) for r in runs})
    cost = {m: 100.0 * (i + 1) for i, m in enumerate(models)}           # a distinct cost per model
    first = runs[0]
    cell = dict(cfg[first.run_id], train={**cfg[first.run_id]["train"], "seed": 0})   # round 1's seed

    def of_cell(r):
        return {**cfg[r.run_id], "train": {**cfg[r.run_id]["train"], "seed": 0}} == cell

    # one run per model, of another cell than ``cell``; ``cell`` itself at 7; a model the part does not train
    elsewhere = [({**cell, "model": json.loads(m), "note": "another cell"}, cost[m]) for m in models]
    elsewhere += [(cell, 7.0), (dict(cell, model={**cell["model"], "width": -1}), 1e6)]
    at_model = dict(cost, **{model(first): (cost[model(first)] + 7.0) / 2})   # ``cell``'s run counts for its model
    assert len(models) == 4 and sum(map(of_cell, runs)) == 14
    want = sum(7.0 if of_cell(r) else at_model[model(r)] for r in runs)
    assert cpu_results._cpu_left(runs, {}, elsewhere) == pytest.approx(want, rel=1e-12)
    # a stored run of the part: its model's other runs at its cost, ahead of the cell elsewhere
    want = sum(50.0 if model(r) == model(first) else at_model[model(r)] for r in runs if r is not first)
    assert cpu_results._cpu_left(runs, {first.run_id: 50.0}, elsewhere) == pytest.approx(want, rel=1e-12)
    # one model with nothing elsewhere: no estimate while the part has no stored run, the part's mean after
    short = [e for e in elsewhere if json.dumps(e[0]["model"], sort_keys=True) != models[-1]]
    assert cpu_results._cpu_left(runs, {}, short) is None
    one = next(r for r in runs if model(r) not in (models[-1], model(first)))
    want = sum(9.0 if model(r) in (models[-1], model(one)) else 7.0 if of_cell(r) else at_model[model(r)]
               for r in runs if r is not one)
    assert cpu_results._cpu_left(runs, {one.run_id: 9.0}, short) == pytest.approx(want, rel=1e-12)


def test_provenance_counts_the_seed_extension_apart(tmp_path):
    """results.json's provenance: the 3-seed profile's runs and CPU seconds, and beside them the planned seed
    extension's (seeds 3, 4 are not in the profile, so they are counted on their own line, never lost)."""
    cpu_results = _cpu_results()
    profile = cpu_results.part_runs("cpu", "4")
    ids = {r.run_id for r in profile}
    extension = [r for r in cpu_results.part_runs("cpu", "ext") if r.run_id not in ids]
    assert extension, "the committed plan has extension runs"
    with ResultStore(tmp_path / "s.sqlite") as st:
        st.put(profile[0].run_id, profile[0].config.to_dict(), {"relmse": 1e-3, "cpu_seconds": 100.0})
        for r in extension[:2]:
            st.put(r.run_id, r.config.to_dict(), {"relmse": 1e-3, "cpu_seconds": 30.0})
    meta = cpu_results.provenance(0.0, tmp_path / "s.sqlite")
    assert (meta["training_runs"], meta["training_cpu_seconds"]) == (1, 100.0)
    assert (meta["extension_runs"], meta["extension_cpu_seconds"]) == (2, 60.0)
    assert meta["extension_planned"] == len({r.run_id for r in extension})      # seeds 3, 4: none in the profile


def test_cpu_results_reports_an_unfinished_store(tmp_path):
    """The report half (``--no-train``) on a store without the claim's runs: the claim says which runs are
    missing (inconclusive), and results.json carries the provenance."""

    cpu_results = _cpu_results()
    out = tmp_path / "report"
    assert cpu_results.main(["--no-train", "--checks", "architectures.tcn_optimizer", "--out", str(out),
                             "--store", str(tmp_path / "empty.sqlite")]) == 0
    data = json.loads((out / "results.json").read_text())
    (res,) = data["results"]
    assert res["verdict"] == "inconclusive" and "has not finished" in res["summary"]
    assert {"commit", "wall_seconds", "training_cpu_seconds"} <= set(data["provenance"])


def test_a_plan_names_a_committed_report_by_its_repository_path(tmp_path, monkeypatch):
    """The plan's ``planned_from.report``: relative inside the repository (it is committed with the plan), the
    given path for a report outside it (a machine-local interim report)."""
    cpu_results = _cpu_results()
    monkeypatch.setattr(cpu_results, "ROOT", tmp_path / "repo")
    assert cpu_results._report_name(tmp_path / "repo" / "docs" / "after-part4") == "docs/after-part4"
    assert cpu_results._report_name(tmp_path / "elsewhere") == str(tmp_path / "elsewhere")
