"""(private) The sympy forms of :mod:`theory.signal_energy`: ``E tr((G^k)^* G^k)``, ``Q`` and ``S`` as expressions in
``n`` and the generating function (Seleznova 2026, Sec. 2)."""

from __future__ import annotations

import numpy as np
import sympy

from theory._args import as_int, as_real

from ._rows import Q_series, S_series, hultman_row


def _symbol(n, name: str = "n"):
    """The width: None -> the positive integer symbol n; a sympy expression with free symbols is kept;
    a number must be an integer >= 1 (the closed forms are polynomials in 1/n: n = 0 divides by zero)."""
    if n is None:
        return sympy.Symbol(name, positive=True, integer=True)
    if isinstance(n, sympy.Basic) and n.free_symbols:
        return n
    return sympy.Integer(as_int(name, n, minimum=1))


def _series_variable(u):
    """u: None -> the symbol u; a symbolic expression; or a real number with |u| < 1 (where the series converges)."""
    if u is None:
        return sympy.Symbol("u")
    if isinstance(u, sympy.Basic) and u.free_symbols:
        return u
    if isinstance(u, sympy.Basic) and u.is_real:
        u = float(u)
    value = as_real("u", u, minimum=-1.0, maximum=1.0, open_min=True, open_max=True)
    return sympy.Rational(u) if isinstance(u, (int, np.integer)) else sympy.Float(value)


def trace_moment_symbolic(k: int, n=None) -> sympy.Expr:
    """``E tr((G^k)^* G^k)`` as a sympy polynomial in the symbol ``n`` (Hultman coefficients)."""
    row = hultman_row(k)
    n = _symbol(n)
    return sympy.Add(*[c * n**j for j, c in enumerate(row) if c])


def Q_symbolic(k: int, n=None) -> sympy.Expr:
    """``Q_{n,k}`` as a sympy expression in ``n``: a polynomial in ``1/n^2`` (Theorem 2.1).

    >>> Q_symbolic(3)
    1 + 5/n**2
    """
    series = Q_series(k)
    n = _symbol(n)
    return sympy.Add(*[c / n ** (2 * g) for g, c in enumerate(series) if c])


def S_symbolic(t: int, n=None) -> sympy.Expr:
    """``S_{n,t} = sum_{k<=t} Q_{n,k}`` as a sympy expression in ``n``."""
    series = S_series(t)
    n = _symbol(n)
    return sympy.Add(*[c / n ** (2 * g) for g, c in enumerate(series) if c])


def generating_function(u=None, n=None) -> sympy.Expr:
    r"""``(1-u)^(-n) - (1+u)^n = sum_k E tr((G^k)^* G^k) u^(k+2) / k!`` (Seleznova 2026, Sec. 2).

    >>> import sympy
    >>> from theory.signal_energy import trace_moment
    >>> u = sympy.Symbol("u")
    >>> ser = sympy.series(generating_function(u, 3), u, 0, 6).removeO()
    >>> [ser.coeff(u, k + 2) * sympy.factorial(k) for k in range(4)] == [trace_moment(3, k) for k in range(4)]
    True
    """
    u = _series_variable(u)
    n = _symbol(n)
    return (1 - u) ** (-n) - (1 + u) ** n
