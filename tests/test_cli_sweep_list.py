"""``seqtheory sweep list`` and the shipped sweeps' names (issue 44): every sweep the packages ship, of both kinds,
by name, with its kind and run count; ``arch/NAME`` and ``gated/NAME`` open either kind, a bare name opens the
one kind that ships it, and an unknown or ambiguous name is one line listing the names. The core tests need
no PyTorch (the command works in the core install); the run counts are checked against the engines' own
expansion where torch is installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seqtheory.cli.sweep import main, resolve, shipped_sweeps

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"arch": ROOT / "numerics/memory_functions/bench/sweeps", "gated": ROOT / "numerics/anticollapse/gated/sweeps"}


def _listed(capsys) -> list[dict]:
    assert main(["list", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_shipped_sweep_of_both_kinds_is_listed(capsys):
    rows = _listed(capsys)
    expected = set()
    for prefix, folder in FOLDERS.items():
        for path in folder.glob("*.json"):
            doc = json.loads(path.read_text())
            if ("studies" if prefix == "arch" else "runs") in doc:
                expected.add(f"{prefix}/{path.stem}")
            else:                                       # the only other file: the cpu sweep's extension plan
                assert path.name == "cpu_extension.json" and "claims" in doc
    assert {r["name"] for r in rows} == expected and len(rows) == len(expected) >= 7
    assert {r["kind"] for r in rows} == {"architectures", "gated-rnn"}
    assert all(isinstance(r["runs"], int) and r["runs"] > 0 for r in rows)
    gated = {r["name"]: r for r in rows if r["kind"] == "gated-rnn"}
    assert (gated["gated/cpu"]["trainings"], gated["gated/cpu"]["diagnoses"]) == (12, 24)    # the README's numbers
    assert main(["list"]) == 0
    text = capsys.readouterr().out
    assert all(r["name"] in text for r in rows) and "gated-rnn" in text


def test_names_resolve_for_both_kinds():
    shipped = shipped_sweeps()
    for name, (_, path) in shipped.items():
        assert Path(resolve(name)) == path                     # the qualified name
    bare = {}
    for name in shipped:
        bare.setdefault(name.partition("/")[2], []).append(name)
    for short, names in bare.items():
        if len(names) == 1:
            assert Path(resolve(short)) == shipped[names[0]][1]   # a bare name one kind ships
        else:
            with pytest.raises(ValueError, match="ambiguous") as e:
                resolve(short)
            assert all(n in str(e.value) for n in names)
    assert {"reference", "full"} <= {s for s, n in bare.items() if len(n) == 1}
    assert {"cpu", "quick"} <= {s for s, n in bare.items() if len(n) == 2}


@pytest.mark.parametrize("name,needle", [("cpu", "is ambiguous: arch/cpu or gated/cpu"),
                                         ("nope", "no such file or shipped sweep"),
                                         ("gated/nope", "no such file or shipped sweep"),
                                         ("numerics/anticollapse/gated/sweeps/missing.json", "no such file")])
def test_an_unknown_or_ambiguous_name_is_one_line_listing_the_names(name, needle, tmp_path, capsys):
    assert main(["status", name, "--store", str(tmp_path / "s.sqlite")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "gated/reference" in err[0] and "arch/full" in err[0], err


def test_a_file_wins_over_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("cpu").write_text("{}")
    assert resolve("cpu") == "cpu"


@pytest.mark.torch
def test_the_run_counts_are_the_engines(capsys):
    """The list counts without torch; the engines expand the same sweeps into run ids: the same numbers."""
    from numerics.anticollapse.gated.sweep import load_gated_sweep, run_status
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep

    for row in _listed(capsys):
        path = shipped_sweeps()[row["name"]][1]
        if row["kind"] == "architectures":
            assert row["runs"] == len({r.run_id for r in expand_sweep(load_sweep(path))}), row["name"]
        else:
            assert row["runs"] == sum(c["total"] for c in run_status(load_gated_sweep(path), None).values())


@pytest.mark.torch
def test_status_by_name_from_another_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)                      # no checkout around: the names open the packaged files
    for name in ("gated/cpu", "reference", "arch/quick", "full"):
        assert main(["status", name, "--store", "s.sqlite", "--json"]) == 0
        assert all(c["done"] == 0 for c in json.loads(capsys.readouterr().out).values())
