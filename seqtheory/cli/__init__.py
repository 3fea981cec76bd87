"""``seqtheory COMMAND ...``: every command line of the toolkit, one module per command (``seqtheory COMMAND --help``).

``energy`` (:mod:`seqtheory.cli.energy`), ``horizon`` (:mod:`seqtheory.cli.horizon`), ``memory-report``
(:mod:`seqtheory.cli.memory_report`), ``timescales`` (:mod:`seqtheory.cli.timescales`), ``validate``
(:mod:`seqtheory.cli.validate`; also ``python -m validation``) and ``sweep`` (:mod:`seqtheory.cli.sweep`). Each
module parses its arguments, calls the library (which returns results and raises errors) and formats the
output; bad input is one line on stderr and exit status 2 (a file nested too deeply for Python included, in any
command); a command that needs PyTorch says so when it is not installed. ``seqtheory --version --json`` prints
``{"name": "seqtheory", "version": ...}``. Importing this package imports no command's dependencies.
"""

from __future__ import annotations

import importlib
import sys

from ._parser import OneLineParser

# name -> (one-line help, module of seqtheory.cli); a command's module is imported only when it runs
COMMANDS: dict[str, tuple[str, str]] = {
    "energy": ("exact signal energies Q_{n,t}, S_{n,t}, c = t/sqrt(n) and the regime", "energy"),
    "horizon": ("the weight scale sigma for a horizon, the depth at a scale, Glorot vs best (complex or real "
                "weights)", "horizon"),
    "memory-report": ("complexity, exponential-sum order, nearest family and best architectures of a memory "
                       "function", "memory_report"),
    "timescales": ("time scales, tail beta, envelope gate and phase of a trained GRU/LSTM (needs torch)",
                   "timescales"),
    "validate": ("run the registry of claims and write the validation report", "validate"),
    "sweep": ("run, inspect, plot or export an architecture or gated-RNN sweep (run needs torch)", "sweep"),
}


def _command_parser() -> OneLineParser:
    from seqtheory import __version__

    p = OneLineParser(prog="seqtheory", description="seqtheory: exact finite-width signal energies, controllable "
                      "memory functions and anti-collapse Levy SDEs, each checked against independent numerics.",
                      epilog="Every command takes --json; `seqtheory COMMAND --help` lists its flags.")
    p.add_argument("--version", action="version", version=f"seqtheory {__version__}")
    p.add_argument("--json", action="store_true", help="with --version: print it as JSON")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (text, _) in COMMANDS.items():
        sub.add_parser(name, help=text, add_help=False)
    return p


def main(argv: list[str] | None = None) -> int:
    """Dispatch ``argv`` (default ``sys.argv[1:]``) to the command's own parser and ``main``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if sorted(argv) == ["--json", "--version"]:           # argparse's version action would print text
        from seqtheory import __version__

        from ._json import dumps

        print(dumps({"name": "seqtheory", "version": __version__}))
        return 0
    if not argv or argv[0].startswith("-") or argv[0] not in COMMANDS:
        _command_parser().parse_args(argv[:1])       # --help, --version, or a one-line error naming the commands
        return 2                              # (not reached: parse_args exits for every such argv)
    name, rest = argv[0], argv[1:]
    prog = f"seqtheory {name}"
    try:
        return importlib.import_module(f"{__name__}.{COMMANDS[name][1]}").main(rest, prog=prog)
    except ImportError as exc:                # an optional extra's module: name the extra (theory._extras)
        from theory._extras import missing_extra, needs_extra

        hit = missing_extra(exc)
        if hit is None:
            raise
        print(f"{prog}: error: {hit[0]} is not installed; this {needs_extra(hit[1])}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except RecursionError:                    # the last guard: each command reads its files through _files
        print(f"{prog}: error: an input nests too deeply for Python (RecursionError)", file=sys.stderr)
        return 2
    except BrokenPipeError:                   # `seqtheory ... | head`: the reader left, nothing to report
        sys.stderr.close()
        return 0

