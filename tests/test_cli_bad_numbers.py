"""Every command line through the same bad numbers: each numeric flag of each command (read from the command's own
parser, so a new flag or command is covered without an edit here) with ``nan``, ``inf``, a negative value and a
huge one (issue 43: ``energy --max-seconds nan`` meant no limit at all while ``memory-report`` refused it).

The contract, flag by flag:

* ``nan``, ``inf``, negative: refused, exit status 2, one line on stderr that names the flag, nothing on stdout;
* huge (``1e400`` for a float flag, a 401-digit integer for an integer flag): refused the same way, or
  answered (exit 0) when the flag has no upper bound and the answer is quick; never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json

import numpy as np
import pytest

from seqtheory.cli import COMMANDS, main
from seqtheory.cli import _parser


class _Captured(Exception):
    def __init__(self, parser):
        super().__init__()
        self.parser = parser


def command_parser(name: str) -> argparse.ArgumentParser:
    """The parser a command builds, captured at its ``parse_args`` (nothing runs)."""
    mod = importlib.import_module(f"seqtheory.cli.{COMMANDS[name][1]}")
    cls = _parser.OneLineParser
    own = vars(cls).get("parse_args")      # None: inherited from argparse (restore that, not a copy on the class)

    def grab(self, *args, **kw):
        raise _Captured(self)

    cls.parse_args = grab
    try:
        mod.main([], prog=f"seqtheory {name}")
    except _Captured as c:
        return c.parser
    finally:
        if own is None:
            del cls.parse_args
        else:
            cls.parse_args = own
    raise AssertionError(f"{name}: no parser captured")


def _numeric(action) -> bool:
    t = action.type
    return t in (int, float) or getattr(t, "__module__", "") == _parser.__name__


def numeric_flags() -> list[tuple[str, str | None, argparse.Action]]:
    """(command, subcommand or None, action) of every numeric option of every command."""
    out = []
    for name in COMMANDS:
        p = command_parser(name)
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        items = [(None, p)] if not subs else list(subs[0].choices.items())
        for sub, sp in items:
            out += [(name, sub, a) for a in sp._actions if a.option_strings and _numeric(a)]
    return out


FLAGS = numeric_flags()
FLOATS = {(c, s, a.option_strings[0]) for c, s, a in FLAGS if a.type is float or getattr(a.type, "__name__", "") == "seconds"}


def test_every_command_is_read_and_the_numeric_flags_are_found():
    found = {}
    for c, s, a in FLAGS:
        found.setdefault(c, set()).add(a.option_strings[0])
    assert set(COMMANDS) - set(found) == {"validate"}          # validate has no numeric flag
    assert {"--n", "--t", "--dps", "--max-seconds"} <= found["energy"]
    assert {"--max-seconds", "--T", "--alpha"} <= found["memory-report"]
    assert {"--workers", "--stop-after"} <= found["sweep"]


TORCH_COMMANDS = ("timescales", "sweep")       # their cases carry the torch mark (conftest: core-only CI leaves them out)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cli_numbers")
    doc = {"name": "tiny", "defaults": {"target": {"T": 12, "n_seq": 16}, "train": {"steps": 3, "batch": 8}},
           "studies": {"a": {"models": {"lstm": {"arch": "lstm", "width": 3}}, "kinds": ["exp"], "alphas": [0.5],
                             "seeds": [0]}}}
    (tmp / "sweep.json").write_text(json.dumps(doc))
    return tmp


def _gru_file(tmp):
    path = tmp / "gru.pt"
    if not path.exists():
        torch = importlib.import_module("torch")
        torch.manual_seed(0)
        torch.save(torch.nn.GRU(2, 3, batch_first=True).state_dict(), path)
    return path


def base_argv(cmd: str, sub: str | None, files, case: str) -> list[str]:
    """A valid, quick invocation of each command (the flag under test is then set or replaced)."""
    return {
        ("energy", None): ["energy", "--n", "8", "--t", "4"],
        ("horizon", "sigma"): ["horizon", "sigma", "--n", "64", "--t", "8", "--tol", "0.1"],
        ("horizon", "depth"): ["horizon", "depth", "--n", "64", "--sigma", "1.0", "--tol", "0.1"],
        ("horizon", "table"): ["horizon", "table", "--n", "64", "--tol", "0.1"],
        ("memory-report", None): ["memory-report", "--kind", "exp", "--alpha", "0.5", "--T", "16"],
        ("timescales", None): ["timescales", str(files / "gru.pt"), "--T", "32", "--batch", "2", "--n-boot", "20",
                               "--no-progress"],                   # the file: _gru_file, made on first use
        ("sweep", "run"): ["sweep", "run", str(files / "sweep.json"), "--store", str(files / f"{case}.sqlite"),
                           "--no-progress"],
    }[(cmd, sub)]


VALID_TRIPLES = {"--rate-lags": ["1", "8", "4"], "--envelope-lags": ["1", "8", "4"]}


def with_flag(argv: list[str], flag: str, values: list[str]) -> list[str]:
    argv = list(argv)
    if flag in argv:
        i = argv.index(flag)
        j = i + 1
        while j < len(argv) and not argv[j].startswith("--"):
            j += 1
        argv[i + 1:j] = values
    else:
        argv += [flag, *values]
    return argv


def _cases():
    out = []
    for cmd, sub, action in FLAGS:
        flag = action.option_strings[0]
        is_float = (cmd, sub, flag) in FLOATS
        for kind, bad in (("nan", "nan"), ("inf", "inf"), ("negative", "-1"),
                          ("huge", "1e400" if is_float else "1" + "0" * 400)):
            positions = [None] if action.nargs in (None, "+") else list(range(action.nargs))
            for pos in positions:
                out.append(pytest.param(cmd, sub, flag, kind, bad, pos,
                                        marks=[pytest.mark.torch] if cmd in TORCH_COMMANDS else [],
                                        id=f"{cmd}-{sub or ''}-{flag}-{kind}" + ("" if pos is None else f"-{pos}")))
    return out


def _run(argv, capsys):
    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = exc.code
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("cmd,sub,flag,kind,bad,pos", _cases())
def test_every_numeric_flag_refuses_bad_numbers_by_name(cmd, sub, flag, kind, bad, pos, files, capsys):
    if cmd == "timescales":
        _gru_file(files)
    values = [bad] if pos is None else [bad if i == pos else v for i, v in enumerate(VALID_TRIPLES[flag])]
    argv = with_flag(base_argv(cmd, sub, files, f"{kind}-{flag.strip('-')}-{pos}"), flag, values)
    rc, out, err = _run(argv, capsys)
    assert "Traceback" not in err, err
    if kind == "huge" and rc == 0:
        return                                   # no upper bound on this flag, and the answer was quick
    name = flag.lstrip("-")
    assert rc == 2, (rc, out, err)
    assert err.count("\n") == 1 and (name in err or name.replace("-", "_") in err), err
    assert out == ""


@pytest.mark.parametrize("cmd", ["energy", "memory-report"])
def test_max_seconds_is_one_rule_in_every_command(cmd, capsys):
    """The limit of the cost estimates: a finite number of seconds > 0 everywhere (nan and inf were no limit)."""
    base = {"energy": ["energy", "--n", "12", "--t", "10"],
            "memory-report": ["memory-report", "--kind", "exp", "--alpha", "0.5", "--T", "16", "--no-prony"]}[cmd]
    for bad in ("nan", "inf", "-inf", "0", "-5", "x"):
        rc, out, err = _run(base + ["--max-seconds", bad], capsys)
        assert rc == 2 and "--max-seconds" in err and err.count("\n") == 1 and out == ""
    rc, out, err = _run(base + ["--max-seconds", "1e-3"], capsys)
    assert (rc == 0) or (rc == 2 and "--max-seconds 0.001" in err)


def test_positive_and_seconds_types_state_their_bounds():
    assert _parser.positive("1") == 1 and _parser.positive(str(10**18)) == 10**18
    for bad in ("0", "-3", str(10**18 + 1), "1.5", "nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            _parser.positive(bad)
    assert _parser.seconds("1e-300") == 1e-300 and np.isfinite(_parser.seconds("1e300"))
    for bad in ("0", "-1", "nan", "inf", "1e400", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            _parser.seconds(bad)
