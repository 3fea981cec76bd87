"""The registry of claims: each check pairs a paper's closed form with independent numerics.

Run ``python -m validation`` (quick profile) or ``python -m validation --full``.
"""

from .registry import (ERROR, FAIL, INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, PASS, Check, Context, Outcome, Result, check,
                       discover, select)
from .report import markdown_table

__all__ = ["check", "discover", "select", "Check", "Context", "Outcome", "Result", "PASS", "FAIL",
           "NOT_REPRODUCED", "INCONCLUSIVE", "NOT_RUN", "ERROR", "markdown_table"]
