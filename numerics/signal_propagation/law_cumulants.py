r"""Exact rows of ``E tr((G^k)^T G^k)`` for iid entries of any symmetric law: the cumulant route (numba).

The independent route to :mod:`numerics.signal_propagation.law_rows` (it shares no code with it). Quantity
and conventions as there: ``G`` is ``n x n`` with iid entries of a symmetric law, ``E g^2 = 1``, cumulants
``kappa_4, kappa_6, ...`` (odd ones vanish, ``kappa_2 = 1``); the toolkit's own extension of Seleznova,
arXiv:2605.05113 (2026), Sec. 2 (``docs/results/init-laws.md``).

The cumulant form
-----------------
Expand ``tr((G^k)^T G^k)`` over the two index walks; its ``2k`` factors are the *slots*. By the moment-cumulant
formula, ``E prod_s G[r_s, c_s] = sum_sigma prod_{B in sigma} kappa_B``, the sum over set partitions
``sigma`` of the slots, where a block's joint cumulant ``kappa_B`` is ``kappa_|B|`` if all its slots carry the
same entry and 0 otherwise (mixed cumulants of independent entries vanish; odd ones vanish by symmetry).
Exchanging the sums, the index assignments that put each block on one entry are free on the classes of
positions left after identifying, for every block, the row positions of its slots and their column
positions; so

.. math:: P_k(n) = \sum_{\sigma\ \text{even}} n^{V(\sigma)} \prod_{B\in\sigma} \kappa_{|B|},

over the set partitions of the ``2k`` slots into blocks of even size, ``V(sigma)`` the number of classes.
Proved (the two exchanges above are finite sums). The pair partitions alone give the real Gaussian rows.

Algorithm: a depth-first search puts slot after slot into an open block or a new one (pruned when the
blocks of odd size outnumber the slots left), with a union-find of the positions (union by size, no path
compression, so each merge is undone on backtrack). Cost: the number of even set partitions of ``2k``
points (OEIS A005046: 1.6e8 at k = 8, 6.7e9 at k = 9, 3.4e11 at k = 10), a few seconds at k = 8.

>>> sorted(cumulant_counts(2).items())      # P_2 = n^3 + 2n + kappa_4 n
[((1, (1, 1)), 2), ((1, (2,)), 1), ((3, (1, 1)), 1)]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from theory._args import as_int

__all__ = ["K_MAX_CUMULANTS", "cumulant_counts", "slot_entries"]

K_MAX_CUMULANTS = 10       # k = 10 is 3.4e11 partitions (hours); k = 9 about ten minutes


def slot_entries(k) -> tuple[np.ndarray, np.ndarray]:
    """Row and column positions of the ``2k`` slots: step ``s = 1..2k`` of the closed walk through the positions
    ``(a, i_1, .., i_{k-1}, b, j_{k-1}, .., j_1)`` uses ``G[s, s-1]`` (path one, ``s <= k``) or ``G[s-1, s]``
    (path two walked backwards; position ``2k`` is position 0).

    >>> [r.tolist() for r in slot_entries(2)]      # G[i1,a] G[b,i1] G[b,j1] G[j1,a]
    [[1, 2, 2, 3], [0, 1, 3, 0]]
    """
    k = as_int("k", k, minimum=1, maximum=K_MAX_CUMULANTS)
    L = 2 * k
    rows = np.array([s if s <= k else s - 1 for s in range(1, L + 1)], dtype=np.int64)
    cols = np.array([s - 1 if s <= k else s % L for s in range(1, L + 1)], dtype=np.int64)
    return rows, cols


@njit(cache=True)
def _find(parent, x):
    while parent[x] != x:
        x = parent[x]
    return x


@njit(cache=True)
def _union(parent, size, a, b, stack, top):
    """Merge the classes of a and b; push the absorbed root (or -1 if already one class). Returns the new top."""
    ra = _find(parent, a)
    rb = _find(parent, b)
    if ra == rb:
        stack[top] = -1
        return top + 1
    if size[ra] < size[rb]:
        ra, rb = rb, ra
    parent[rb] = ra
    size[ra] += size[rb]
    stack[top] = rb
    return top + 1


@njit(cache=True)
def _undo(parent, size, stack, top):
    """Undo the last merge on the stack; returns (new top, 1 if it had merged two classes else 0)."""
    top -= 1
    rb = stack[top]
    if rb < 0:
        return top, 0
    ra = parent[rb]
    size[ra] -= size[rb]
    parent[rb] = rb
    return top, 1


@njit(cache=True)
def _count(k, rows, cols, keys, out):
    """All even set partitions of the 2k slots: ``out[V, column of the block-size partition] += 1``."""
    L = 2 * k
    w = np.zeros(L + 2, dtype=np.int64)
    for s in range(2, L + 1, 2):
        w[s] = (k + 1) ** (s // 2 - 1)
    parent = np.arange(L)
    size = np.ones(L, dtype=np.int64)
    stack = np.empty(2 * L + 2, dtype=np.int64)
    top = 0
    classes = L
    bsize = np.zeros(L, dtype=np.int64)          # size of open block b
    brep = np.zeros(L, dtype=np.int64)           # its first slot
    choice = np.zeros(L + 1, dtype=np.int64)     # block taken by slot s
    nb = np.zeros(L + 1, dtype=np.int64)         # blocks open before slot s
    nodd = 0
    key = 0
    total = 0
    s = 0
    choice[0] = -1
    nb[0] = 0
    while s >= 0:
        choice[s] += 1
        b = choice[s]
        if b > nb[s]:                             # exhausted: go back one slot and undo its placement
            s -= 1
            if s < 0:
                break
            b = choice[s]
            sz = bsize[b]
            bsize[b] = sz - 1
            nodd += 1 if (sz - 1) % 2 == 1 else -1
            key += w[sz - 1] - w[sz]
            if b < nb[s]:                         # it had joined a block: two unions to undo
                top, m = _undo(parent, size, stack, top)
                classes += m
                top, m = _undo(parent, size, stack, top)
                classes += m
            continue
        if b == nb[s] and nodd + 1 > L - s - 1:   # a new (odd) block that the slots left cannot make even
            continue
        if b < nb[s] and bsize[b] % 2 == 0 and nodd + 1 > L - s - 1:
            continue
        sz = bsize[b]
        bsize[b] = sz + 1
        nodd += 1 if (sz + 1) % 2 == 1 else -1
        key += w[sz + 1] - w[sz]
        if b < nb[s]:
            r0 = brep[b]
            top = _union(parent, size, rows[s], rows[r0], stack, top)
            classes -= 1 if stack[top - 1] >= 0 else 0
            top = _union(parent, size, cols[s], cols[r0], stack, top)
            classes -= 1 if stack[top - 1] >= 0 else 0
        else:
            brep[b] = s
        if s == L - 1:
            if nodd == 0:
                out[classes, np.searchsorted(keys, key)] += 1
                total += 1
            # undo this placement right away and try the next block
            bsize[b] = sz
            nodd += 1 if sz % 2 == 1 else -1
            key += w[sz] - w[sz + 1]
            if b < nb[s]:
                top, m = _undo(parent, size, stack, top)
                classes += m
                top, m = _undo(parent, size, stack, top)
                classes += m
            continue
        nb[s + 1] = nb[s] + (1 if b == nb[s] else 0)
        s += 1
        choice[s] = -1
    return total


def _keys(k: int) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """The partitions of k (block half-sizes) and their kernel keys ``sum (k+1)^(r-1)``, sorted by key."""
    parts: list[tuple[int, ...]] = []

    def rec(rest: int, top: int, cur: list[int]) -> None:
        if rest == 0:
            parts.append(tuple(cur))
            return
        for r in range(min(rest, top), 0, -1):
            rec(rest - r, r, cur + [r])
    rec(k, k, [])
    parts.sort(key=lambda p: sum((k + 1) ** (r - 1) for r in p))
    return np.array([sum((k + 1) ** (r - 1) for r in p) for p in parts], dtype=np.int64), parts


def cumulant_counts(k) -> dict[tuple[int, tuple[int, ...]], int]:
    r"""``{(V, mu): number of even slot partitions}``: ``P_k(n) = sum count * n^V * prod_{r in mu} kappa_{2r}``
    (``kappa_2 = 1``; ``mu`` the partition of k given by the blocks' half-sizes). Module docstring.

    Parameters
    ----------
    k : int
        Depth, ``0 <= k <= K_MAX_CUMULANTS`` (cost: A005046(k) partitions; k = 9 takes minutes).

    Returns
    -------
    dict
        ``(V, mu) -> count`` for the nonzero counts.

    Raises
    ------
    TypeError, ValueError
        ``k`` not an integer in range.

    Examples
    --------
    >>> sum(cumulant_counts(4).values())         # A005046(4): even set partitions of 8 points
    379
    """
    k = as_int("k", k, minimum=0, maximum=K_MAX_CUMULANTS)
    if k == 0:
        return {(1, ()): 1}
    rows, cols = slot_entries(k)
    keys, parts = _keys(k)
    out = np.zeros((2 * k + 1, len(parts)), dtype=np.int64)
    _count(k, rows, cols, keys, out)
    return {(int(V), parts[j]): int(out[V, j]) for V, j in zip(*np.nonzero(out))}
