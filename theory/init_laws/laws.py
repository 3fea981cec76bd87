r"""Initialisation laws of iid weights: exact moments, cumulants, validity, the named laws and their parser.

A :class:`Law` is the law of the entries ``g`` of ``G`` in ``W = G / sqrt(n)``: symmetric, ``E g^2 = 1``, with
even moments ``m_{2r} = E g^{2r}`` (exact ``Fraction`` values) and cumulants ``kappa_{2r}`` (odd ones vanish).
The named laws, rescaled to variance 1 (the toolkit's conventions; ``docs/results/init-laws.md``):

- ``gaussian``: ``N(0, 1)`` (the real Gaussian field); ``m_{2r} = (2r-1)!!``.
- ``uniform``: uniform on ``[-sqrt 3, sqrt 3]`` (the family of PyTorch's and JAX's default initialisers);
  ``m_{2r} = 3^r / (2r+1)``.
- ``rademacher``: ``+-1`` with probability 1/2; ``m_{2r} = 1``.
- ``sparse:p``: ``B z / sqrt(p)``, ``B ~ Bernoulli(p)``, ``z ~ N(0, 1)``, ``0 < p <= 1``;
  ``m_{2r} = (2r-1)!! / p^(r-1)``.
- ``student:nu``: ``t_nu sqrt((nu-2)/nu)``, ``nu > 2``; ``m_{2r} = (nu-2)^r prod_{i<=r} (2i-1)/(nu-2i)`` for
  ``2r < nu``, infinite from ``2r >= nu``.
- ``moments:...``: any law given by ``m_4, m_6, ..., m_{2R}``; its moments as given, none beyond ``2R``.

:func:`from_moments` refuses moments that no law can have (``m_4 < 1``, or a Hankel moment matrix that is
not positive semidefinite: Hamburger's criterion), naming the first impossible argument. :func:`as_law`
parses the names above ("sparse:0.05", "student:6", "moments:3,15") and passes a :class:`Law` through.

>>> uniform().moment(4), sparse("0.05").moment(4), student_t(6).moment(4)
(Fraction(9, 5), Fraction(60, 1), Fraction(6, 1))
>>> as_law("student:6").max_order          # m_4 exists, m_6 is infinite
4
>>> from_moments(0.5)
Traceback (most recent call last):
    ...
ValueError: m4 must be >= 1 (E g^4 >= (E g^2)^2 = 1 for every law), got 1/2
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from functools import lru_cache
from typing import cast

__all__ = ["Law", "LAW_NAMES", "gaussian", "uniform", "rademacher", "sparse", "student_t", "from_moments",
           "as_law", "MAX_GIVEN_MOMENTS"]

LAW_NAMES = ("gaussian", "uniform", "rademacher", "sparse:P", "student:NU", "moments:M4,M6,...")
MAX_GIVEN_MOMENTS = 64       # from_moments: m_4 .. m_130 at most (rows need m_{2k}; the table stops far earlier)
_MAX_ORDER = 10**4           # moment orders served (exact rationals grow with the order)


@dataclasses.dataclass(frozen=True)
class Law:
    """The law of one weight entry ``g`` (symmetric, ``E g^2 = 1``): build it with the functions of this module.

    ``name`` (parseable by :func:`as_law`), ``kind`` (gaussian, uniform, rademacher, sparse, student, moments),
    ``param`` (None, ``p``, ``nu`` as a Fraction, or the tuple ``(m_4, m_6, ...)``). :meth:`moment` and
    :meth:`cumulant` are exact; ``max_order`` is the largest even order whose moment exists (None: all).
    """

    name: str
    kind: str
    param: object = None

    @property
    def max_order(self) -> int | None:
        """The largest even ``j`` with a finite (or given) ``m_j``; None when every moment exists."""
        if self.kind == "student":
            nu = cast(Fraction, self.param)
            j = math.ceil(nu) - 1                      # the largest integer below nu
            return j - j % 2
        if self.kind == "moments":
            return 2 + 2 * len(self.param)             # type: ignore[arg-type]
        return None

    @property
    def max_depth(self) -> int | None:
        """The largest k with a finite ``E tr((G^k)^T G^k)`` (it needs ``m_{2k}``); None: every k.

        >>> student_t(6).max_depth, gaussian().max_depth
        (2, None)
        """
        top = self.max_order
        return None if top is None else top // 2

    def moment(self, j) -> Fraction:
        """``m_j = E g^j`` exactly (0 for odd j); ValueError naming ``j`` where it is infinite or not given."""
        from .._args import as_int
        j = as_int("j", j, minimum=0, maximum=_MAX_ORDER)
        if j % 2:
            return Fraction(0)
        top = self.max_order
        if top is not None and j > top:
            if self.kind == "student":
                raise ValueError(f"j={j}: the moment E g^{j} of {self.name} is infinite (moments exist only for "
                                 f"orders below nu = {self.param}); the largest is m_{top}")
            raise ValueError(f"j={j}: the law {self.name} gives moments up to m_{top} only")
        return _moment(self.kind, self.param, j // 2)

    def log_moment(self, j) -> float:
        """``log m_j`` in float64 for even ``j`` (O(1) for the named laws: the guard of the large-n expansion
        evaluates it up to orders in the thousands); same domain as :meth:`moment`.

        >>> round(sparse("0.05").log_moment(40), 6) == round(math.log(float(sparse("0.05").moment(40))), 6)
        True
        """
        from .._args import as_int
        j = as_int("j", j, minimum=0, maximum=10**7)
        if j % 2:
            raise ValueError(f"j={j}: odd moments vanish (log 0)")
        r = j // 2
        if self.kind in ("moments",) or j <= 64:
            return math.log(self.moment(j))
        if self.kind == "student" and j > (self.max_order or 0):
            self.moment(j)                          # the domain error
        lg = math.lgamma
        dfact = lg(2 * r + 1) - r * math.log(2.0) - lg(r + 1)          # log (2r-1)!!
        if self.kind == "gaussian":
            return dfact
        if self.kind == "uniform":
            return r * math.log(3.0) - math.log(2 * r + 1)
        if self.kind == "rademacher":
            return 0.0
        if self.kind == "sparse":
            return dfact - (r - 1) * math.log(float(cast(Fraction, self.param)))
        nu = float(cast(Fraction, self.param))      # student: (nu-2)^r (2r-1)!! / prod_{i<=r} (nu - 2i)
        return r * math.log(nu - 2) + dfact - (r * math.log(2.0) + lg(nu / 2 - 0.0) - lg(nu / 2 - r))

    def cumulant(self, j) -> Fraction:
        """``kappa_j`` exactly (0 for odd j; ``kappa_2 = 1``), from the moments by the recursion
        ``m_j = sum_i C(j-1, i-1) kappa_i m_{j-i}``; same domain as :meth:`moment`.

        >>> gaussian().cumulant(4), rademacher().cumulant(4), uniform().cumulant(4)
        (Fraction(0, 1), Fraction(-2, 1), Fraction(-6, 5))
        """
        from .._args import as_int
        j = as_int("j", j, minimum=0, maximum=_MAX_ORDER)
        self.moment(j)                                  # the domain check
        return _cumulant(self.kind, self.param, j)

    def __str__(self) -> str:
        return self.name


@lru_cache(maxsize=4096)
def _moment(kind: str, param, r: int) -> Fraction:
    """``m_{2r}`` of a law (no domain check)."""
    if r == 0:
        return Fraction(1)
    if kind == "gaussian":
        return Fraction(math.prod(range(2 * r - 1, 0, -2)))
    if kind == "uniform":
        return Fraction(3**r, 2 * r + 1)
    if kind == "rademacher":
        return Fraction(1)
    if kind == "sparse":
        return math.prod(range(2 * r - 1, 0, -2)) / param ** (r - 1)
    if kind == "student":
        nu = param
        out = (nu - 2) ** r
        for i in range(1, r + 1):
            out *= Fraction(2 * i - 1) / (nu - 2 * i)
        return out
    if kind == "moments":
        return Fraction(1) if r == 1 else param[r - 2]
    raise ValueError(f"unknown law kind {kind!r}")


@lru_cache(maxsize=4096)
def _cumulant(kind: str, param, j: int) -> Fraction:
    if j % 2 or j == 0:
        return Fraction(0)
    out = _moment(kind, param, j // 2)
    for i in range(2, j, 2):                        # m_j = sum_{i even} C(j-1, i-1) kappa_i m_{j-i}
        out -= math.comb(j - 1, i - 1) * _cumulant(kind, param, i) * _moment(kind, param, (j - i) // 2)
    return out


def _exact(name: str, value, *, what: str = "a number") -> Fraction:
    """A real parameter as an exact Fraction: ints and Fractions as they are, floats and decimal strings by their
    shortest decimal form ("0.05" and 0.05 both give 1/20)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be {what}, not a bool (got {value!r})")
    try:
        if isinstance(value, Fraction):
            out = value
        elif isinstance(value, int) or hasattr(value, "__index__"):
            out = Fraction(int(value))
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(f"{name} must be finite, got {value!r}")
            out = Fraction(repr(value))
        elif isinstance(value, str):
            out = Fraction(value.strip())
        else:
            import numbers
            if not isinstance(value, numbers.Rational):
                raise TypeError
            out = Fraction(int(value.numerator), int(value.denominator))
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        if isinstance(exc, ValueError) and str(exc).startswith(name):
            raise
        raise (TypeError if not isinstance(value, str) else ValueError)(
            f"{name} must be {what}, got {type(value).__name__} {value!r:.60}") from None
    return out


