"""The user's package: ``import seqtheory`` re-exports the public API; ``seqtheory COMMAND`` runs the tools.

The command line delegates to each tool's own parser and ``main`` (``python -m theory``, ``theory.horizon`` /
``numerics.signal_propagation.horizon_mc``, ``numerics.memory_functions.memory_profile``, ``numerics.anticollapse.gated.rnn_timescales``,
``validation``, ``numerics.memory_functions.bench.sweep``); these tests capture those parsers and check that every flag
has a help text, that every command takes ``--json``, and that bad input is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import seqtheory
from seqtheory import cli

ROOT = Path(__file__).resolve().parents[1]
TORCH_COMMANDS = ("timescales",)
TORCH_NAMES = ("LSTM", "S4D", "TCN", "Transformer", "rnn_timescales", "as_rnn")


# ----------------------------------------------------------------------------------------------------
# the package
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.torch] if n in TORCH_NAMES else [])
                                  for n in seqtheory.__all__ if n != "__version__"])
def test_every_export_is_the_object_of_its_home_module(name):
    home = seqtheory._WHERE[name] + (f".{seqtheory._MODELS[name]}" if name in seqtheory._MODELS else "")
    assert getattr(seqtheory, name) is getattr(importlib.import_module(home), name)
    assert name in dir(seqtheory)


def test_the_package_answers_like_its_modules():
    from fractions import Fraction

    assert seqtheory.Q(4, 2, method="exact") == Fraction(17, 16)
    assert seqtheory.wick_polynomial(4, "complex") == seqtheory.hultman_row(4)
    # both weight types through one name: complex = the closed form of theory.horizon
    from theory.horizon import sigma_for_horizon as complex_only

    assert seqtheory.sigma_for_horizon(64, 8, 0.05).sigma == complex_only(64, 8, 0.05).sigma
    assert seqtheory.sigma_for_horizon(16, 6, 0.05, weights="real").weights == "real"
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        seqtheory.no_such_name  # noqa: B018


def test_version_comes_from_the_package_metadata():
    try:
        expected = metadata.version("seqtheory")
    except metadata.PackageNotFoundError:
        expected = "0+unknown"
    assert seqtheory.__version__ == expected


# ----------------------------------------------------------------------------------------------------
# the command line: the parsers it delegates to
# ----------------------------------------------------------------------------------------------------
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


@pytest.mark.parametrize("module", ["theory", "theory.horizon", "numerics.signal_propagation.horizon_mc", "numerics.memory_functions.memory_profile",
                                    "validation", "numerics.memory_functions.bench.sweep"])
def test_python_m_help_is_plain_text(module):
    res = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0 and "usage:" in res.stdout
    assert "``" not in res.stdout and ":func:" not in res.stdout and ".. math" not in res.stdout


# ----------------------------------------------------------------------------------------------------
# the command line: running it
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv,word", [
    ([], "COMMAND"),
    (["nonsense"], "invalid choice"),
    (["energy", "--n", "x", "--t", "2"], "--n"),
    (["horizon", "sigma", "--n", "16", "--t", "4"], "--tol"),
    (["horizon", "depth", "--n", "4", "--sigma", "-1", "--tol", "0.3"], "sigma"),
    (["memory-profile", "--kind", "exp"], "--alpha"),
    (["memory-profile", "--kind", "exp", "--alpha", "0.5", "--far-threshold", "2"], "far_threshold"),
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
    assert json.loads(capsys.readouterr().out)["Q"] == "17/16"
    assert cli.main(["horizon", "depth", "--n", "4", "--sigma", "1", "--tol", "0.3", "--weights", "real",
                     "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["depth"] == 2           # Q^R_{4,3} = 1 + 44/64 breaks tol 0.3
    assert cli.main(["memory-profile", "--kind", "poly", "--alpha", "0.5", "--no-prony", "--json"]) == 0
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
    assert "needs PyTorch" in res.stderr and "seqtheory[models]" in res.stderr


# ----------------------------------------------------------------------------------------------------
# long runs show progress
# ----------------------------------------------------------------------------------------------------
def test_real_weight_monte_carlo_shows_progress(capsys):
    from numerics.signal_propagation import ginibre, horizon_mc

    horizon_mc.mc_energies(4, 3, 8, batches=2, progress=True)
    assert "Monte Carlo energies n=4" in capsys.readouterr().err          # the bar, on stderr
    horizon_mc.mc_energies(4, 3, 8, batches=2)                            # automatic: a tiny run shows none
    assert capsys.readouterr().err == ""
    # a long real-weight run (n = 256, t = 40, the default 4096 draws: about 5e12 flops) shows it
    assert horizon_mc.mc_flops(256, 40, 4096, "real") > ginibre._PROGRESS_FLOPS > horizon_mc.mc_flops(4, 3, 8, "real")
