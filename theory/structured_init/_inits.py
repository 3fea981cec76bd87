"""(private) The structured initialisation laws of :mod:`theory.structured_init` and their names.

One spec per model: these frozen records are what the closed forms evaluate and what
:mod:`numerics.signal_propagation.structured_mc` samples. Parameters are checked on construction (a bad value is a
TypeError/ValueError naming the parameter); real parameters keep the value given (int, float, Fraction) and expose
its exact rational value, so ``method="exact"`` is exact for every input (a float is the dyadic rational it
stores: pass ``Fraction(9, 10)`` or the name ``"ring:r_min=0.9"`` for nine tenths).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from fractions import Fraction
from typing import Any, Union

from theory._args import as_bool, as_choice, as_real, check_ordered

__all__ = ["FIELDS", "INIT_NAMES", "OrthogonalInit", "RingInit", "RotationBlocksInit", "IdentityNoiseInit",
           "StructuredInit", "as_init"]

FIELDS = ("real", "complex")
TWO_PI = 2 * math.pi
PARAM_LIMIT = 1e6          # |alpha|, |beta| of identity plus noise: far beyond any initialisation in use


def exact_real(name: str, value: Any, *, minimum: float | None = None, maximum: float | None = None) -> Fraction:
    """``value`` (an int, a float or a Fraction, numpy scalars included) as an exact Fraction, checked to lie in
    ``[minimum, maximum]`` exactly (a float is the dyadic rational it stores)."""
    try:
        as_real(name, value)                  # the type and finiteness checks, with their messages
    except OverflowError:
        raise ValueError(f"{name} must be a finite real number of float64 range, got {value!r:.60}") from None
    if isinstance(value, numbers.Rational):
        out = Fraction(int(value.numerator), int(value.denominator))
    else:
        out = Fraction(*value.as_integer_ratio())
    if minimum is not None and out < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    if maximum is not None and out > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value!r}")
    return out


@dataclasses.dataclass(frozen=True)
class OrthogonalInit:
    """A Haar-distributed orthogonal (``field="real"``) or unitary (``field="complex"``) recurrent matrix W.

    ``W^k`` is orthogonal (unitary) for every k, so ``||W^k x|| = ||x||`` for every draw and every x: the
    energies are ``Q = 1`` and ``S = t + 1`` exactly at every width (:mod:`theory.structured_init`). Saxe,
    McClelland, Ganguli (2014), "Exact solutions to the nonlinear dynamics of learning in deep linear neural
    networks", ICLR (orthogonal initialisation); Mezzadri (2007), "How to generate random matrices from the
    classical compact groups", Notices AMS 54 (the Haar sampler).

    Parameters
    ----------
    field : {"complex", "real"}
        The unitary group U(n) (default, the vocabulary's default field) or the orthogonal group O(n).

    Returns
    -------
    OrthogonalInit
        The law (a frozen record).

    Raises
    ------
    TypeError, ValueError
        ``field`` not one of the two.

    Examples
    --------
    >>> OrthogonalInit(), OrthogonalInit("real").field
    (OrthogonalInit(field='complex'), 'real')
    """

    field: str = "complex"

    def __post_init__(self) -> None:
        object.__setattr__(self, "field", as_choice("field", self.field, FIELDS))


@dataclasses.dataclass(frozen=True)
class RingInit:
    r"""Diagonal complex recurrence ``W = diag(lambda_1..lambda_n)`` with the ring initialisation of the LRU.

    Orvieto, Smith, Gu, Fernando, Gulcehre, Pascanu, De (2023), "Resurrecting Recurrent Neural Networks for Long
    Sequences", ICML, arXiv:2303.06349, Lemma 3.2 and Sec. 3.3: ``lambda_j = r_j e^{i theta_j}`` iid, uniform on
    the ring ``r_min <= |lambda| <= r_max`` (so ``|lambda|^2`` is uniform on ``[r_min^2, r_max^2]``: the paper
    draws ``nu = -log(u_1 (r_max^2 - r_min^2) + r_min^2) / 2``, ``lambda = exp(-nu + i theta)``) with the phase
    ``theta = theta_max u_2`` uniform on ``[0, theta_max]``. ``gamma_norm=True``: the input is multiplied
    elementwise by ``gamma_j = sqrt(1 - |lambda_j|^2)`` (the paper's normalisation, Sec. 3.3), the recurrence is
    ``h(t) = W h(t-1) + gamma * x(t)``.

    Parameters
    ----------
    r_min, r_max : int, float or Fraction
        ``0 <= r_min <= r_max <= 1`` (the paper's Lemma; its experiments use e.g. 0.9 and 0.999; the defaults
        0 and 1 are the whole disc).
    theta_max : float
        ``0 <= theta_max <= 2 pi`` (default ``2 pi``; the paper restricts it to ``pi/10`` on long-range tasks).
        The energies of :mod:`theory.structured_init` do not depend on it (the module docstring says why and
        where it would matter); it is kept for the sampler.
    gamma_norm : bool
        Multiply the input by ``gamma_j = sqrt(1 - |lambda_j|^2)``.

    Returns
    -------
    RingInit
        The law (a frozen record; ``a``, ``b``: the ends of the law of ``|lambda|^2`` as exact Fractions).

    Raises
    ------
    TypeError
        A parameter of the wrong kind (a string, a bool for a number, a non-bool ``gamma_norm``).
    ValueError
        ``r_min`` or ``r_max`` outside ``[0, 1]``, ``r_min > r_max``, ``theta_max`` outside ``[0, 2 pi]``.

    Examples
    --------
    >>> RingInit(0.9, 0.999).r_min, RingInit(Fraction(9, 10), 1).a      # a = r_min^2 exactly
    (0.9, Fraction(81, 100))
    >>> RingInit(0.5, 0.4)
    Traceback (most recent call last):
    ...
    ValueError: r_max must be >= r_min, got r_min=0.5, r_max=0.4
    """

    r_min: Union[int, float, Fraction] = 0
    r_max: Union[int, float, Fraction] = 1
    theta_max: float = TWO_PI
    gamma_norm: bool = False

    def __post_init__(self) -> None:
        lo = exact_real("r_min", self.r_min, minimum=0, maximum=1)
        hi = exact_real("r_max", self.r_max, minimum=0, maximum=1)
        check_ordered("r_min", self.r_min, "r_max", self.r_max)      # exact: a Fraction and a float compare exactly
        as_real("theta_max", self.theta_max, minimum=0.0, maximum=TWO_PI)
        as_bool("gamma_norm", self.gamma_norm)
        object.__setattr__(self, "_lo", lo)
        object.__setattr__(self, "_hi", hi)

    @property
    def a(self) -> Fraction:
        """The lower end ``r_min^2`` of the uniform law of ``|lambda|^2``, exactly."""
        return self._lo ** 2          # type: ignore[attr-defined]

    @property
    def b(self) -> Fraction:
        """The upper end ``r_max^2`` of the uniform law of ``|lambda|^2``, exactly."""
        return self._hi ** 2          # type: ignore[attr-defined]

    @property
    def width(self) -> Fraction:
        """The width ``b - a = (r_max - r_min)(r_max + r_min)`` of that law, exactly."""
        return (self._hi - self._lo) * (self._hi + self._lo)     # type: ignore[attr-defined]

    @property
    def copies(self) -> int:
        """The number of coordinates that share one modulus, 1 (each eigenvalue has its own)."""
        return 1


@dataclasses.dataclass(frozen=True)
class RotationBlocksInit(RingInit):
    r"""Real block-diagonal recurrence of scaled 2 x 2 rotations ``r_b [[cos theta_b, -sin theta_b], [sin theta_b,
    cos theta_b]]``, ``b = 1..n/2`` (width ``n`` even), with ``(r_b, theta_b)`` drawn as :class:`RingInit`'s.

    The real form of a diagonal complex recurrence with conjugate pairs ``r e^{+-i theta}`` (as in real
    parametrisations of the LRU and of unitary/orthogonal RNNs). A block maps every vector of its plane to one
    of norm ``r_b`` times its own, so the expected energies are the ring's; each modulus is shared by two
    coordinates, so the per-network fluctuation is twice the ring's (``n/2`` independent moduli, not ``n``).

    Parameters
    ----------
    r_min, r_max : int, float or Fraction
        ``0 <= r_min <= r_max <= 1``: the ring of the moduli ``r_b``.
    theta_max : float
        ``0 <= theta_max <= 2 pi``: the angles ``theta_b`` are uniform on ``[0, theta_max]``.
    gamma_norm : bool
        Both coordinates of block b get the input gain ``sqrt(1 - r_b^2)``.

    Returns
    -------
    RotationBlocksInit
        The law (a frozen record); the width ``n`` must be even where it is used.

    Raises
    ------
    TypeError, ValueError
        As for :class:`RingInit`.

    Examples
    --------
    >>> RotationBlocksInit(0.9, 0.999).copies
    2
    """

    @property
    def copies(self) -> int:
        """The number of coordinates that share one modulus, 2 (the two of a block)."""
        return 2


@dataclasses.dataclass(frozen=True)
class IdentityNoiseInit:
    r"""Identity plus Gaussian noise, ``W = alpha I + beta G / sqrt(n)``, ``G`` complex Ginibre (``field="complex"``)
    or real Gaussian (``field="real"``) with unit-variance entries.

    The identity initialisation of Le, Jaitly, Hinton (2015), "A Simple Way to Initialize Recurrent Networks of
    Rectified Linear Units", arXiv:1504.00941 (``alpha = 1, beta = 0``), with noise (``beta > 0``); ``alpha = 0``
    is the plain Gaussian (Glorot) case of Seleznova (2026). Only ``alpha^2`` and ``beta^2`` enter the energies
    (:mod:`theory.structured_init`).

    Parameters
    ----------
    alpha, beta : int, float or Fraction
        Real scales, ``|alpha|, |beta| <= 1e6`` (required: no scale is a natural default).
    field : {"complex", "real"}
        The law of G.

    Returns
    -------
    IdentityNoiseInit
        The law (a frozen record; ``alpha2``, ``beta2`` the squares as exact Fractions).

    Raises
    ------
    TypeError, ValueError
        A scale that is not a finite real number in range, an unknown ``field``.

    Examples
    --------
    >>> IdentityNoiseInit(1, Fraction(1, 10)).beta
    Fraction(1, 10)
    """

    alpha: Union[int, float, Fraction]
    beta: Union[int, float, Fraction]
    field: str = "complex"

    def __post_init__(self) -> None:
        exact_real("alpha", self.alpha, minimum=-PARAM_LIMIT, maximum=PARAM_LIMIT)
        exact_real("beta", self.beta, minimum=-PARAM_LIMIT, maximum=PARAM_LIMIT)
        object.__setattr__(self, "field", as_choice("field", self.field, FIELDS))

    @property
    def alpha2(self) -> Fraction:
        """The square ``alpha^2``, exactly."""
        return exact_real("alpha", self.alpha) ** 2

    @property
    def beta2(self) -> Fraction:
        """The square ``beta^2``, exactly."""
        return exact_real("beta", self.beta) ** 2


StructuredInit = Union[OrthogonalInit, RingInit, RotationBlocksInit, IdentityNoiseInit]
INIT_NAMES = ("orthogonal", "unitary", "ring", "rotation-blocks", "identity-noise")
_CLASSES = {"ring": RingInit, "rotation-blocks": RotationBlocksInit, "identity-noise": IdentityNoiseInit}


def _parse_value(key: str, text: str):
    if key in ("field",):
        return text
    if key == "gamma_norm":
        if text.lower() not in ("true", "false", "1", "0"):
            raise ValueError(f"init: gamma_norm must be true or false, got {text!r}")
        return text.lower() in ("true", "1")
    if key == "theta_max":
        return float(text)
    try:
        return Fraction(text)             # a decimal string is an exact rational: "0.9" is 9/10
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"init: {key} must be a number, got {text!r}") from None


def _other_family(value) -> str:
    """The hint for an iid law passed where a structured initialisation is taken (the two families share the
    ``init=`` name, not the functions)."""
    from ..init_laws.laws import Law, as_law
    if not isinstance(value, Law):
        try:
            as_law(value)
        except (TypeError, ValueError):
            return ""
    return ("; that is an iid law of the entries, not a structured initialisation: its energies are "
            "theory.init_laws.Q_law / S_law, its Monte Carlo numerics.signal_propagation.ginibre.estimate_Q(init=...)")


def as_init(init: Any) -> StructuredInit:
    """A structured initialisation from a law object or a name (the ``init=`` argument of the toolkit).

    Names: ``"orthogonal"``, ``"unitary"`` (:class:`OrthogonalInit` real, complex), ``"ring"``,
    ``"rotation-blocks"``, ``"identity-noise"``, each optionally followed by ``:key=value,...`` with the law's own
    parameters (``"ring:r_min=0.9,r_max=0.999,gamma_norm=true"``, ``"identity-noise:alpha=1,beta=0.1,field=real"``);
    numbers are read as exact decimals (``0.9`` is 9/10).

    Parameters
    ----------
    init : OrthogonalInit, RingInit, RotationBlocksInit, IdentityNoiseInit or str
        A law (returned as is) or a name.

    Returns
    -------
    OrthogonalInit, RingInit, RotationBlocksInit or IdentityNoiseInit
        The law.

    Raises
    ------
    TypeError
        ``init`` neither a law nor a string.
    ValueError
        An unknown name or parameter, a parameter value out of its law's range (named).

    Examples
    --------
    >>> as_init("ring:r_min=0.9,r_max=0.999")
    RingInit(r_min=Fraction(9, 10), r_max=Fraction(999, 1000), theta_max=6.283185307179586, gamma_norm=False)
    >>> as_init("unitary")
    OrthogonalInit(field='complex')
    >>> as_init("ring:rmin=0.9")
    Traceback (most recent call last):
    ...
    ValueError: init: unknown parameter 'rmin' of 'ring'; allowed: r_min, r_max, theta_max, gamma_norm
    """
    if isinstance(init, (OrthogonalInit, RingInit, IdentityNoiseInit)):
        return init
    if not isinstance(init, str):
        raise TypeError(f"init must be a structured initialisation (OrthogonalInit, RingInit, RotationBlocksInit, "
                        f"IdentityNoiseInit) or one of the names {INIT_NAMES}, got {type(init).__name__} {init!r:.60}"
                        f"{_other_family(init)}")
    name, _, rest = init.partition(":")
    if name not in INIT_NAMES:
        raise ValueError(f"init must be one of {INIT_NAMES} (optionally ':key=value,...'), got {init!r:.60}"
                         f"{_other_family(init)}")
    if name in ("orthogonal", "unitary"):
        if rest:
            raise ValueError(f"init: {name!r} takes no parameters, got {init!r:.60}")
        return OrthogonalInit("real" if name == "orthogonal" else "complex")
    cls = _CLASSES[name]
    allowed = [f.name for f in dataclasses.fields(cls)]
    kwargs = {}
    for item in filter(None, rest.split(",")):
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq or key not in allowed:
            raise ValueError(f"init: unknown parameter {key!r} of {name!r}; allowed: {', '.join(allowed)}")
        kwargs[key] = _parse_value(key, text.strip())
    return cls(**kwargs)
