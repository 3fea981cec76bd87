r"""Exact Wick counters for ``E tr((G^k)^* G^k)``: complex and real Gaussian weights (numba).

Source: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences", arXiv:2605.05113 (2026), Sec. 2 (the Wick/Hultman derivation of Theorem 2.1), as re-derived
in ``docs/papers/signal-propagation.md``. This module is the *independent* numerics for
``theory.signal_energy.hultman_row``: it never uses the closed form.

What is counted
---------------
Expand the trace over index paths ``a_0..a_k`` (the factors ``G_{a_{l-1} a_l}`` of ``G^k``) and
``b_0..b_k`` (the conjugated factors of ``(G^k)^*``), closed by the trace: ``a_0 = b_0``, ``a_k = b_k``.

* **Complex** (``E G_ij conj(G_kl) = delta_ik delta_jl``, ``E G G = 0``): Wick pairs every ``G`` factor with
  one conjugate factor, i.e. a permutation ``sigma`` in ``S_k``; pairing factor ``l`` with ``sigma(l)``
  identifies ``a_{l-1} = b_{sigma(l)-1}`` and ``a_l = b_{sigma(l)}``.
* **Real** (``E G_ij G_kl = delta_ik delta_jl``): Wick sums over all ``(2k-1)!!`` perfect matchings of the
  ``2k`` factors; two paired factors have equal left indices and equal right indices. A factor may pair
  with a factor of its own chain: ``G_{a_{l-1} a_l}`` with ``G_{a_{m-1} a_m}`` forces ``a_{l-1} = a_{m-1}``
  and ``a_l = a_m``.

Each pairing contributes ``n^(number of free index classes)``, so

.. math:: E\,tr((G^k)^* G^k) = \sum_j N_{k,j}\, n^j, \qquad N_{k,j} = \#\{\text{pairings with } j \text{ classes}\}.

:func:`wick_polynomial` returns ``[N_{k,0}, ..., N_{k,k+1}]`` (the indexing of ``hultman_row``).

How the classes are counted
---------------------------
Every index node ``a_i``/``b_i`` has two slots: the right end of the factor before it and the left end of
the factor after it (the trace closure ``a_0 = b_0`` joins the two "before" slots of ``a_0, b_0``, and
``a_k = b_k`` the two "after" slots of ``a_k, b_k``). A pairing joins left ends to left ends and right
ends to right ends, so the identification graph is 2-regular and its connected components are cycles
that alternate "after" and "before" joins: the class count is a cycle count, O(k) per pairing. For the
complex case this is the cycle count of ``pi = sigma^-1 s^-1 sigma s`` on ``{0..k}``, the commutator of
``sigma`` (extended by ``sigma(0) = 0``, ``sigma(k+1) = k+1``: the trace closure) with the shift
``s(i) = i + 1`` (the long cycle), whose distribution over ``S_k`` is the Hultman row (the notebook
``02_counting_wick_pairings`` verifies the identity over ``S_6``); the real matchings that keep
every pair across the two chains are exactly the ``k!`` complex pairings, and the others add
non-negative terms, hence ``Q^R_{n,k} >= Q_{n,k}`` coefficient by coefficient.

Parallelism: pairings are split into work items by a fixed prefix (the first two values of the
permutation, or the partners of the first two unmatched factors); every work item fills its own integer
histogram row and the rows are summed afterwards, so the result is bit-identical for any thread count
(:func:`numba.set_num_threads`). Runs below 2e5 pairings use one thread (waking a thread team costs more
than they do on a loaded machine). The pure-Python references (:func:`wick_polynomial_reference`) use a
different algorithm (union-find over the ``2(k+1)`` indices) and serve as tests and as the speed baseline.

Real polynomials
----------------
No closed form is known for real weights. The counter gives (coefficient of ``n^j``, highest power
first; ``k <= 9``; the value at ``n = 1`` is ``(2k-1)!!``; ``Q^R_{n,k}`` is this divided by ``n^(k+1)``):

====  ==========================================================================================
k     ``E tr((G^k)^T G^k)`` for real ``G`` with ``N(0, 1)`` entries
====  ==========================================================================================
0     ``n``
1     ``n^2``
2     ``n^3 + 2n``
3     ``n^4 + 10n^2 + 4n``
4     ``n^5 + 28n^3 + 28n^2 + 48n``
5     ``n^6 + 62n^4 + 110n^3 + 468n^2 + 304n``
6     ``n^7 + 118n^5 + 314n^4 + 2426n^3 + 3880n^2 + 3656n``
7     ``n^8 + 204n^6 + 748n^5 + 9046n^4 + 25512n^3 + 58312n^2 + 41312n``
8     ``n^9 + 328n^7 + 1556n^6 + 27184n^5 + 116900n^4 + 470832n^3 + 800624n^2 + 609600n``
9     ``n^10 + 500n^8 + 2952n^7 + 70354n^6 + 423642n^5 + 2609760n^4 + 7728888n^3 + 13980320n^2
      + 9643008n``
====  ==========================================================================================

(The table is produced by :func:`wick_polynomial`; ``tests/test_real_weights.py`` checks it against the
independent algorithm :func:`numerics.signal_propagation.real_wick.real_wick_polynomial` (the Z/2N matching reformulation),
which also gives the rows k = 10, 11 (``docs/results/real-weight-rows.md``); the validation report
``wick.real_table`` prints it again from a fresh run.)

>>> wick_polynomial(4)                       # Hultman row: n^5 + 15 n^3 + 8 n
[0, 8, 0, 15, 0, 1]
>>> wick_polynomial(3, "real")               # n^4 + 10 n^2 + 4 n
[0, 4, 10, 0, 1]
>>> sum(wick_polynomial(5, "real")) == 9 * 7 * 5 * 3 * 1      # n = 1: E g^10 = 9!!
True
>>> wick_polynomial(4, "real") == wick_polynomial_reference(4, "real")
True
"""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np
from numba import njit, prange
from tqdm import tqdm

