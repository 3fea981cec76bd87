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
        assert main(["--file", str(tmp_path / f), "--no-prony", "--results", str(res), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["T"] == 40 and out["nearest"]["kind"] == "exp" and out["prony"] is None
    assert main(["--file", str(tmp_path / "rho.npy"), "--no-prony", "--results", str(res)]) == 0
    assert "nearest family: exp" in capsys.readouterr().out


def _bad_files(d):
    """(file name, word of the error) for every kind of bad --file (issue 33)."""
    (d / "empty.npy").write_bytes(b"")
    (d / "garbage.npy").write_bytes(b"not a numpy file at all")
    np.save(d / "bool.npy", np.array([True, False] * 8))
    np.save(d / "complex.npy", np.ones(16) * (1 + 1j))
    np.save(d / "matrix.npy", np.ones((4, 4)))
    np.save(d / "zero_length.npy", np.zeros(0))
    (d / "text.csv").write_text("1.0,abc,3\n")
    return [("empty.npy", "not a readable"), ("garbage.npy", "not a readable"), ("bool.npy", "bool"),
            ("complex.npy", "complex"), ("matrix.npy", "1-d"), ("zero_length.npy", "non-empty"),
            ("text.csv", "not a readable")]


def test_cli_bad_files_are_one_line_errors(tmp_path, capsys):
    for name, word in _bad_files(tmp_path):
        with pytest.raises(SystemExit) as e:
            main(["--file", str(tmp_path / name), "--no-prony"])
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.count("\n") == 1 and name in err and word in err, (name, err)


@pytest.mark.parametrize("content", [None, "", "{not json", "[1, 2, 3]", '{"results": [{"data": {"medians": [{"model": 1}]}}]}',
                                     '{"results": 7}', "model,kind\n", '{"results": [{"data": null}]}'])
def test_cli_bad_results_files_exit_2(tmp_path, capsys, content):
    res = tmp_path / "results.json"
    if content is not None:
        res.write_text(content)
    with pytest.raises(SystemExit) as e:
        main(["--kind", "exp", "--alpha", "0.5", "--no-prony", "--results", str(res)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--results" in err and err.count("\n") == 1


def test_cli_refuses_a_long_report_up_front(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--kind", "poly", "--alpha", "0.999999", "--T", "4096", "--no-prony"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--max-seconds" in err and "length 4096" in err
    with pytest.raises(SystemExit):
        main(["--kind", "poly", "--alpha", "0.5", "--max-seconds", "nan"])


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
