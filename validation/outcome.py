"""What a check returns: its :class:`Outcome` and the verdicts (below ``validation.registry``, which re-exports
them, and ``validation.committed``, which reads committed verdicts).

Verdicts
--------
``pass``
    the numerics agree with the closed form / the claim holds under our conventions.

``fail``
    a closed form disagrees with its numerics: a bug in the toolkit (exit code 1).

``not reproduced``
    a *paper's* claim does not hold under the toolkit's documented conventions; the
    report gives the numbers. This is an honest scientific outcome, not a toolkit bug.

``inconclusive``
    the experiment did not test the claim (training not converged, seeds disagreeing more
    than the effect, a spectrum not resolved at this scale); the summary states the reason.
    Not a failure and not a finding: counted separately.

``not run``
    the check belongs to a larger profile than the one requested (e.g. GPU-scale).

``error``
    the check raised; counted as a failure.
"""

from __future__ import annotations

import dataclasses

PASS = "pass"
FAIL = "fail"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_RUN = "not run"
ERROR = "error"
VERDICTS = (PASS, FAIL, NOT_REPRODUCED, INCONCLUSIVE, NOT_RUN, ERROR)
FAILING = (FAIL, ERROR)


@dataclasses.dataclass
class Outcome:
    """What a check returns: the verdict, a one-line summary of the decisive numbers, and details.

    ``details`` is Markdown (tables, fitted rates); ``figures`` are file names inside the report
    directory (made with :meth:`Context.figure_path`); ``data`` holds JSON-able numbers for machines.
    """

    verdict: str
    summary: str
    details: str = ""
    figures: list[str] = dataclasses.field(default_factory=list)
    data: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == INCONCLUSIVE and not self.summary.strip():
            raise ValueError("an inconclusive outcome must state its reason in the summary")
