"""Numerics of the signal-propagation paper (Seleznova 2026, arXiv:2605.05113; ``docs/papers/signal-propagation.md``).

``wick`` (Wick/Hultman pairing counts, numba), ``ginibre`` (Ginibre Monte Carlo of Q and S),
``quaternion_ginibre`` (the quaternion dual), ``real_wick`` (real-weight rows by enumeration),
``real_wick_pfaffian`` (the same rows in polynomial time), ``loop_equations`` (their recursion check),
``real_regimes`` (real vs complex weights along the regimes), ``horizon_mc`` (initialisation for a horizon
with real weights and Monte Carlo), ``law_rows`` / ``law_cumulants`` (the rows of iid weights of any symmetric
law by two routes: the shape enumeration and the cumulant form) and ``law_sampling`` (a sampler per law). The
committed rows live in ``theory/data`` (``real_wick_rows.json``, ``law_shape_counts.json``). No PyTorch.
"""
