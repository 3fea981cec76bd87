"""Each command's help and its behaviour agree (issue 44): what ``--help`` advertises as a choice is a choice
the command accepts (or refuses with a reason, never "invalid choice"), no help text offers a value its
option refuses, and every error names the flag the user typed (``--t``, not the library's ``k``).

Every command and subcommand is found by walking the parsers (``seqtheory.cli.COMMANDS``, each module's
``_parser``), so a new option is covered without editing this file.
"""

from __future__ import annotations

import argparse
import importlib
import re

import pytest

from seqtheory.cli import COMMANDS

# a cheap valid command line per (sub)command whose options are exercised by running it
BASE = {
    "energy": ["--n", "4", "--t", "2"],
    "horizon sigma": ["sigma", "--n", "16", "--t", "4", "--tol", "0.2"],
    "horizon depth": ["depth", "--n", "16", "--sigma", "1", "--tol", "0.2"],
    "horizon table": ["table", "--n", "16", "--tol", "0.2"],
    "memory-report": ["--kind", "exp", "--alpha", "0.5", "--T", "32", "--no-prony"],
}
# values no option of a numeric or path kind accepts in every position: each refused one must name its flag
BAD = ["-1", "0", "nan", "1e400", "x"]


def _module(command: str):
    return importlib.import_module(f"seqtheory.cli.{COMMANDS[command][1]}")


def _parsers():
    """``(name, parser)`` for every command and subcommand (``"horizon sigma"``)."""
    out = []
    for command in COMMANDS:
        stack = [(command, _module(command)._parser(f"seqtheory {command}"))]
        while stack:
            name, parser = stack.pop()
            subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            out.append((name, parser))
            for action in subs:
                stack += [(f"{name} {sub}", p) for sub, p in action.choices.items()]
    return out


PARSERS = _parsers()


def _options(parser):
    return [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]


def test_every_command_and_subcommand_is_walked():
    names = {n for n, _ in PARSERS}
    assert {"energy", "horizon sigma", "horizon depth", "horizon table", "memory-report", "timescales", "validate",
            "sweep list", "sweep run", "sweep status", "sweep plot", "sweep export"} <= names
    assert set(BASE) <= names


@pytest.mark.parametrize("name,parser", PARSERS, ids=[n for n, _ in PARSERS])
def test_help_advertises_exactly_the_choices_and_offers_no_other_value(name, parser):
    text = parser.format_help()
    options = {s: a for a in _options(parser) for s in a.option_strings}
    for action in _options(parser):
        if action.choices is not None:
            shown = re.search(re.escape(action.option_strings[-1]) + r" \{([^}]*)\}", text)
            assert shown and set(shown.group(1).split(",")) == {str(c) for c in action.choices}, (name, action.dest)
    # a help text that names "--flag VALUE" of an option with choices offers a value that option accepts
    # (was: `horizon depth --help` offered "--method mc", then "invalid choice")
    for action in parser._actions:
        for flag, value in re.findall(r"(--[a-z][\w-]*)[ =]([A-Za-z][\w.-]*)", action.help or ""):
            target = options.get(flag)
            if target is not None and target.choices is not None:
                assert value in target.choices, (name, action.dest, f"help offers {flag} {value}")


def _run(command_path: str, argv: list[str], capsys) -> tuple[int, str]:
    command, _, _ = command_path.partition(" ")
    main = _module(command).main
    try:
        code = main(argv, prog=f"seqtheory {command}")
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.err


def _with(base: list[str], flag: str, value: str) -> list[str]:
    """``base`` with ``flag`` set to ``value`` (replacing its value when ``base`` has it)."""
    argv = list(base)
    if flag in argv:
        argv[argv.index(flag) + 1] = value
        return argv
    return argv + [flag, value]


CHOICES = [(name, action.option_strings[-1], str(choice))
           for name, parser in PARSERS if name in BASE
           for action in _options(parser) if action.choices is not None for choice in action.choices]


@pytest.mark.parametrize("name,flag,choice", CHOICES, ids=[" ".join(c) for c in CHOICES])
def test_every_advertised_choice_is_accepted_or_refused_with_a_reason(name, flag, choice, capsys):
    code, err = _run(name, _with(BASE[name], flag, choice), capsys)
    assert code in (0, 1) or (code == 2 and "invalid choice" not in err and flag in err), (code, err)


def test_the_choices_cover_every_method():
    assert {("horizon depth", "--method", m) for m in ("float", "exact", "mc")} <= set(CHOICES)
    assert {("horizon sigma", "--method", m) for m in ("float", "mp", "mc")} <= set(CHOICES)
    assert ("energy", "--method", "ball") in set(CHOICES)


VALUED = [(name, action.option_strings[-1], bad)
          for name, parser in PARSERS if name in BASE
          for action in _options(parser)
          if action.nargs is None and action.choices is None and not isinstance(action, argparse._StoreConstAction)
          and action.option_strings[-1] != "--file" for bad in BAD]


@pytest.mark.parametrize("name,flag,bad", VALUED, ids=[" ".join(v) for v in VALUED])
def test_a_refused_value_is_named_by_its_flag(name, flag, bad, capsys):
    """Each refused bad value names the flag the user typed, and no library parameter name the user never
    typed (the module's FLAGS map them: energy's ``k`` is ``--t``)."""
    code, err = _run(name, _with(BASE[name], flag, bad), capsys)
    if code == 0:
        return                       # accepted (e.g. --max-seconds 1e400 is no limit)
    assert code == 2 and err.count("\n") == 1 and flag in err, (code, err)
    flags = getattr(_module(name.partition(" ")[0]), "FLAGS", {})
    for param, mapped in flags.items():
        if param != mapped.lstrip("-"):
            assert not re.search(rf"(?<![\w-]){re.escape(param)}(?:\s*=|\s+must\b)", err), (param, err)


def test_an_exact_refusal_names_t_not_k(capsys):
    """issue 44: ``energy --method exact`` refused a deep t as "k must satisfy ... (got n=..., k=...)"."""
    code, err = _run("energy", ["--n", "1e18", "--t", "1e9", "--method", "exact"], capsys)
    assert code == 2 and err.startswith("seqtheory energy: error: --t must satisfy (t+2) log2(n+t+2)")
    assert "--t 1000000000" in err and "--method mp" in err and not re.search(r"\bk\b", err), err


def test_the_bad_value_sweep_reaches_every_option_of_the_run_commands():
    assert {(n, f) for n, f, _ in VALUED} >= {("energy", "--t"), ("energy", "--dps"), ("horizon sigma", "--tol"),
                                             ("horizon sigma", "--dps"), ("horizon depth", "--sigma"),
                                             ("memory-report", "--far-threshold"), ("memory-report", "--m-max")}
