"""``python -m seqtheory``: the ``seqtheory`` command line (:mod:`seqtheory.cli`)."""

import sys

from seqtheory.cli import main

sys.exit(main())
