"""``python -m validation``: the launcher of ``seqtheory validate`` (:mod:`seqtheory.cli.validate`), kept as an
entry point; the command line itself lives with the others in ``seqtheory/cli/``."""

import sys

from seqtheory.cli.validate import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m validation"))