from theory._args import as_choice, as_executor, as_int

__all__ = ["wick_polynomial", "wick_polynomial_reference", "count_pairings", "polynomial_string", "FIELDS",
           "K_MAX"]

FIELDS = ("complex", "real")
# The counts fit int64 far beyond what enumeration can reach: (2k-1)!! at k = 16 is 1.9e17 < 2^63.
K_MAX = 16
# Below this many pairings one thread is faster: waking a thread team costs ~0.1-40 ms on a loaded machine.
_SERIAL_BELOW = 200_000
_PROGRESS_ABOVE = 100_000_000


# --------------------------------------------------------------------------------------------------
# the numba kernels
# --------------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _count_cycles(part_after, part_before, seen, nn):
    """Components of the 2-regular identification graph on ``nn`` index nodes.

    ``part_after[v]`` is the node joined to v through v's "after" slot, ``part_before[v]`` through its
    "before" slot. A walk leaves by "after", arrives by "after", leaves by "before", ... and is back at
    its start exactly when the component is closed.
    """
    for v in range(nn):
        seen[v] = False
    cycles = 0
    for s in range(nn):
        if seen[s]:
            continue
        cycles += 1
        seen[s] = True
        cur = part_after[s]
        use_after = False            # we arrived through cur's "after" slot: leave by "before"
        while cur != s:
            seen[cur] = True
            cur = part_after[cur] if use_after else part_before[cur]
            use_after = not use_after
    return cycles


@njit(cache=True, inline="always")
def _complex_graph(sigma, k, part_after, part_before):
    """Identifications of the pairing ``sigma`` (0-based: factor l+1 of G^k with factor sigma[l]+1)."""
    # node a_i = i, b_j = k + 1 + j; trace closure a_0 = b_0 (before slots), a_k = b_k (after slots)
    part_before[0] = k + 1
    part_before[k + 1] = 0
    part_after[k] = 2 * k + 1
    part_after[2 * k + 1] = k
    for l in range(k):
        m = sigma[l]
        # left ends: a_l (after slot) with b_m; right ends: a_{l+1} (before slot) with b_{m+1}
        part_after[l] = k + 1 + m
        part_after[k + 1 + m] = l
        part_before[l + 1] = k + 2 + m
        part_before[k + 2 + m] = l + 1


