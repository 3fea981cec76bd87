"""``seqtheory memory-report`` (seqtheory.cli.memory_report): the JSON of a family and of a file, text output,
and one-line errors (exit status 2)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from numerics.memory_functions.memory_report import memory_report
from seqtheory.cli import memory_report as cli
from seqtheory.cli.memory_report import main
from test_memory_report import MEDIANS, T, _write
from theory.memory import memory_function


def test_cli_json_kind_and_file(tmp_path, capsys):
    res = _write(tmp_path, "r.json", [{"name": "architectures.x", "data": {"medians": MEDIANS}}])
    assert main(["--kind", "poly", "--alpha", "0.5", "--T", "64", "--results", str(res), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nearest"]["kind"] == "poly" and out["benchmark"]["ranking"][0]["model"] == "tcn"
    assert out["prony"]["reached"] is True
    rho = memory_function("exp", 0.4, 40)
    np.save(tmp_path / "rho.npy", rho)
    np.savetxt(tmp_path / "rho.csv", rho[None, :], delimiter=",")
    for f in ("rho.npy", "rho.csv"):
        assert main(["--file", str(tmp_path / f), "--no-prony", "--results", str(tmp_path / "none.json"),
                        "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["T"] == 40 and out["nearest"]["kind"] == "exp" and out["prony"] is None
        assert out["benchmark"]["available"] is False and "no benchmark results found" in out["benchmark"]["message"]
    assert main(["--file", str(tmp_path / "rho.npy"), "--no-prony", "--results", str(tmp_path / "none.json")]) == 0
    assert "nearest family: exp" in capsys.readouterr().out


@pytest.mark.parametrize("argv,word", [
    (["--kind", "poly", "--T", "64"], "--alpha"),
    (["--file", "/nonexistent/rho.npy"], "no such file"),
    (["--kind", "poly", "--alpha", "2", "--T", "64"], "alpha"),
    (["--file", "x.npy", "--T", "10"], "--T"),
])
def test_cli_bad_input(argv, word, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and word in capsys.readouterr().err


def test_cli_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--kind", "poly", "--alpha", "x"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "--alpha" in err


def test_text_of_a_far_target_says_why_there_is_no_ranking():
    s = np.arange(T)
    far = memory_report(np.exp(-s / 20.0) * np.cos(0.5 * s), prony=False)
    assert far.far and "no ranking" in cli._summary(far)
