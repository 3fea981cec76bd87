"""iid initialisation laws of any symmetric law: exact rows, the cumulant structure, energies at any depth.

``laws`` (the :class:`Law` object, the named laws, :func:`as_law`), ``rows`` (the exact rows ``law_row`` from
the committed shape table), ``structure`` (how each cumulant enters the large-n expansion), ``energy``
(``Q_law``, ``S_law`` with an error estimate). The toolkit's own extension of Seleznova, arXiv:2605.05113 (2026),
Sec. 2 to non-Gaussian weights; ``docs/results/init-laws.md``.
"""

from .laws import LAW_NAMES, Law, as_law, from_moments, gaussian, rademacher, sparse, student_t, uniform
from .rows import law_row, law_rows_max_k

__all__ = ["LAW_NAMES", "Law", "as_law", "from_moments", "gaussian", "rademacher", "sparse", "student_t", "uniform",
           "law_row", "law_rows_max_k"]