@njit(cache=True, parallel=True)
def _complex_counts(k, prefixes):
    """Histogram of class counts over all sigma in S_k extending each prefix (rows = work items)."""
    n_items, p = prefixes.shape
    nn = 2 * k + 2
    hist = np.zeros((n_items, k + 2), dtype=np.int64)
    for it in prange(n_items):
        sigma = np.empty(k, dtype=np.int64)
        used = np.zeros(k, dtype=np.bool_)
        for i in range(p):
            sigma[i] = prefixes[it, i]
            used[prefixes[it, i]] = True
        j = p
        for v in range(k):
            if not used[v]:
                sigma[j] = v
                j += 1
        part_after = np.empty(nn, dtype=np.int64)
        part_before = np.empty(nn, dtype=np.int64)
        seen = np.empty(nn, dtype=np.bool_)
        # Heap's algorithm (iterative) over the suffix sigma[p:]: one swap per permutation
        m = k - p
        c = np.zeros(m + 1, dtype=np.int64)
        _complex_graph(sigma, k, part_after, part_before)
        hist[it, _count_cycles(part_after, part_before, seen, nn)] += 1
        i = 1
        while i < m:
            if c[i] < i:
                if i % 2 == 0:
                    a, b = p, p + i
                else:
                    a, b = p + c[i], p + i
                sigma[a], sigma[b] = sigma[b], sigma[a]
                _complex_graph(sigma, k, part_after, part_before)
                hist[it, _count_cycles(part_after, part_before, seen, nn)] += 1
                c[i] += 1
                i = 1
            else:
                c[i] = 0
                i += 1
    return hist


@njit(cache=True, inline="always")
def _real_graph(partner, k, part_after, part_before):
    """Identifications of a perfect matching ``partner`` of the 2k factors.

    Factor f < k is factor f+1 of chain a (left node f, right node f+1); factor f >= k is factor f-k+1 of
    chain b (left node f+1, right node f+2), with a_i = i and b_j = k + 1 + j.
    """
    part_before[0] = k + 1
    part_before[k + 1] = 0
    part_after[k] = 2 * k + 1
    part_after[2 * k + 1] = k
    for f in range(2 * k):
        g = partner[f]
        lf = f + 1 if f >= k else f
        lg = g + 1 if g >= k else g
        part_after[lf] = lg          # left ends equal: joined through the "after" slots
        part_before[lf + 1] = lg + 1  # right ends equal: joined through the "before" slots


@njit(cache=True, parallel=True)
def _real_counts(k, prefixes):
    """Histogram of class counts over all perfect matchings extending each prefix of pairs."""
    n_items, p2 = prefixes.shape
    nn = 2 * k + 2
    nf = 2 * k
    hist = np.zeros((n_items, k + 2), dtype=np.int64)
    for it in prange(n_items):
        partner = np.empty(nf, dtype=np.int64)
        used = np.zeros(nf, dtype=np.bool_)
        for i in range(0, p2, 2):
            x, y = prefixes[it, i], prefixes[it, i + 1]
            partner[x] = y
            partner[y] = x
            used[x] = True
            used[y] = True
        rest = np.empty(nf - p2, dtype=np.int64)
        j = 0
        for v in range(nf):
            if not used[v]:
                rest[j] = v
                j += 1
        m = nf - p2
        part_after = np.empty(nn, dtype=np.int64)
        part_before = np.empty(nn, dtype=np.int64)
        seen = np.empty(nn, dtype=np.bool_)
        if m == 0:
            _real_graph(partner, k, part_after, part_before)
            hist[it, _count_cycles(part_after, part_before, seen, nn)] += 1
            continue
        # Depth-first over matchings of rest[]: at level d, rest[2d] pairs with rest[2d + choice[d]],
        # moved into position 2d + 1 by a swap (undone when the level advances).
        levels = m // 2
        choice = np.zeros(levels, dtype=np.int64)
        d = 0
        choice[0] = 1
        while d >= 0:
            ch = choice[d]
            if ch > m - 2 * d - 1:   # level exhausted: back up
                choice[d] = 0
                d -= 1
                if d >= 0:
                    a, b = 2 * d + 1, 2 * d + choice[d]
                    rest[a], rest[b] = rest[b], rest[a]   # undo this level's swap
                    choice[d] += 1
                continue
            a, b = 2 * d + 1, 2 * d + ch
            rest[a], rest[b] = rest[b], rest[a]
            if d == levels - 1:
                for q in range(levels):
                    x, y = rest[2 * q], rest[2 * q + 1]
                    partner[x] = y
                    partner[y] = x
                _real_graph(partner, k, part_after, part_before)
                hist[it, _count_cycles(part_after, part_before, seen, nn)] += 1
                rest[a], rest[b] = rest[b], rest[a]
                choice[d] += 1
            else:
                d += 1
                choice[d] = 1
    return hist


