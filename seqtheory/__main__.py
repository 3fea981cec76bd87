"""``python -m seqtheory``: the ``seqtheory`` command line (:mod:`seqtheory.cli`)."""

import sys

from seqtheory.cli import main

if __name__ == "__main__":
    sys.exit(main())
