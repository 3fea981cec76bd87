"""The files every command reads and the folders it writes (seqtheory.cli._files, issue 43): a deeply nested
JSON file wherever a command takes a file is one line and exit 2 (was: RecursionError tracebacks), NaN in a
configuration is refused naming its key, read-only commands never change a store's bytes nor give an unrelated
SQLite file tables, and a folder outside the working tree is refused unless asked."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

import pytest
import torch

from numerics.experiments.store import ResultStore, StoreError
from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep
from seqtheory import cli
from seqtheory.cli._files import MAX_JSON_DEPTH, output_folder, read_json

# deeper than Python's recursion limit: json's decoder and every recursive walk of a document fail on it
NESTED = "[" * 100_000 + "]" * 100_000


def _doc(seeds=(0,)):
    return {"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16}, "train": {"steps": 2, "batch": 8}},
            "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}}, "kinds": ["exp"], "alphas": [0.5],
                              "seeds": list(seeds)}}}


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A folder (the working directory) with a nested JSON file, a valid sweep, a model and a stored store."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nested.json").write_text(NESTED)
    (tmp_path / "sweep.json").write_text(json.dumps(_doc()))
    torch.manual_seed(0)
    torch.save(torch.nn.GRU(2, 4).state_dict(), tmp_path / "gru.pt")
    with ResultStore(tmp_path / "s.sqlite") as st:
        run_sweep(expand_sweep(_doc()), st, progress=False)
    return tmp_path


def _run(argv, capsys) -> tuple[int, str]:
    """(exit status, stderr) of ``seqtheory ARGV`` in this process."""
    try:
        code = cli.main(list(argv))
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err


def _one_line(code, err, *needles):
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err and "error:" in lines[0], (code, err[-2000:])
    for n in needles:
        assert n in lines[0], (n, lines[0])


# Every command, and for each every place it takes a file to read (N: the nested JSON file). A command without
# a file argument is listed with none: a new command fails test_every_command_is_listed until it is added.
N = "nested.json"
FILE_ARGS = {
    "energy": [], "horizon": [],
    "validate": [],       # reads no file of the user's (--report is a folder it writes: test_report_folder_*)
    "memory-report": [["--kind", "exp", "--alpha", "0.5", "--T", "64", "--results", N],
                      ["--file", N]],
    "timescales": [[N], ["gru.pt", "--inputs", N]],
    "sweep": [[sub, N, "--store", "s.sqlite", *extra]
              for sub, extra in (("run", ["--no-progress"]), ("status", []), ("plot", ["--out", "figs"]),
                                 ("export", ["--csv", "-"]))]
             + [[sub, "sweep.json", "--store", N, *extra]
                for sub, extra in (("run", ["--no-progress"]), ("status", []), ("plot", ["--out", "figs"]),
                                   ("export", ["--csv", "-"]))],
}


def test_every_command_is_listed():
    assert set(FILE_ARGS) == set(cli.COMMANDS)


@pytest.mark.parametrize("argv", [[c, *a] for c, cases in FILE_ARGS.items() for a in cases],
                         ids=lambda a: " ".join(a))
def test_a_deeply_nested_json_file_is_one_line_everywhere(argv, files, capsys):
    before = hashlib.sha256((files / "s.sqlite").read_bytes()).hexdigest()
    code, err = _run(argv, capsys)
    _one_line(code, err, N)
    assert hashlib.sha256((files / "s.sqlite").read_bytes()).hexdigest() == before


def test_the_dispatcher_catches_a_recursion_error_of_any_command(monkeypatch, capsys):
    """The last guard: a command that walks some input recursively still ends in one line."""
    from seqtheory.cli import energy

    def deep(argv, prog):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(energy, "main", deep)
    code, err = _run(["energy", "--n", "4", "--t", "2"], capsys)
    _one_line(code, err, "seqtheory energy", "nests too deeply")


# ------------------------------------------------------------------------------------------------- read_json
@pytest.mark.parametrize("depth, ok", [(MAX_JSON_DEPTH, True), (MAX_JSON_DEPTH + 1, False)])
def test_the_depth_limit_is_exact(tmp_path, depth, ok):
    p = tmp_path / "d.json"
    p.write_text("[" * depth + "]" * depth)
    if ok:
        doc = read_json(str(p), "--results")
        for _ in range(depth - 1):
            doc = doc[0]
        assert doc == []
    else:
        with pytest.raises(ValueError, match=f"--results .*d.json: nested more than {MAX_JSON_DEPTH} levels"):
            read_json(str(p), "--results")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_a_non_finite_literal_is_refused_naming_its_key(tmp_path, literal):
    p = tmp_path / "s.json"
    p.write_text('{"studies": {"a": {"alphas": [0.5, %s]}}, "name": "x"}' % literal)
    with pytest.raises(ValueError, match=rf"sweep .*s.json: {literal} at studies\.a\.alphas\[1\]"):
        read_json(str(p), "sweep")
    assert read_json(str(p), "--results", finite=False)["name"] == "x"        # a results file may hold NaN


@pytest.mark.parametrize("content, word", [(None, "no such file"), (b"\xff\xfe", "UTF-8"), ("{", "invalid JSON"),
                                           ("", "invalid JSON")])
def test_read_json_names_every_problem(tmp_path, content, word):
    p = tmp_path / "f.json"
    if isinstance(content, bytes):
        p.write_bytes(content)
    elif content is not None:
        p.write_text(content)
    with pytest.raises(ValueError, match=word) as e:
        read_json(str(p), "--results")
    assert str(e.value).startswith(f"--results {p}")
    with pytest.raises(ValueError, match="not a file"):
        read_json(str(tmp_path), "--results")


def test_a_sweep_file_with_nan_is_refused_naming_the_key(files, capsys):
    """`sweep status` of a file with NaN printed {} and exit 0 (issue 43)."""
    (files / "nan.json").write_text('{"studies": {}, "name": NaN}')
    for sub in ("status", "export", "plot", "run"):
        extra = {"export": ["--csv", "-"], "run": ["--no-progress"]}.get(sub, [])
        code, err = _run(["sweep", sub, "nan.json", "--store", "s.sqlite", "--json", *extra], capsys)
        _one_line(code, err, "nan.json", "NaN at name")
    doc = _doc()
    doc["studies"]["a"]["alphas"] = [float("inf")]
    (files / "inf.json").write_text(json.dumps(doc))                  # Python writes Infinity
    code, err = _run(["sweep", "status", "inf.json", "--store", "s.sqlite"], capsys)
    _one_line(code, err, "Infinity at studies.a.alphas[0]")


# --------------------------------------------------------------------------------- read-only commands, stores
READ_ONLY = [("status", []), ("export", ["--csv", "-"]), ("plot", ["--out", "figs"])]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("sub, extra", READ_ONLY, ids=[s for s, _ in READ_ONLY])
def test_read_only_commands_leave_the_store_bytes_alone(sub, extra, files, capsys):
    store = files / "s.sqlite"
    before = _digest(store)
    code, err = _run(["sweep", sub, "sweep.json", "--store", str(store), *extra], capsys)
    assert code == 0, err
    assert _digest(store) == before
    os.chmod(store, 0o444)                       # a store the user may only read: still readable
    try:
        assert _run(["sweep", sub, "sweep.json", "--store", str(store), *extra], capsys)[0] == 0
    finally:
        os.chmod(store, 0o644)
    assert _digest(store) == before


@pytest.mark.parametrize("sub, extra", READ_ONLY, ids=[s for s, _ in READ_ONLY])
def test_read_only_commands_refuse_an_unrelated_sqlite_file(sub, extra, files, capsys):
    """They created the store's tables in any SQLite file and printed '0/1 done' (issue 43)."""
    other = files / "other.sqlite"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE notes (x)")
    c.close()
    before = _digest(other)
    code, err = _run(["sweep", sub, "sweep.json", "--store", str(other), *extra], capsys)
    _one_line(code, err, "other.sqlite", "not a usable SQLite result store", "runs is missing")
    assert _digest(other) == before
    with sqlite3.connect(other) as c:
        assert [r[0] for r in c.execute("SELECT name FROM sqlite_master")] == ["notes"]
    c.close()
    assert not (files / "figs").exists()