def _fmt(x: Fraction) -> str:
    """A Fraction as its terminating decimal when it has one of at most 12 digits ("0.05"), else "a/b"."""
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        text = f"{float(x):.12g}"
        if Fraction(text) == x:
            return text
    return str(x)


def gaussian() -> Law:
    """The real Gaussian law ``N(0, 1)``: ``m_{2r} = (2r-1)!!``, every cumulant beyond ``kappa_2`` zero."""
    return Law("gaussian", "gaussian")


def uniform() -> Law:
    """Uniform on ``[-sqrt 3, sqrt 3]`` (variance 1): ``m_{2r} = 3^r / (2r+1)``; PyTorch's and JAX's default
    initialisers (Kaiming/LeCun uniform) are this law up to the scale."""
    return Law("uniform", "uniform")


def rademacher() -> Law:
    """``+-1`` with probability 1/2: every even moment 1 (``Q_{n,2} = 1`` exactly)."""
    return Law("rademacher", "rademacher")


def sparse(p) -> Law:
    """Bernoulli(p) times ``N(0, 1/p)`` (variance 1): ``m_{2r} = (2r-1)!! / p^(r-1)``; ``0 < p <= 1`` (p = 1 is the
    Gaussian law's moments under another name). ``p`` exact: a float or a decimal string by its decimal form.

    >>> sparse(0.05).name, sparse("1/3").name, sparse("1/4").moment(4)
    ('sparse:0.05', 'sparse:1/3', Fraction(12, 1))
    """
    p = _exact("p", p, what="a probability in (0, 1]")
    if not 0 < p <= 1:
        raise ValueError(f"p must be in (0, 1] (the fraction of nonzero entries), got {p}")
    return Law(f"sparse:{_fmt(p)}", "sparse", p)


