"""Result objects shared by the toolkit's approximate energies: :class:`Energy` (a value, its error, its source).

Energies that are exact return numbers of their method's type (``theory.signal_energy.Q``: ``Fraction``,
``float``, ``mpf``, ``arb``); energies that are approximations (the real-weight expansion of
:mod:`theory.real_expansion`; later, energies of other initialisation laws) return an :class:`Energy`, which
prints the value only to the digits its error supports (docs/api/vocabulary.md).

>>> Energy(1.0426213997913566, 5.8e-12, "expansion")
Energy(value=1.0426213997914, error=5.8e-12, source='expansion')
>>> print(Energy(1.5, 0.0, "exact rows"))
1.5 (exact rows)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Generic, TypeVar

import mpmath
import numpy as np

from ._types import FloatArray, mpf

__all__ = ["Energy"]

V = TypeVar("V", float, FloatArray, mpf)


@dataclasses.dataclass(frozen=True, repr=False)
class Energy(Generic[V]):
    """An approximate energy with its error estimate and where it came from.

    Returned by :func:`theory.real_expansion.QR` and :func:`theory.real_expansion.SR` (real-weight energies);
    meant for every energy that is not a closed form (one class, reused by later initialisation laws).
    ``str()`` and ``repr()`` show the value to the decimal place of the error's second significant digit
    (``value +/- error``), so a 40-digit ``mpf`` with an error of 6e-15 prints 16 decimals, not 40; the
    fields keep every digit.

    Parameters
    ----------
    value : float, numpy.ndarray or mpmath.mpf
        The energy (an array for array arguments on the float path).
    error : float, numpy.ndarray or mpmath.mpf
        An estimate of ``|value - exact|`` of the same kind: the truncation estimate plus the final rounding
        (0 where the value is an exact row read in float64, whose rounding is below float64's 1e-16).
    source : str
        Where the value came from, e.g. ``"exact rows"``, ``"expansion"``.

    Returns
    -------
    Energy
        A frozen record.

    Examples
    --------
    >>> with mpmath.workdps(40):
    ...     e = Energy(mpmath.mpf("1.042621399791356561400000000001"), mpmath.mpf("5.8e-15"), "expansion")
    >>> print(e)                          # 40 digits held, 17 shown: the error's second digit is the 16th decimal
    1.0426213997913566 +/- 5.8e-15 (expansion)
    >>> print(Energy(np.array([1.0, 1.04262139979]), np.array([0.0, 2e-11]), "exact rows and expansion"))
    [1.0 1.04262139979 +/- 2e-11] (exact rows and expansion)
    """

    value: V
    error: V
    source: str

    def __str__(self) -> str:
        return f"{_pm(self.value, self.error)} ({self.source})"

    def __repr__(self) -> str:
        if isinstance(self.value, np.ndarray):
            shown = _pm(self.value, self.error)
            return f"Energy(value={shown}, source={self.source!r})"
        return (f"Energy(value={_digits(self.value, self.error)}, error={_short(self.error)}, "
                f"source={self.source!r})")


def _short(error) -> str:
    """An error to two significant digits."""
    e = float(error)
    return "0.0" if e == 0 else f"{e:.2g}"


def _digits(value, error) -> str:
    """``value`` to the decimal place of the second significant digit of ``error`` (all of a float's digits
    when the error is 0; an mpf's own digits then)."""
    v, e = float(value), abs(float(error))
    if e == 0 or not math.isfinite(e) or not math.isfinite(v):
        if isinstance(value, mpmath.mpf):
            return mpmath.nstr(value, max(1, int(value.context.prec * 0.30103)))
        return repr(v)
    top = math.floor(math.log10(abs(v))) if v != 0 else math.floor(math.log10(e))
    sig = max(1, top - math.floor(math.log10(e)) + 2)
    if isinstance(value, mpmath.mpf):
        return mpmath.nstr(value, sig, strip_zeros=False)
    return repr(v) if sig >= 17 else f"{v:.{sig}g}"      # repr: a float's own (shortest) 17 digits


def _pm(value, error) -> str:
    """``value +/- error`` (an array: element by element, numpy's layout)."""
    if isinstance(value, np.ndarray):
        v, e = np.asarray(value), np.broadcast_to(np.asarray(error), np.shape(value))
        one = {i: _pm(v.flat[i], e.flat[i]) for i in range(v.size)}
        return np.array2string(np.arange(v.size).reshape(v.shape), separator=" ",
                               formatter={"int": lambda i: one[int(i)]})
    text = _digits(value, error)
    return text if float(error) == 0 else f"{text} +/- {_short(error)}"
