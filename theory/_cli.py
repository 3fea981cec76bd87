"""(private) The command lines' argument parser: a usage error is one line on stderr and exit status 2.

Every toolkit command line (``python -m theory``, ``python -m theory.horizon``, ``numerics.signal_propagation.horizon_mc``,
``numerics.memory_functions.memory_profile``, ``numerics.anticollapse.gated.rnn_timescales``, ``numerics.memory_functions.bench.sweep``,
``python -m validation`` and ``seqtheory``) builds its parser from :class:`OneLineParser`.
"""

from __future__ import annotations

import argparse
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a usage error as one line (the full usage is one ``--help`` away).

    >>> p = OneLineParser(prog="demo")
    >>> _ = p.add_argument("--n", type=int, required=True, help="width")
    >>> p.parse_args(["--n", "x"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")