# --------------------------------------------------------------------------------------------------
# work items and the public counters
# --------------------------------------------------------------------------------------------------
def _permutation_prefixes(k: int) -> np.ndarray:
    p = min(2, max(k - 1, 0))            # leave at least one suffix position to permute
    rows = list(itertools.permutations(range(k), p))
    return np.array(rows, dtype=np.int64).reshape(len(rows), p)


def _matching_prefixes(k: int) -> np.ndarray:
    """The first ``min(2, k-1)`` pairs of every matching, each pairing the smallest unmatched factor."""
    n_pairs = min(2, max(k - 1, 0))
    out = []

    def rec(rest, acc, left):
        if left == 0:
            out.append(acc)
            return
        x = rest[0]
        for i in range(1, len(rest)):
            rec(rest[1:i] + rest[i + 1:], acc + [x, rest[i]], left - 1)

    rec(list(range(2 * k)), [], n_pairs)
    return np.array(out, dtype=np.int64).reshape(len(out), 2 * n_pairs)


def _kernel_task(task):
    """``(field, k, prefixes) -> histogram rows``: one executor task (module level: picklable)."""
    field, k, prefixes = task
    return (_complex_counts if field == "complex" else _real_counts)(k, prefixes)


def count_pairings(k: int, field: str = "complex", *, progress: bool | None = None,
                   executor=None) -> np.ndarray:
    r"""Count the Wick pairings of ``E tr((G^k)^* G^k)`` by their number of index classes, one histogram row
    per block of work.

    The pairings are those of the module docstring (Seleznova (2026), arXiv:2605.05113, Sec. 2): the ``k!``
    permutations (``field="complex"``) or the ``(2k-1)!!`` perfect matchings (``field="real"``), split into
    work items by a fixed prefix (the first two values of the permutation, or the partners of the first two
    unmatched factors). Row i counts the pairings of work item i by their class count j (column j); each
    pairing contributes ``n^j`` to the trace, so the column sums are :func:`wick_polynomial`'s coefficients.
    The rows depend only on ``k`` and ``field``, never on the thread count or the executor: exposed for
    diagnostics and the determinism test.

    Parameters
    ----------
    k : int
        The power, ``0 <= k <= 16`` (``K_MAX``; the cost grows as ``k!`` resp. ``(2k-1)!!``).
    field : {"complex", "real"}, default "complex"
        Complex Ginibre (permutations) or real Gaussian (perfect matchings) weights.
    progress : bool or None, default None
        A tqdm bar over the work items (None: only beyond 1e8 pairings, i.e. complex k >= 12, real k >= 10).
    executor : concurrent.futures.Executor, optional
        Runs the work in 32 slices, one task each (Dask's ``Client.get_executor()`` included; recipe in
        :mod:`numerics.signal_propagation.real_wick`); the same rows.

    Returns
    -------
    numpy.ndarray
        int64 array of shape ``(work items, k + 2)``; ``[[0, 1]]`` at ``k = 0`` (the empty pairing:
        ``tr I = n``).

    Raises
    ------
    TypeError
        ``k`` not an integer, ``progress`` not a bool or None, ``executor`` not an Executor.
    ValueError
        ``k`` outside ``0..16``, an unknown ``field``.

    Examples
    --------
    >>> rows = count_pairings(4)                       # 4 * 3 prefixes of two permutation values
    >>> rows.shape, rows.dtype, int(rows.sum()) == math.factorial(4)
    ((12, 6), dtype('int64'), True)
    >>> from theory.signal_energy import hultman_row  # the closed form: n^5 + 15 n^3 + 8 n
    >>> rows.sum(axis=0).tolist() == hultman_row(4)
    True
    >>> int(count_pairings(3, "real").sum()) == 5 * 3 * 1     # (2k - 1)!! perfect matchings
    True
    """
    k = as_int("k", k, minimum=0, maximum=K_MAX)
    field = as_choice("field", field, FIELDS)
    executor = as_executor(executor)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None (auto), got {progress!r}")
    if k == 0:                           # the empty pairing: tr(I) = n
        return np.array([[0, 1]], dtype=np.int64)
    complex_ = field == "complex"
    total = math.factorial(k) if complex_ else math.prod(range(2 * k - 1, 0, -2))
    prefixes = _permutation_prefixes(k) if complex_ else _matching_prefixes(k)
    show = total >= _PROGRESS_ABOVE if progress is None else progress
    # slices of work items in order (one kernel call each when a bar is shown): the same rows either way
    n_slices = min(len(prefixes), 32) if (show or executor is not None) else 1
    bounds = np.linspace(0, len(prefixes), n_slices + 1).astype(int)
    before = numba.get_num_threads()
    if total < _SERIAL_BELOW:
        numba.set_num_threads(1)         # same rows either way: each work item owns its row
    try:
        parts = []
        tasks = [(field, k, prefixes[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])]
        results = map(_kernel_task, tasks) if executor is None else executor.map(_kernel_task, tasks)
        with tqdm(total=total, desc=f"Wick {field} k={k}", unit="pairing", unit_scale=True, disable=not show,
                  leave=False) as bar:
            for rows in results:
                parts.append(rows)
                bar.update(int(rows.sum()))
        return np.concatenate(parts, axis=0)
    finally:
        numba.set_num_threads(before)


