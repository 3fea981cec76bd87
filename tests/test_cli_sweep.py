"""``seqtheory sweep`` (seqtheory.cli.sweep) and the sweep under misuse: one-line errors naming the file or field (exit 2), a status that
creates nothing, CSV export, claims shared by concurrent sweeps, corrupt stores, path-escaping study names,
and the caller's torch RNG left alone by an inline sweep."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from numerics.experiments.store import ResultStore
from numerics.memory_functions.bench.sweep import check_study_name, expand_sweep, load_sweep, run_sweep
from seqtheory.cli.sweep import _inside, main
import tiny_inputs as tiny

ROOT = Path(__file__).resolve().parents[1]
PROG = "seqtheory sweep: error:"


def _doc(seeds=(0, 1), steps=3, name="a"):
    return {"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16}, "train": {"steps": steps, "batch": 8}},
            "studies": {name: {"models": {"lstm": {"arch": "lstm", "width": 3}},
                               "kinds": ["exp", "impulse"], "alphas": [0.5], "seeds": list(seeds)}}}


@pytest.fixture
def sweep_file(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(_doc()))
    return path


def _one_line_error(capsys, *needles):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("seqtheory sweep") and "error:" in err[0] and "Traceback" not in err[0]
    for n in needles:
        assert n in err[0], (n, err[0])


# ------------------------------------------------------------------------------------------ CLI errors
def test_missing_file(tmp_path, capsys):
    assert main(["run", str(tmp_path / "nope.json"), "--store", str(tmp_path / "s.sqlite")]) == 2
    _one_line_error(capsys, "nope.json", "no such file")
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("cmd", ["run", "status", "export"])
def test_empty_store_path_is_one_line(sweep_file, capsys, cmd):
    assert main([cmd, str(sweep_file), "--store", ""] + (["--csv", "-"] if cmd == "export" else [])) == 2
    _one_line_error(capsys, "--store")


def test_invalid_json(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"studies": {\n  "a": [1, 2,,]}}')
    assert main(["status", str(bad), "--store", str(tmp_path / "s.sqlite")]) == 2
    _one_line_error(capsys, "bad.json", "invalid JSON", "line 2")


def test_config_typo_names_file_and_field(tmp_path, capsys):
    doc = _doc()
    doc["studies"]["a"]["modles"] = doc["studies"]["a"].pop("models")
    typo = tmp_path / "typo.json"
    typo.write_text(json.dumps(doc))
    assert main(["run", str(typo), "--store", str(tmp_path / "s.sqlite")]) == 2
    _one_line_error(capsys, "typo.json", "studies.a", "modles")


def test_bad_value_names_file_and_field(tmp_path, capsys):
    doc = _doc()
    doc["studies"]["a"]["alphas"] = [1.5]
    path = tmp_path / "alpha.json"
    path.write_text(json.dumps(doc))
    assert main(["run", str(path), "--store", str(tmp_path / "s.sqlite")]) == 2
    _one_line_error(capsys, "alpha.json", "alpha")


@pytest.mark.parametrize("option", ["--workers", "--threads", "--limit"])
@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_bad_counts(sweep_file, tmp_path, capsys, option, value):
    with pytest.raises(SystemExit) as exc:
        main(["run", str(sweep_file), "--store", str(tmp_path / "s.sqlite"), option, value])
    assert exc.value.code == 2
    _one_line_error(capsys, option)


def test_store_in_missing_folder(sweep_file, tmp_path, capsys):
    assert main(["run", str(sweep_file), "--store", str(tmp_path / "no" / "s.sqlite")]) == 2
    _one_line_error(capsys, "s.sqlite", "does not exist")


def test_status_does_not_create_a_store(sweep_file, tmp_path, capsys):
    store = tmp_path / "new.sqlite"
    assert main(["status", str(sweep_file), "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "0/4 done" in out and "does not exist" in out
    assert not store.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["tiny.json"]
    assert main(["export", str(sweep_file), "--store", str(store), "--csv", "-"]) == 2
    _one_line_error(capsys, "new.sqlite", "does not exist")
    assert not store.exists()


# --------------------------------------------------------------------------------------- corrupt stores
def _stored(tmp_path, n_seeds=2) -> Path:
    path = tmp_path / "s.sqlite"
    with ResultStore(path) as st:
        run_sweep(expand_sweep(_doc(seeds=range(n_seeds))), st, progress=False)
        assert len(st) == 2 * n_seeds
    return path


def test_garbage_store(sweep_file, tmp_path, capsys):
    bad = tmp_path / "garbage.sqlite"
    bad.write_bytes(os.urandom(4096))
    for cmd in ("run", "status", "plot", "export"):
        extra = {"plot": ["--out", str(tmp_path / "figs")], "export": ["--csv", "-"]}.get(cmd, [])
        assert main([cmd, str(sweep_file), "--store", str(bad)] + extra) == 2
        _one_line_error(capsys, "garbage.sqlite", "not a usable SQLite result store")


def test_truncated_store(sweep_file, tmp_path, capsys):
    path = _stored(tmp_path, n_seeds=8)
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])                  # a copy cut short: pages missing
    for f in (tmp_path / "s.sqlite-wal", tmp_path / "s.sqlite-shm"):
        if f.exists():
            f.unlink()
    code = main(["status", str(sweep_file), "--store", str(path)])
    err = capsys.readouterr().err
    # the header survives, so SQLite may open it; then every read of a lost page fails, naming the file
    assert code == 2 and "s.sqlite" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_foreign_sqlite_file(sweep_file, tmp_path, capsys):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE runs (a, b)")
    assert main(["status", str(sweep_file), "--store", str(other)]) == 2
    _one_line_error(capsys, "other.sqlite", "columns")


# ------------------------------------------------------------------------------------ path escapes
@pytest.mark.parametrize("name", ["../escaped", "a/b", "..", "a\\b", "/abs", "", ".hidden", "x..y", 3])
def test_study_names_that_could_escape_are_rejected(name):
    with pytest.raises(ValueError, match="study name"):
        check_study_name(name)


def test_escaping_study_never_writes_outside(tmp_path, capsys):
    doc = _doc(name="../escaped")
    path = tmp_path / "esc.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "figs" / "sub"
    assert main(["plot", str(path), "--store", str(tmp_path / "s.sqlite"), "--out", str(out)]) == 2
    _one_line_error(capsys, "esc.json", "../escaped")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["esc.json"]        # nothing written anywhere
    with pytest.raises(ValueError, match="outside"):
        _inside(out, "../escaped_heatmap.png")
    assert _inside(out, "main_heatmap.png") == (out / "main_heatmap.png").resolve()


def test_load_sweep_checks_names(tmp_path):
    path = tmp_path / "esc.json"
    path.write_text(json.dumps(_doc(name="a/b")))
    with pytest.raises(ValueError, match="esc.json: study name 'a/b'"):
        load_sweep(path)


# ---------------------------------------------------------------------------------------------- export
def test_export_csv(sweep_file, tmp_path, capsys):
    store = _stored(tmp_path)
    out_csv = tmp_path / "r.csv"
    assert main(["export", str(sweep_file), "--store", str(store), "--csv", str(out_csv)]) == 0
    assert "wrote 4 rows" in capsys.readouterr().out
    rows = list(csv.DictReader(out_csv.open()))
    runs = expand_sweep(_doc())
    assert [r["run_id"] for r in rows] == [r.run_id for r in runs]
    with ResultStore(store, create=False) as st:
        for row in rows:
            rec = st.get(row["run_id"])
            assert float(row["result.relmse"]) == rec["result"]["relmse"]
            assert row["config.target.kind"] == rec["config"]["target"]["kind"] and row["study"] == "a"


# ---------------------------------------------------------------------------------------------- claims


@pytest.mark.parametrize("pool", [False, True])
def test_sweep_skips_runs_claimed_by_another_sweep(tmp_path, pool):
    from concurrent.futures import ThreadPoolExecutor

    path = tmp_path / "c.sqlite"
    runs = expand_sweep(_doc(seeds=range(3)))
    ids = [r.run_id for r in runs]
    with ResultStore(path) as other, ResultStore(path) as mine:
        for rid in ids[::2]:
            assert other.claim(rid)
        if pool:                                             # the executor path: claim as submitted
            with ThreadPoolExecutor(2) as ex:
                s = run_sweep(runs, mine, progress=False, executor=ex)
        else:
            s = run_sweep(runs, mine, progress=False)
        assert (s.total, s.ran, s.elsewhere) == (6, 3, 3)
        assert mine.done_ids() == set(ids[1::2])


_WORKER = r"""
import sys, time, json
sys.path.insert(0, {root!r})
from numerics.experiments.store import ResultStore
from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep
doc = json.load(open({sweep!r}))
runs = expand_sweep(doc)
import pathlib
pathlib.Path({ready!r} + str({index})).touch()
while len(list(pathlib.Path({ready!r}).parent.glob("ready*"))) < 2:   # both sweeps start together
    time.sleep(0.005)
