r"""Samplers of the initialisation laws of :mod:`theory.init_laws.laws` (iid weight entries, variance 1).

One sampler per named law, vectorised over an array shape and driven by a ``numpy.random.Generator`` (so a
caller's ``SeedSequence(seed).spawn`` streams make every draw reproducible). The moments of each sampler are
checked against the law's exact moments and against ``scipy.stats`` by z-tests (``tests/test_law_sampling.py``).

==============  ==================================================================
law             draw
==============  ==================================================================
``gaussian``    ``rng.standard_normal``
``uniform``     ``rng.uniform(-sqrt 3, sqrt 3)``
``rademacher``  ``2 * rng.integers(0, 2) - 1``
``sparse:p``    ``rng.standard_normal * (rng.random < p) / sqrt(p)``
``student:nu``  ``rng.standard_t(nu) * sqrt((nu - 2) / nu)``
==============  ==================================================================

A law given only by its moments (``moments:...``) has no sampler: a ValueError says so.

>>> import numpy as np
>>> x = sample_entries("rademacher", (2, 3), np.random.default_rng(0))
>>> x.shape, sorted(set(x.ravel().tolist()))
((2, 3), [-1.0, 1.0])
"""

from __future__ import annotations

import math

import numpy as np

from theory._args import MAX_ELEMENTS, as_instance, as_int
from theory.init_laws.laws import as_law

__all__ = ["sample_entries", "has_sampler"]


def has_sampler(law) -> bool:
    """Whether :func:`sample_entries` can draw from ``law`` (a Law or a name): every named law, not ``moments:...``."""
    return as_law(law, name="law").kind != "moments"


def _as_shape(shape) -> tuple[int, ...]:
    """``shape`` as a tuple of non-negative ints with at most ``MAX_ELEMENTS`` entries in all (named errors)."""
    dims = (shape,) if not isinstance(shape, (tuple, list)) else tuple(shape)
    dims = tuple(as_int("shape", d, minimum=0) for d in dims)
    if math.prod(dims) > MAX_ELEMENTS:
        raise ValueError(f"shape {dims} has {math.prod(dims)} elements, more than the limit {MAX_ELEMENTS}")
    return dims


def sample_entries(law, shape, rng) -> np.ndarray:
    """iid entries of ``law`` (a :class:`~theory.init_laws.laws.Law` or its name), float64 array of ``shape``.

    Parameters
    ----------
    law : Law or str
        A named law ("gaussian", "uniform", "rademacher", "sparse:p", "student:nu").
    shape : tuple of int
        The array shape (e.g. ``(n, n)``).
    rng : numpy.random.Generator
        The random stream.

    Returns
    -------
    numpy.ndarray
        float64 entries with ``E g = 0``, ``E g^2 = 1``.

    Raises
    ------
    TypeError
        ``rng`` not a Generator, ``law`` not a law, ``shape`` not integers.
    ValueError
        A law given by its moments (no sampler), an unknown name, a negative dimension or more than
        ``MAX_ELEMENTS`` entries.
    """
    law = as_law(law, name="law")
    rng = as_instance("rng", rng, np.random.Generator, "numpy.random.Generator")
    shape = _as_shape(shape)
    if law.kind == "gaussian":
        return rng.standard_normal(shape)
    if law.kind == "uniform":
        s = math.sqrt(3.0)
        return rng.uniform(-s, s, shape)
    if law.kind == "rademacher":
        return (2 * rng.integers(0, 2, shape) - 1).astype(np.float64)
    if law.kind == "sparse":
        p = float(law.param)
        return rng.standard_normal(shape) * (rng.random(shape) < p) / math.sqrt(p)
    if law.kind == "student":
        nu = float(law.param)
        return rng.standard_t(nu, shape) * math.sqrt((nu - 2.0) / nu)
    raise ValueError(f"law {law.name} is given by its moments only: there is no sampler for it (name a law: "
                     "gaussian, uniform, rademacher, sparse:p, student:nu)")