def student_t(nu) -> Law:
    """Student's t with ``nu`` degrees of freedom rescaled to variance 1, ``nu > 2``: ``m_{2r}`` finite only for
    ``2r < nu`` (so ``E ||W^k x||^2`` is infinite from ``k >= nu / 2``).

    >>> student_t(6).moment(4), student_t("9/2").max_order
    (Fraction(6, 1), 4)
    """
    nu = _exact("nu", nu, what="a number of degrees of freedom > 2")
    if not 2 < nu <= 10**6:
        raise ValueError(f"nu must be in (2, 1e6] (the variance exists only for nu > 2), got {nu}")
    return Law(f"student:{_fmt(nu)}", "student", nu)


def from_moments(*moments) -> Law:
    r"""A law given by its even moments ``m_4, m_6, ..., m_{2R}`` (``m_2 = 1``, odd moments 0), ``1 <= R - 1 <=
    MAX_GIVEN_MOMENTS``.

    Refuses moments that no law can have, naming the first impossible argument: ``m_4 < 1``, and any ``m_{2r}``
    whose Hankel matrix ``H(r) = (m_{i+j})_{i,j <= r}`` (odd moments 0) is not positive semidefinite, or is of a
    higher rank than a singular ``H(r-1)`` (a singular ``H(r-1)`` means a law with finitely many atoms, whose
    later moments are fixed). This is the solvability criterion of the truncated Hamburger moment problem
    (R. Curto and L. Fialkow, "Recursiveness, positivity, and truncated moment problems", Houston J. Math. 17
    (1991)), applied at every truncation. Exact arithmetic (floats by their decimal form).

    >>> from_moments(3, 15).moment(6), from_moments(3, 15).max_order
    (Fraction(15, 1), 6)
    >>> from_moments(3, 5)
    Traceback (most recent call last):
        ...
    ValueError: m6=5 is impossible with the moments before it: the Hankel matrix of m_0..m_6 is not positive semidefinite (no law has these moments; for m4=3, m6 must be >= 9)
    >>> from_moments(1, 2)                      # m4 = 1: g = +-1, so every moment is 1
    Traceback (most recent call last):
        ...
    ValueError: m6=2 is impossible with the moments before it: the Hankel matrix of m_0..m_6 has rank 3 while that of m_0..m_4 is 2: a law with finitely many atoms is determined by its first moments (no law has these moments)
    """
    if not moments:
        raise TypeError("from_moments needs at least m4 (from_moments(m4, m6, ...))")
    if len(moments) > MAX_GIVEN_MOMENTS:
        raise ValueError(f"from_moments takes at most {MAX_GIVEN_MOMENTS} moments (m4..m{2 * MAX_GIVEN_MOMENTS + 2}), "
                         f"got {len(moments)}")
    ms = tuple(_exact(f"m{2 * i + 4}", m, what="a real number") for i, m in enumerate(moments))
    if ms[0] < 1:
        raise ValueError(f"m4 must be >= 1 (E g^4 >= (E g^2)^2 = 1 for every law), got {ms[0]}")
    s = [Fraction(1), Fraction(0), Fraction(1), Fraction(0)]          # s_j = E g^j, odd ones 0
    for m in ms:
        s += [m, Fraction(0)]
    rank_before = 2                                                     # H(1) = I
    for r in range(2, len(ms) + 2):
        h = [[s[i + j] for j in range(r + 1)] for i in range(r + 1)]
        rank = _psd_rank(h)
        if rank is None or (rank_before < r and rank != rank_before):
            hint = f"; for m4={ms[0]}, m6 must be >= {ms[0] ** 2}" if r == 3 and rank is None else ""
            why = ("is not positive semidefinite" if rank is None else
                   f"has rank {rank} while that of m_0..m_{2 * r - 2} is {rank_before}: a law with finitely many "
                   "atoms is determined by its first moments")
            raise ValueError(f"m{2 * r}={ms[r - 2]} is impossible with the moments before it: the Hankel matrix of "
                             f"m_0..m_{2 * r} {why} (no law has these moments{hint})")
        rank_before = rank
    return Law("moments:" + ",".join(_fmt(m) for m in ms), "moments", ms)