ALGORITHMS = ("enumerate", "pfaffian")


def wick_polynomial(k: int, field: str = "complex", *, progress: bool | None = None,
                    executor=None, algorithm: str | None = None) -> list[int]:
    r"""Integer coefficients of ``E tr((G^k)^* G^k)`` in n, exact.

    ``algorithm``: ``"enumerate"`` (the Wick enumeration below; the default for complex weights, k <= 16) or
    ``"pfaffian"`` (real weights only, the default there, k <= 64: the polynomial-time route of
    :mod:`numerics.signal_propagation.real_wick_pfaffian`; ``progress`` and ``executor`` apply to the enumeration only).

    Entry j is the coefficient of ``n**j``, j = 0..k+1 (the indexing of
    ``theory.signal_energy.hultman_row``). ``field="complex"``: complex Ginibre ``G`` (iid proper complex
    Gaussians, ``E|G_ij|^2 = 1``), enumerating the ``k!`` permutations (equals the Hultman row, OEIS
    A164652). ``field="real"``: iid ``N(0, 1)`` entries, enumerating the ``(2k-1)!!`` perfect matchings;
    no closed form is known. ``Q_{n,k} = (value at n) / n^(k+1)`` for ``W = G/sqrt(n)``. Source:
    Seleznova (2026), Sec. 2; conventions in the module docstring. ``progress``: tqdm bar (``None``: only
    for runs beyond 1e8 pairings).

    Cost (``benchmarks/bench_wick.py``, a 2-core AMD EPYC machine under load, two threads): about
    170 ns per pairing: complex k = 11 (4.0e7 permutations) 7 s, k = 12 (4.8e8) 80 s, real k = 9
    (3.4e7 matchings) 6 s. ``k <= 16`` is accepted (int64 counts), but k = 13 already takes ~20 minutes.

    Parameters
    ----------
    k : int
        The power, ``0 <= k <= 16``.
    field : {"complex", "real"}
        Complex Ginibre (permutations) or real Gaussian (perfect matchings) weights.
    progress : bool, optional
        Show a tqdm bar (None: only beyond 1e8 pairings).
    executor : concurrent.futures.Executor, optional
        Runs the blocks of work in parallel.
    algorithm : {"enumerate", "pfaffian"}, optional
        The route (not the arithmetic: every route is exact); None: "enumerate" for complex weights,
        "pfaffian" for real ones.

    Returns
    -------
    list of int
        ``k + 2`` exact integer coefficients.

    Raises
    ------
    TypeError
        ``k`` not an integer, ``field`` not a string.
    ValueError
        ``k`` out of range, an unknown ``field``.

    Examples
    --------
    >>> wick_polynomial(2), wick_polynomial(2, "real")     # n^3 + n  and  n^3 + 2n
    ([0, 1, 0, 1], [0, 2, 0, 1])
    >>> wick_polynomial(7, "real") == wick_polynomial(7, "real", algorithm="enumerate")
    True
    >>> sum(wick_polynomial(6)) == math.factorial(6)       # n = 1: E|g|^12 = 6!
    True
    """
    field = as_choice("field", field, FIELDS)
    algorithm = as_choice("algorithm", "pfaffian" if algorithm is None and field == "real" else algorithm or "enumerate",
                          ALGORITHMS)
    if algorithm == "pfaffian":
        if field != "real":
            raise ValueError("algorithm='pfaffian' is the real-weight route; use field='real' (the complex row is "
                             "theory.signal_energy.hultman_row)")
        if executor is not None:
            raise TypeError("executor applies to algorithm='enumerate' only (the Pfaffian route takes seconds)")
        from numerics.signal_propagation.real_wick_pfaffian import pfaffian_real_wick_polynomial
        return pfaffian_real_wick_polynomial(k)
    hist = count_pairings(k, field, progress=progress, executor=executor)
    return [int(v) for v in hist.sum(axis=0)]


