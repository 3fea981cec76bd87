"""Statistical verdicts for Monte Carlo checks.

Every Monte Carlo comparison in the toolkit has the form ``|estimate - exact| <= z * se``, where ``se``
is the standard error estimated from the same run and ``z`` comes from a stated false-alarm rate: the
probability that a *correct* closed form is flagged. For ``m`` simultaneous comparisons we use a
Bonferroni split, two-sided, ``z = Phi^{-1}(1 - p / (2 m))`` and never less than ``Z_MIN = 4.5``.
(With the default ``p = 1e-6`` and one comparison, z = 4.89.)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np
from scipy.special import ndtri

FALSE_ALARM = 1e-6
Z_MIN = 4.5


def z_for_false_alarm(p: float = FALSE_ALARM, m: int = 1) -> float:
    """Two-sided Bonferroni critical value for ``m`` comparisons at family false-alarm rate ``p``.

    >>> round(z_for_false_alarm(1e-6), 3)
    4.892
    >>> z_for_false_alarm(0.05) == Z_MIN   # never below 4.5
    True
    """
    if not (0.0 < p < 1.0):
        raise ValueError(f"p must be in (0, 1), got {p!r}")
    if m < 1:
        raise ValueError(f"m must be >= 1, got {m!r}")
    return max(Z_MIN, float(ndtri(1.0 - p / (2.0 * m))))


@dataclasses.dataclass
class Agreement:
    """Result of comparing estimates (with standard errors) to exact values at critical value ``z``."""

    estimate: np.ndarray
    se: np.ndarray
    exact: np.ndarray
    z: float

    @property
    def zscores(self) -> np.ndarray:
        return (self.estimate - self.exact) / self.se

    @property
    def ok(self) -> bool:
        return bool(np.all(np.abs(self.estimate - self.exact) <= self.z * self.se))

    @property
    def max_abs_z(self) -> float:
        return float(np.max(np.abs(self.zscores))) if self.zscores.size else 0.0


def agreement(estimate, se, exact, *, z: float) -> Agreement:
    """Compare arrays elementwise: ``|estimate - exact| <= z se``.

    Raises if any standard error is not strictly positive and finite, since a zero standard error would
    make the comparison vacuous (or impossible to pass) rather than statistical.
    """
    est = np.asarray(estimate, dtype=float).ravel()
    s = np.asarray(se, dtype=float).ravel()
    ex = np.asarray(exact, dtype=float).ravel()
    if not (est.shape == s.shape == ex.shape):
        raise ValueError(f"shapes differ: estimate {est.shape}, se {s.shape}, exact {ex.shape}")
    if z < Z_MIN:
        raise ValueError(f"z must be >= {Z_MIN}, got {z}")
    if not np.all(np.isfinite(s) & (s > 0)):
        raise ValueError("every standard error must be finite and > 0")
    if not np.all(np.isfinite(est)):
        raise ValueError("estimates must be finite")
    return Agreement(est, s, ex, float(z))


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence]) -> str:
    """A GitHub-flavoured Markdown table; floats printed with 6 significant digits."""

    def fmt(x) -> str:
        if isinstance(x, (float, np.floating)):
            return f"{float(x):.6g}" if math.isfinite(x) else str(float(x))
        return str(x)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(fmt(x) for x in r) + " |" for r in rows]
    return "\n".join(lines)