def _psd_rank(a: list[list[Fraction]]) -> int | None:
    """The rank of a symmetric rational matrix if it is positive semidefinite, else None (exact): a symmetric
    elimination that meets no negative pivot, nor a zero pivot whose row is not zero (that row and column
    are then dropped), is a proof of semidefiniteness; the nonzero pivots count the rank."""
    a = [row[:] for row in a]
    rank = 0
    while a:
        p = a[0][0]
        if p < 0:
            return None
        if p == 0:
            if any(x != 0 for x in a[0]):
                return None
            a = [row[1:] for row in a[1:]]
            continue
        rank += 1
        a = [[a[i][j] - a[i][0] * a[0][j] / p for j in range(1, len(a))] for i in range(1, len(a))]
    return rank


def as_law(value, *, name: str = "init") -> Law:
    """A :class:`Law`, or its name: "gaussian", "uniform", "rademacher", "sparse:P", "student:NU" (also "student_t:NU"),
    "moments:M4,M6,..." (case and spaces ignored). TypeError / ValueError naming ``name`` otherwise.

    >>> as_law("sparse:0.05").moment(4), as_law(" Uniform ").name
    (Fraction(60, 1), 'uniform')
    >>> as_law("cauchy")
    Traceback (most recent call last):
        ...
    ValueError: init must be a law: gaussian, uniform, rademacher, sparse:P, student:NU, moments:M4,M6,... (or a theory.init_laws.Law), got 'cauchy'
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str (the parameter named in errors), got {name!r:.40}")
    if isinstance(value, Law):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a law name ({', '.join(LAW_NAMES)}) or a theory.init_laws.Law, "
                        f"got {type(value).__name__} {value!r:.60}{_other_family(value)}")
    text = value.strip().lower().replace(" ", "")
    head, sep, arg = text.partition(":")
    simple = {"gaussian": gaussian, "normal": gaussian, "uniform": uniform, "rademacher": rademacher}
    try:
        if head in simple and not sep:
            return simple[head]()
        if head == "sparse" and arg:
            return sparse(arg)
        if head in ("student", "student_t", "t") and arg:
            return student_t(arg)
        if head == "moments" and arg:
            return from_moments(*arg.split(","))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}={value!r}: {exc}") from None
    raise ValueError(f"{name} must be a law: {', '.join(LAW_NAMES)} (or a theory.init_laws.Law), got {value!r:.60}"
                     f"{_other_family(value)}")


def _other_family(value) -> str:
    """The hint for a structured initialisation passed where an iid law is taken: the two families share the
    ``init=`` name, not the functions."""
    from ..structured_init import INIT_NAMES, OrthogonalInit, RingInit, IdentityNoiseInit
    structured = isinstance(value, (OrthogonalInit, RingInit, IdentityNoiseInit)) or \
        (isinstance(value, str) and value.strip().lower().partition(":")[0] in INIT_NAMES)
    return ("; that is a structured initialisation (not iid entries): its energies are "
            "theory.structured_init.Q_structured / S_structured, its Monte Carlo "
            "numerics.signal_propagation.structured_mc.estimate_structured") if structured else ""
