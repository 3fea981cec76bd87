"""The ``seqtheory`` command line (seqtheory.cli): one module per command, each parsing its arguments, calling
the library and formatting the output. These tests capture every command's parser and check that every flag
has a help text, that every command takes ``--json``, that ``seqtheory COMMAND --help`` (and ``python -m
seqtheory`` / ``python -m validation``) answer in plain text, that each command runs once for real, and that
bad input is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from seqtheory import cli

ROOT = Path(__file__).resolve().parents[1]
TORCH_COMMANDS = ("timescales", "sweep")


class _Captured(Exception):
    def __init__(self, parser):
        self.parser = parser


def _parser_of(command: str, monkeypatch) -> argparse.ArgumentParser:
    """The parser that ``seqtheory COMMAND`` hands its arguments to (captured at parse_args)."""
    def capture(self, args=None, namespace=None):
        raise _Captured(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", capture)
    with pytest.raises(_Captured) as exc:
        cli.main([command])
    return exc.value.parser


def _walk(parser: argparse.ArgumentParser, path: str = ""):
    """(command path, parser) for the parser and every sub-parser below it."""
    yield path, parser
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from _walk(sub, f"{path} {name}".strip())


def _commands():
    return [pytest.param(c, marks=[pytest.mark.torch] if c in TORCH_COMMANDS else []) for c in cli.COMMANDS]


@pytest.mark.parametrize("command", _commands())
def test_every_flag_has_help_and_every_command_takes_json(command, monkeypatch):
    parser = _parser_of(command, monkeypatch)
    assert parser.prog.startswith("seqtheory")
    leaves, missing = [], []
    for path, p in _walk(parser):
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        missing += [f"{command} {path}: {a.option_strings or a.dest}" for a in p._actions
                    if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
                    and a.help in (None, "")]
        for s in subs:                                       # every sub-command has a one-line help too
            helps = {c.dest: c.help for c in s._choices_actions}
            missing += [f"{command} {path} {n}: (command)" for n in s.choices if not helps.get(n)]
        if not subs:
            leaves.append((path, {o for a in p._actions for o in a.option_strings}))
    assert not missing, f"flags without help: {missing}"
    with_json = [path for path, opts in leaves if "--json" in opts]
    assert with_json, f"seqtheory {command}: no --json"
    if command != "sweep":               # sweep's plot writes PNGs and export a CSV: --json on run and status
        assert len(with_json) == len(leaves), f"seqtheory {command}: --json missing in {leaves}"


def test_top_level_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    for name, (text, _) in cli.COMMANDS.items():
        assert name in out and text.split()[0] in out
    assert "::" not in out and "``" not in out                 # plain text, not reST


@pytest.mark.parametrize("argv", [[c, "--help"] for c in cli.COMMANDS] + [["--help"]])
def test_python_m_seqtheory_help_is_plain_text(argv):
    """``seqtheory COMMAND --help`` for every command, through ``python -m seqtheory`` (a fresh process: the
    parsers build without a library import failing); plain text, not reST."""
    res = subprocess.run([sys.executable, "-m", "seqtheory", *argv], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0 and "usage: seqtheory" in res.stdout, res.stderr
    assert "``" not in res.stdout and ":func:" not in res.stdout and ".. math" not in res.stdout


def test_python_m_validation_is_the_validate_command():
    res = subprocess.run([sys.executable, "-m", "validation", "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0 and "usage: python -m validation" in res.stdout and "--only" in res.stdout


# ----------------------------------------------------------------------------------------------------
# the command line: running it
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv,word", [
    ([], "COMMAND"),
    (["nonsense"], "invalid choice"),
    (["energy", "--n", "x", "--t", "2"], "--n"),
    (["horizon", "sigma", "--n", "16", "--t", "4"], "--tol"),
    (["horizon", "depth", "--n", "4", "--sigma", "-1", "--tol", "0.3"], "--sigma"),
    (["memory-report", "--kind", "exp"], "--alpha"),
    (["memory-report", "--kind", "exp", "--alpha", "0.5", "--far-threshold", "2"], "--far-threshold"),
    (["validate", "--only", "no-such-check"], "no check matches"),
    (["sweep", "status"], "--store"),
])
def test_bad_input_is_one_line_and_exit_2(argv, word, capsys):
    with pytest.raises(SystemExit) as e:
        rc = cli.main(argv)
        raise SystemExit(rc)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and word in err, err
    assert err.startswith("seqtheory")


def test_commands_print_json(capsys, tmp_path):
    assert cli.main(["energy", "--n", "4", "--t", "2", "--method", "exact", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["Q"] == {"numerator": 17, "denominator": 16}
    assert cli.main(["horizon", "depth", "--quantity", "Q", "--n", "4", "--sigma", "1", "--tol", "0.3", "--field",
                     "real", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["depth"] == 2           # Q^R_{4,3} = 1 + 44/64 breaks tol 0.3
    assert cli.main(["memory-report", "--kind", "poly", "--alpha", "0.5", "--no-prony", "--json"]) == 0
    prof = json.loads(capsys.readouterr().out)
    assert prof["T"] == 64 and prof["nearest"]["kind"] == "poly" and prof["benchmark"]["ranked"]
    assert cli.main(["validate", "--list", "--json"]) == 0
    names = [c["name"] for c in json.loads(capsys.readouterr().out)]
    assert "signal.critical_limit" in names and len(names) == len(set(names))


def test_a_torch_command_without_torch_says_so():
    code = ("import sys; sys.modules['torch'] = None\n"       # import torch -> ModuleNotFoundError
            "from seqtheory.cli import main\n"
            "sys.exit(main(['timescales', 'model.pt']))")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "needs the 'models' extra" in res.stderr and "seqtheory[models]" in res.stderr


@pytest.mark.torch
def test_the_torch_commands_run(tmp_path, capsys):
    import torch

    torch.manual_seed(0)
    torch.save(torch.nn.GRU(2, 6, batch_first=True).state_dict(), tmp_path / "gru.pt")
    assert cli.main(["timescales", str(tmp_path / "gru.pt"), "--T", "32", "--batch", "2", "--n-boot", "20",
                     "--json"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert out["cell"] == "gru" and out["layers"][0]["n_units"] == 6 and np.all(np.array(out["layers"][0]["tau"]) > 0)
    assert "diagnosing gru layers" in cap.err                 # progress (a layer takes seconds), on stderr
    assert cli.main(["timescales", str(tmp_path / "gru.pt"), "--T", "32", "--batch", "2", "--n-boot", "20",
                     "--json", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
    sweep = tmp_path / "tiny.json"
    sweep.write_text(json.dumps({"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16},
                                                              "train": {"steps": 2, "batch": 8}},
                                 "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}}, "kinds": ["exp"],
                                                   "alphas": [0.5], "seeds": [0]}}}))
    store = str(tmp_path / "s.sqlite")
    assert cli.main(["sweep", "run", str(sweep), "--store", store, "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"total": 1, "skipped": 0, "ran": 1, "elsewhere": 0, "stored": 1}
    assert cli.main(["sweep", "status", str(sweep), "--store", store, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"a": {"done": 1, "total": 1}}
