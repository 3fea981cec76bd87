"""iid initialisation laws of any symmetric law: exact rows, the cumulant structure, energies at any depth.

``laws`` (the :class:`Law` object, the named laws, :func:`as_law`), ``rows`` (the exact rows ``law_row`` from
the committed shape table), ``structure`` (how each cumulant enters the large-n expansion), ``energy``
(``Q_law``, ``S_law`` with an error estimate). The toolkit's own extension of Seleznova, arXiv:2605.05113 (2026),
Sec. 2 to non-Gaussian weights; ``docs/results/init-laws.md``. The names below are re-exported from those
modules (``__all__``: the ones a user needs first).
"""

from .energy import Q_law as Q_law, S_law as S_law, law_max_depth as law_max_depth
from .laws import (LAW_NAMES as LAW_NAMES, Law as Law, as_law as as_law, from_moments as from_moments,
                   gaussian as gaussian, rademacher as rademacher, sparse as sparse, student_t as student_t,
                   uniform as uniform)
from .rows import law_row as law_row, law_rows_max_k as law_rows_max_k

__all__ = ["Law", "as_law", "law_row", "Q_law", "S_law"]
