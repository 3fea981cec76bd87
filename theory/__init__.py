"""Exact and symbolic results (sympy, mpmath, numpy, scipy; python-flint optional). Never imports numba or torch."""