def test_run_still_creates_and_writes_its_store(files, capsys):
    code, err = _run(["sweep", "run", "sweep.json", "--store", "new.sqlite", "--no-progress"], capsys)
    assert code == 0, err
    with ResultStore(files / "new.sqlite", read_only=True) as st:
        assert len(st) == 1


def test_a_read_only_store_never_writes(tmp_path):
    path = tmp_path / "s.sqlite"
    with ResultStore(path) as st:
        st.put("a", {"x": 1}, {"y": 2})
    before = _digest(path)
    with ResultStore(path, read_only=True) as st:
        assert len(st) == 1 and st.get("a")["result"] == {"y": 2} and st.done_ids() == {"a"}
        for write in (lambda: st.put("b", {}, {}), lambda: st.claim("b"), lambda: st.release()):
            with pytest.raises(StoreError, match="read-only"):
                write()
    assert _digest(path) == before
    with pytest.raises(StoreError, match="does not exist"):
        ResultStore(tmp_path / "none.sqlite", read_only=True)
    assert not (tmp_path / "none.sqlite").exists()
    with pytest.raises(ValueError, match="read_only"):
        ResultStore(":memory:", read_only=True)
    with pytest.raises(TypeError, match="read_only"):
        ResultStore(path, read_only="yes")


# ---------------------------------------------------------------------------------- folders outside the tree
def test_output_folder_is_inside_the_working_tree(tmp_path, monkeypatch):
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    monkeypatch.chdir(work)
    for inside in (".", "sub", "sub/new/deeper", str(work / "x"), "sub/../y"):
        assert output_folder(inside, "--report") == Path(inside)
    (work / "link").symlink_to(tmp_path)                         # a link that leads out of the tree
    for outside in ("/", "..", str(tmp_path / "other"), "sub/../../x", "link/x"):
        with pytest.raises(ValueError, match=r"outside the working tree .*--allow-outside"):
            output_folder(outside, "--report")
        assert output_folder(outside, "--report", allow_outside=True) == Path(outside)


def test_sweep_plot_refuses_a_folder_outside_the_tree(files, tmp_path, capsys):
    out = tmp_path.parent / f"{tmp_path.name}-figs"
    code, err = _run(["sweep", "plot", "sweep.json", "--store", "s.sqlite", "--out", str(out)], capsys)
    _one_line(code, err, "--out", "outside the working tree", "--allow-outside")
    assert not out.exists()
    code, err = _run(["sweep", "plot", "sweep.json", "--store", "s.sqlite", "--out", str(out), "--allow-outside"],
                     capsys)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["a_heatmap.png", "a_relmse_vs_alpha.png"]
