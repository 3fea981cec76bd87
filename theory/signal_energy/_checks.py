"""(private) Argument checks, cost bounds and the optional python-flint of :mod:`theory.signal_energy`."""

from __future__ import annotations

import numpy as np

from theory._args import short_int, as_choice, as_dps, as_int_array, elementwise

METHODS = ("exact", "float", "mp", "ball")
MAX_SERIES_K = 1000               # stirling1_row, hultman_row, Q_series, *_symbolic (O(k^2) big-int ops)
MAX_SERIES_T = 300                # S_series (O(t^3))
MAX_EXACT_BITS = 1 << 22          # trace_moment, Q/S(method="exact"): integers up to ~4 Mbit (~2 s)
MAX_EXACT_DEN_BITS = 1 << 17      # Q(method="exact") without python-flint: n^(k+1), a quadratic Python gcd


def _check_method(method, dps):
    method = as_choice("method", method, METHODS)
    if method in ("exact", "float"):
        if dps is not None:
            raise ValueError(f"dps applies only to method 'mp' or 'ball', not {method!r}; got dps={dps!r}")
        return method, None
    return method, as_dps(dps)          # None: the ambient mpmath precision


def _check_log_method(method, dps):
    """log_Q / log_S / Q_all: method "float" (no dps) or "mp" (dps digits, default the ambient precision)."""
    method = as_choice("method", method, ("float", "mp"))
    return _check_method(method, dps)


def _check_exact_cost(n: int, k: int, quantity: str) -> None:
    """Exact paths: refuse up front what would take minutes (documented bounds, module docstring)."""
    if quantity in ("Q", "trace") and (k + 2) * (n + k + 2).bit_length() > MAX_EXACT_BITS:
        raise ValueError(f"k must satisfy (k+2) log2(n+k+2) <= {MAX_EXACT_BITS} for exact integers (got n={short_int(n)}, "
                         f"k={short_int(k)}): use method='mp'")
    # python-flint normalises once (fmpq); without it the Fraction's gcd is quadratic in the denominator
    if quantity == "Q" and _flint_or_none() is None and (k + 1) * (n.bit_length() - 1) > MAX_EXACT_DEN_BITS:
        raise ValueError(f"k must satisfy (k+1) log2(n) <= {MAX_EXACT_DEN_BITS} for method='exact' without "
                         f"python-flint (got n={short_int(n)}, k={short_int(k)}): install seqtheory[certified] or use method='mp'")
    # S: binary splitting, integers of ~ t log2(n t) bits (one gcd at the end)
    if quantity == "S" and (k + 1) * (n * (k + 2)).bit_length() > MAX_EXACT_BITS:
        raise ValueError(f"t must satisfy (t+1) log2(n (t+2)) <= {MAX_EXACT_BITS} for method='exact' "
                         f"(got n={short_int(n)}, t={short_int(k)}): use method='mp'")


def _broadcast(fn, n, k, k_name: str):
    """The scalar ``fn(n, k)`` over integer arrays (:func:`theory._args.elementwise`); None for scalars."""
    return elementwise(lambda **kw: fn(kw["n"], kw[k_name]), np.float64, {"n": n, k_name: k},
                       lambda name, v: as_int_array(name, v, minimum=1 if name == "n" else 0))


def _flint_or_none():
    """The python-flint module (optional extra ``certified``), or None."""
    try:
        import flint
    except ImportError:  # pragma: no cover - exercised only without the extra
        return None
    return flint