with ResultStore({store!r}) as st:
    s = run_sweep(runs, st, progress=False)
print(json.dumps({{"ran": s.ran, "elsewhere": s.elsewhere, "skipped": s.skipped}}))
"""


def test_two_concurrent_sweeps_train_each_run_once(tmp_path):
    doc = _doc(seeds=range(4), steps=40)
    sweep = tmp_path / "s.json"
    sweep.write_text(json.dumps(doc))
    store = tmp_path / "shared.sqlite"
    ResultStore(store).close()
    ready = str(tmp_path / "ready")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    procs = [subprocess.Popen([sys.executable, "-c", _WORKER.format(root=str(ROOT), sweep=str(sweep), store=str(store),
                                                                   ready=ready, index=i)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for i in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outs]
    res = [json.loads(o[0].strip().splitlines()[-1]) for o in outs]
    total = len({r.run_id for r in expand_sweep(doc)})
    assert sum(r["ran"] for r in res) == total, res          # each run trained exactly once between them
    with ResultStore(store, create=False) as st:
        assert len(st) == total
        assert st._conn.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0


# ------------------------------------------------------------------------------------------- torch RNG
def test_inline_sweep_leaves_the_callers_torch_rng_alone():
    import torch
    torch.manual_seed(1234)
    before = torch.get_rng_state().clone()
    expected_next = torch.rand(3)
    torch.set_rng_state(before)
    with ResultStore(":memory:") as st:
        s = run_sweep(expand_sweep(_doc(seeds=[0])), st, progress=False, workers=1)
    assert s.ran == 2
    assert torch.equal(torch.get_rng_state(), before)
    assert torch.equal(torch.rand(3), expected_next)


def test_doctests():
    import doctest

    import numerics.memory_functions.bench.sweep as sweep_mod

    assert doctest.testmod(sweep_mod, raise_on_error=False).failed == 0


def test_damage_found_after_opening_is_one_line(sweep_file, tmp_path, capsys, monkeypatch):
    # a store whose first pages are fine but a later read fails: the command still ends in one line
    path = _stored(tmp_path, n_seeds=1)

    def broken(self):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(ResultStore, "done_ids", broken)
    assert main(["status", str(sweep_file), "--store", str(path)]) == 2
    _one_line_error(capsys, "s.sqlite", "damaged", "malformed")


# ---------------------------------------------------------------------------------------------- gated sweeps
def test_gated_sweep_run_status_export_plot(tmp_path, capsys):
    from test_gated_sweep import TINY

    doc = {**TINY, "seeds": [0]}
    path, store = tmp_path / "gated.json", str(tmp_path / "g.sqlite")
    path.write_text(json.dumps(doc))
    assert main(["status", str(path), "--store", store, "--json"]) == 0        # nothing run: no store created
    assert json.loads(capsys.readouterr().out) == {"shared": {"done": 0, "total": 3},
                                                   "diag_forced": {"done": 0, "total": 3}}
    assert not os.path.exists(store)
    assert main(["run", str(path), "--store", store, "--no-progress", "--workers", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["2 training runs: 0 already stored, 2 run now; store has 6",
                   "4 diagnosis runs: 0 already stored, 4 run now; store has 6"]
    assert main(["run", str(path), "--store", store, "--no-progress", "--json"]) == 0      # a rerun: nothing to do
    again = json.loads(capsys.readouterr().out)
    assert again["training"]["skipped"] == 2 and again["diagnosis"]["ran"] == 0 and again["stored"] == 6
    assert main(["export", str(path), "--store", store, "--csv", str(tmp_path / "g.csv")]) == 0
    with open(tmp_path / "g.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["run"], r["stage"]) for r in rows] == [(run, stage) for run in ("shared", "diag_forced")
                                                     for stage in ("train", "long", "train_author")]
    assert float(rows[0]["relative_loss"]) > 0 and float(rows[1]["final.lag_max"]) == 48
    assert main(["plot", str(path), "--store", store, "--out", str(tmp_path / "figs")]) == 0
    assert (tmp_path / "figs" / "tiny_seed0_spectra.png").stat().st_size > 1000
    capsys.readouterr()
    assert main(["plot", str(path), "--store", store, "--out", str(tmp_path / "figs2"), "--json"]) == 0   # was: unrecognized
    figs = json.loads(capsys.readouterr().out)["figures"]
    assert figs and all(os.path.getsize(f) > 1000 for f in figs)
    assert main(["export", str(path), "--store", store, "--csv", str(tmp_path / "g2.csv"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"rows": 6, "csv": str(tmp_path / "g2.csv")}
    assert main(["run", str(path), "--store", store, "--study", "x"]) == 2
    assert "--study applies to architecture sweeps" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


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
    proc, _ = tiny.cli(["-m", "seqtheory", "sweep", "run", str(tiny_sweep), "--store",
                    str(tmp_path / "s.sqlite"), "--no-progress", *extra])
    tiny.one_line(proc, needle)


def test_sweep_cli_export_to_a_full_disk(tiny_sweep, tmp_path):
    store = str(tmp_path / "s.sqlite")
    proc, _ = tiny.cli(["-m", "seqtheory", "sweep", "run", str(tiny_sweep), "--store", store, "--no-progress"])
    assert proc.returncode == 0, proc.stderr
    proc, _ = tiny.cli(["-m", "seqtheory", "sweep", "export", str(tiny_sweep), "--store", store,
                    "--csv", "/dev/full"])
    tiny.one_line(proc, "/dev/full")


def test_sweep_cli_unreachable_dask_scheduler(tiny_sweep, tmp_path):
    proc, wall = tiny.cli(["-m", "seqtheory", "sweep", "run", str(tiny_sweep), "--store",
                       str(tmp_path / "s.sqlite"), "--dask", "127.0.0.1:1", "--no-progress"], timeout=120)
    tiny.one_line(proc, "127.0.0.1:1")
    # a hang guard, not a speed goal: the refusal comes after the connect timeout plus the start-up of a
    # Python process, which alone took 20-30 s on a loaded 2-core machine (30 s failed there once)
    assert wall < 100


def test_every_sweep_error_names_one_program(tmp_path, capsys):
    from seqtheory.cli import main as seqtheory_main

    for argv in (["sweep", "status", str(tmp_path / "none.json"), "--store", str(tmp_path / "s.sqlite")],
                 ["sweep", "plot", str(tmp_path / "none.json"), "--store", str(tmp_path / "s.sqlite"), "--json"]):
        assert seqtheory_main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("seqtheory sweep: error:") and "python -m" not in err, err
