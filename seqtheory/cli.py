"""``seqtheory COMMAND ...``: one command line for the toolkit's tools (``seqtheory COMMAND --help`` for its flags).

Each command is the ``python -m`` tool of the same job, run under the name ``seqtheory COMMAND`` (its parser
and its ``main``; nothing is parsed twice). Bad input is one line on stderr and exit status 2; a command that
needs PyTorch says so when it is not installed.
"""

from __future__ import annotations

import sys
from typing import Callable

from theory._cli import OneLineParser

_TORCH_HINT = "needs PyTorch: pip install 'seqtheory[models]' (CPU wheels: see the README's install section)"


def _energy(argv: list[str], prog: str) -> int:
    from theory.__main__ import main

    return main(["energy", *argv], prog=prog.rsplit(" ", 1)[0])


def _horizon(argv: list[str], prog: str) -> int:
    # numerics.signal_propagation.horizon_mc's command line is theory.horizon's: complex weights go to the closed forms of
    # theory.horizon, real weights (and Monte Carlo) to numerics.signal_propagation.horizon_mc
    from numerics.signal_propagation.horizon_mc import main

    return main(argv, prog=prog)


def _memory_profile(argv: list[str], prog: str) -> int:
    from numerics.memory_functions.memory_profile import main

    return main(argv, prog=prog)


def _timescales(argv: list[str], prog: str) -> int:
    from numerics.anticollapse.gated.rnn_timescales import main

    return main(argv, prog=prog)


def _validate(argv: list[str], prog: str) -> int:
    from validation.__main__ import main

    return main(argv, prog=prog)


def _sweep(argv: list[str], prog: str) -> int:
    from numerics.memory_functions.bench.sweep import main

    return main(argv, prog=prog)


# name -> (one-line help, runner); the runners import their tool only when called
COMMANDS: dict[str, tuple[str, Callable[[list[str], str], int]]] = {
    "energy": ("exact signal energies Q_{n,t}, S_{n,t}, c = t/sqrt(n) and the regime", _energy),
    "horizon": ("the weight scale sigma for a horizon, the depth at a scale, Glorot vs best (complex or real "
                "weights)", _horizon),
    "memory-profile": ("complexity, exponential-sum order, nearest family and best architectures of a memory "
                       "function", _memory_profile),
    "timescales": ("time scales, tail beta, envelope gate and phase of a trained GRU/LSTM (needs torch)",
                   _timescales),
    "validate": ("run the registry of claims and write the validation report", _validate),
    "sweep": ("run, inspect, plot or export an architecture sweep (run needs torch)", _sweep),
}


def _parser() -> OneLineParser:
    from seqtheory import __version__

    p = OneLineParser(prog="seqtheory", description="seqtheory: exact finite-width signal energies, controllable "
                      "memory functions and anti-collapse Levy SDEs, each checked against independent numerics.",
                      epilog="Every command takes --json; `seqtheory COMMAND --help` lists its flags.")
    p.add_argument("--version", action="version", version=f"seqtheory {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (text, _) in COMMANDS.items():
        sub.add_parser(name, help=text, add_help=False)
    return p


def main(argv: list[str] | None = None) -> int:
    """Dispatch ``argv`` (default ``sys.argv[1:]``) to the command's own parser and ``main``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") or argv[0] not in COMMANDS:
        _parser().parse_args(argv[:1])       # --help, --version, or a one-line error naming the commands
        return 2                              # (not reached: parse_args exits for every such argv)
    name, rest = argv[0], argv[1:]
    prog = f"seqtheory {name}"
    try:
        return COMMANDS[name][1](rest, prog)
    except ModuleNotFoundError as exc:
        if exc.name != "torch":
            raise
        print(f"{prog}: error: {_TORCH_HINT}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:                   # `seqtheory ... | head`: the reader left, nothing to report
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