# --------------------------------------------------------------------------------------------------
# pure-Python reference (union-find; a different algorithm, for tests and the speed baseline)
# --------------------------------------------------------------------------------------------------
def _classes_union_find(k: int, pairs) -> int:
    """Classes of the 2(k+1) indices a_0..a_k, b_0..b_k under the trace closure and the pairs.

    ``pairs`` lists ((chain, l), (chain, m)) factor pairs, chain 0 = a, 1 = b, factors l = 1..k, each
    factor ``X_{x_{l-1} x_l}``; a pair equates left indices and right indices.
    """
    parent = list(range(2 * k + 2))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(x, y):
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[rx] = ry

    def node(chain, i):
        return i if chain == 0 else k + 1 + i

    union(node(0, 0), node(1, 0))
    union(node(0, k), node(1, k))
    for (c1, l1), (c2, l2) in pairs:
        union(node(c1, l1 - 1), node(c2, l2 - 1))
        union(node(c1, l1), node(c2, l2))
    return len({find(x) for x in range(2 * k + 2)})


def _perfect_matchings(items):
    if not items:
        yield []
        return
    x = items[0]
    for i in range(1, len(items)):
        for rest in _perfect_matchings(items[1:i] + items[i + 1:]):
            yield [(x, items[i])] + rest


def wick_polynomial_reference(k: int, field: str = "complex") -> list[int]:
    """Pure-Python :func:`wick_polynomial` (itertools + union-find): slow, obviously correct.

    >>> wick_polynomial_reference(3)
    [0, 0, 5, 0, 1]
    """
    k = as_int("k", k, minimum=0, maximum=K_MAX)
    field = as_choice("field", field, FIELDS)
    hist = [0] * (k + 2)
    if field == "complex":
        for sigma in itertools.permutations(range(1, k + 1)):
            hist[_classes_union_find(k, [((0, l), (1, sigma[l - 1])) for l in range(1, k + 1)])] += 1
    else:
        factors = [(0, l) for l in range(1, k + 1)] + [(1, l) for l in range(1, k + 1)]
        for matching in _perfect_matchings(factors):
            hist[_classes_union_find(k, matching)] += 1
    return hist


def polynomial_string(coeffs, var: str = "n") -> str:
    """Human-readable polynomial, highest power first: ``[0, 2, 0, 1] -> 'n^3 + 2n'``.

    >>> polynomial_string([0, 4, 10, 0, 1])
    'n^4 + 10n^2 + 4n'
    """
    if isinstance(coeffs, (str, bytes)) or not hasattr(coeffs, "__len__") or np.ndim(coeffs) != 1:
        raise TypeError(f"coeffs must be a 1-d sequence of integers, got {coeffs!r}")
    coeffs = [as_int("coeffs", c, minimum=None) for c in coeffs]
    if not isinstance(var, str) or not var:
        raise TypeError(f"var must be a non-empty string, got {var!r}")
    terms = []
    for j in range(len(coeffs) - 1, -1, -1):
        c = coeffs[j]
        if c == 0:
            continue
        mono = "" if j == 0 else (var if j == 1 else f"{var}^{j}")
        terms.append(f"{c}{mono}" if (c != 1 or j == 0) else mono)
    return " + ".join(terms) if terms else "0"
