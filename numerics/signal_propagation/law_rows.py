r"""Exact rows of ``E tr((G^k)^T G^k)`` for iid entries of any symmetric law: the shape enumeration (numba).

Quantity: ``P_k(n) = E tr((G^k)^T G^k)`` for an ``n x n`` matrix ``G`` with iid entries of a symmetric law,
``E g^2 = 1`` and even moments ``m_4, m_6, ...`` (the real weights ``W = G / sqrt(n)`` of M. Seleznova,
arXiv:2605.05113 (2026), Sec. 2, taken beyond the Gaussian law; the toolkit's own extension,
``docs/results/init-laws.md``).

The moment form
---------------
``tr((G^k)^T G^k) = sum_{a,b} ((G^k)_{ba})^2`` runs over two index walks ``a -> i_1 -> ... -> b`` and
``a -> j_1 -> ... -> b``; read as one closed walk of length ``2k`` through the ``2k`` positions
``(a, i_1, .., i_{k-1}, b, j_{k-1}, .., j_1)``, step ``s`` (from position ``s - 1`` to ``s``, position
``2k = 0``) uses the entry ``G[pos s, pos s-1]`` for ``s <= k`` (path one) and ``G[pos s-1, pos s]`` for
``s > k`` (path two, walked backwards). The expectation factorises over the distinct entries (ordered
pairs): an entry used ``r`` times gives ``m_r`` (zero for odd ``r``). Summing over the index values of
each *shape* (the set partition of the positions into equal indices, ``V`` classes) gives

.. math:: P_k(n) = \sum_{\text{shapes}} n(n-1)\cdots(n-V+1)\ \prod_{\text{entries}} m_{\text{mult}},

over the shapes whose every entry has an even multiplicity. The count of shapes by ``(V, lambda)``,
``lambda`` the partition of ``k`` whose parts are the entries' half-multiplicities, is law-independent:
one table serves every law (:func:`shape_counts`; the law enters in :func:`theory.init_laws.law_row`).

Algorithm
---------
A depth-first search over restricted-growth strings (position 0 has label 0; each next position takes a
used label or the next new one) keeps, per step, the multiplicity of the entry it uses, the number of
odd entries and, as bit masks, which entries of each row and column are odd. Each step changes the
number of odd entries by one and the walk has ``R`` steps left, so ``#odd <= R`` with equal parity; when
``#odd = R`` every remaining step must make an odd entry even, so the search tries only the labels whose
entry with the current label is odd (a bit mask), and otherwise every label: no dead branch is entered
except at the last position. The partition ``lambda`` is kept as an integer key updated in O(1) per step.
Cost ~ x16 per k: k = 10 in about 13 s, k = 12 in about an hour of one core
(``benchmarks/bench_law_rows.py``; the recorded run in ``theory/data/law_shape_counts.json``).

Resume and log: the search is cut into work items (the valid prefixes of a fixed length) dealt round-robin
into a fixed number of chunks; with ``log_file=PATH`` every finished chunk is appended to a JSON-lines file and
a rerun skips the chunks already there, so a killed run resumes. Results are sums of integers: identical
for any chunking, executor or order.

The independent route is :func:`numerics.signal_propagation.law_cumulants.cumulant_counts` (set partitions
of the ``2k`` matrix slots, cumulant form); the two agree on every k both reach (``tests/test_law_rows.py``).

>>> sorted(shape_counts(2).items())        # P_2 = n(n-1)(n-2) + 3 n(n-1) + n m_4 = n^3 + (m_4 - 1) n
[((1, (2,)), 1), ((2, (1, 1)), 3), ((3, (1, 1)), 1)]
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
from numba import njit

from theory._args import as_executor, as_int, as_path

__all__ = ["K_MAX_SHAPES", "K_MAX_SHAPES_TOP", "MAX_TOP", "KERNEL", "shape_counts", "prefix_items"]

K_MAX_SHAPES = 14          # every shape: k = 13 is ~20 CPU-hours already
K_MAX_SHAPES_TOP = 60      # top=...: labels (at most k + 1) fit the int64 bit masks
MAX_TOP = 8                # top=...: keys (k+1)^top stay inside int64 at k = 60
KERNEL = "sym4"           # the log's tag of the kernel's weighting (chunks of other kernels are not mixed in)
_CHUNKS = 256              # work items are dealt into this many chunks (fixed: results never depend on it)


def _partitions(k: int) -> list[tuple[int, ...]]:
    """The partitions of ``k`` (parts in decreasing order), in a fixed order; part ``r`` stands for an entry of
    multiplicity ``2r``.

    >>> _partitions(3)
    [(3,), (2, 1), (1, 1, 1)]
    """
    out: list[tuple[int, ...]] = []

    def rec(rest: int, top: int, cur: list[int]) -> None:
        if rest == 0:
            out.append(tuple(cur))
            return
        for r in range(min(rest, top), 0, -1):
            cur.append(r)
            rec(rest - r, r, cur)
            cur.pop()
    rec(k, k, [])
    return out


def _key(parts: tuple[int, ...], k: int) -> int:
    """The kernel's integer key of a partition: ``sum_r (k+1)^(r-1)`` over its parts (the count of parts
    ``r`` is at most ``k``, so the base ``k + 1`` makes the key unique)."""
    return sum((k + 1) ** (r - 1) for r in parts)


def _keys(k: int, top: int | None = None) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Sorted keys (the kernel's column index by binary search) and the partition of each column; with ``top``
    only the partitions with ``sum (r - 1) <= top`` (the only ones of shapes with ``V >= k + 1 - top``)."""
    parts = [p for p in _partitions(k) if top is None or sum(r - 1 for r in p) <= top]
    parts.sort(key=lambda p: _key(p, k))
    return np.array([_key(p, k) for p in parts], dtype=np.int64), parts


def _weights(k: int, top: int | None) -> np.ndarray:
    """``w[m]``: the key's share of an entry of multiplicity m: ``(k+1)^(m/2-1)`` for even m >= 2 (up to
    ``m/2 - 1 <= top``: larger ones never occur in a search cut at ``top``, and would overflow), else 0."""
    w = np.zeros(2 * k + 2, dtype=np.int64)
    for m in range(2, 2 * k + 1, 2):
        if top is None or m // 2 - 1 <= top:
            w[m] = (k + 1) ** (m // 2 - 1)
    return w


# --------------------------------------------------------------------------------------------------
# the kernel
# --------------------------------------------------------------------------------------------------
@njit(cache=True)
def _search(k, prefix, keys, w, out, sink, vmin, sym):
    """Depth-first search below ``prefix`` (labels of positions 0..P-1, a valid prefix).

    ``sink`` of shape (0, 0): count every complete shape into ``out[V, column of lambda]``; returns the
    number of shapes. Otherwise (shape (cap, D)): stop at depth D and store each valid prefix of length D
    in ``sink``; returns their number (a first pass with ``cap = 0`` only counts them). ``vmin``: only shapes
    with ``V >= vmin`` (a branch is cut once ``V_now + (steps left - #odd) / 2 < vmin``: every label still to
    come opens a new entry that needs two of the steps left). ``sym`` (count mode, prefixes inside path
    one): the rotation of the closed walk by k (start at b; path two read backwards becomes path one, every
    entry transposed) maps shapes to shapes of the same ``(V, lambda)`` and is an involution; with P1 the
    pattern (restricted-growth string) of positions 0..k and P3 that of positions k..2k, only the shapes with
    ``P1 <= P3`` are searched, those with ``P1 < P3`` counted twice (their image has the patterns swapped):
    path two is cut at the first position where P3 falls below P1 (about half of it). One flat loop on
    purpose: array-taking helpers, even inlined ones, cost about 3x here (measured).
    """
    L = 2 * k
    stop = L if sink.shape[1] == 0 else sink.shape[1]
    lab = np.zeros(L + 1, dtype=np.int64)
    mult = np.zeros(L * L, dtype=np.int64)
    oddrow = np.zeros(L, dtype=np.int64)          # bit v of oddrow[u]: entry (u, v) has odd multiplicity
    oddcol = np.zeros(L, dtype=np.int64)          # bit u of oddcol[v]: the same entry
    bal = np.zeros(L, dtype=np.int64)             # out - in degree of x among the odd entries (u -> v for (u, v))
    ent_r = np.zeros(L + 1, dtype=np.int64)       # the entry each level's step used (no division on undo)
    ent_c = np.zeros(L + 1, dtype=np.int64)
    nvb = np.zeros(L + 1, dtype=np.int64)         # labels used before level d
    nxt = np.zeros(L + 1, dtype=np.int64)         # slack level: next label; tight level: the labels left (mask)
    tight = np.zeros(L + 1, dtype=np.bool_)
    map3 = np.full(L + 1, -1, dtype=np.int64)     # P3 label of a global label (-1: not yet met from b on)
    new3 = np.zeros(L + 1, dtype=np.bool_)        # level d gave its label a new P3 label
    eq = np.zeros(L + 2, dtype=np.bool_)          # P3 equals P1 so far (before level d)
    n3 = 0
    eq2 = False                                   # P1 reversed equals P1 (path one found at level k)
    rmap = np.zeros(L + 1, dtype=np.int64)        # relabelling scratch of the reversed patterns
    stamp = np.zeros(L + 1, dtype=np.int64)
    tick = 0
    nodd = 0
    key = 0
    found = 0
    nv = 1
    P = prefix.shape[0]
    for i in range(1, P):                         # replay the prefix
        x = prefix[i]
        c = prefix[i - 1]
        if i <= k:
            r = x
            cc = c
        else:
            r = c
            cc = x
        e = r * L + cc
        mm = mult[e]
        mult[e] = mm + 1
        oddrow[r] ^= 1 << cc
        oddcol[cc] ^= 1 << r
        sg = 1 if (mm + 1) % 2 == 1 else -1
        nodd += sg
        bal[r] += sg
        bal[cc] -= sg
        key += w[mm + 1] - w[mm]
        lab[i] = x
        if x + 1 > nv:
            nv = x + 1
    if P == stop:
        if sink.shape[0] > 0:
            sink[0, :] = prefix
        return 1
    d = P
    nvb[d] = nv
    c = lab[d - 1]
    if nodd == L - d + 1:                         # tight: only the labels whose entry with c is odd
        tight[d] = True
        nxt[d] = oddcol[c] if d <= k else oddrow[c]
    elif nv + (L - d + 1 - nodd) // 2 == vmin:    # no label to spare: close an odd entry or take a new label
        tight[d] = True
        nxt[d] = (oddcol[c] if d <= k else oddrow[c]) | (1 << nv)
    else:
        tight[d] = False
        nxt[d] = 0
    while d >= P:
        c = lab[d - 1]
        if tight[d]:
            m = nxt[d]
            if m == 0:
                x = -1
            else:
                x = 0
                while (m >> x) & 1 == 0:
                    x += 1
                nxt[d] = m & (m - 1)
        else:
            x = nxt[d]
            if x > nvb[d]:
                x = -1
            else:
                nxt[d] = x + 1
        if x < 0:                                 # level exhausted: undo the step of the level above
            d -= 1
            if d >= P:
                r = ent_r[d]
                cc = ent_c[d]
                e = r * L + cc
                mm = mult[e]
                mult[e] = mm - 1
                oddrow[r] ^= 1 << cc
                oddcol[cc] ^= 1 << r
                sg = 1 if (mm - 1) % 2 == 1 else -1
                nodd += sg
                bal[r] += sg
                bal[cc] -= sg
                key += w[mm - 1] - w[mm]
                if sym:
                    if d == k:
                        map3[lab[k]] = -1
                        n3 = 0
                    elif d > k and new3[d]:
                        map3[lab[d]] = -1
                        n3 -= 1
            continue
        if sym and d > k and eq[d]:               # the pattern from b must not fall below path one's
            p3 = map3[x] if map3[x] >= 0 else n3
            if p3 < lab[d - k]:
                continue
        if d <= k:
            r = x
            cc = c
        else:
            r = c
            cc = x
        e = r * L + cc
        mm = mult[e]
        nvn = nvb[d] if x < nvb[d] else x + 1
        if d == L - 1:                            # the last position: its step, then the closing step (x, 0)
            e2 = x * L
            m2 = mm + 1 if e2 == e else mult[e2]
            n1 = nodd + (1 if (mm + 1) % 2 == 1 else -1) + (1 if (m2 + 1) % 2 == 1 else -1)
            if n1 == 0 and nvn >= vmin:
                weight = 1
                if sym:
                    # P3 against P1 at its last two positions (2k - 1 and 2k = a)
                    p3x = map3[x] if map3[x] >= 0 else n3
                    if x == 0:
                        p3a = p3x
                    elif map3[0] >= 0:
                        p3a = map3[0]
                    else:
                        p3a = n3 + (1 if map3[x] < 0 else 0)
                    eq3 = eq[d] and p3x == lab[k - 1] and p3a == lab[k]
                    low3 = eq[d] and p3x == lab[k - 1] and p3a < lab[k]
                    # P4: positions 0, 2k-1, ..., k (path two read from a), against P1
                    tick += 1
                    cmp4 = 0
                    n4 = 0
                    for i in range(k + 1):
                        g = 0 if i == 0 else (x if i == 1 else lab[L - i])
                        if stamp[g] != tick:
                            stamp[g] = tick
                            rmap[g] = n4
                            n4 += 1
                        if rmap[g] != lab[i]:
                            cmp4 = -1 if rmap[g] < lab[i] else 1
                            break
                    if low3 or cmp4 < 0:
                        weight = 0
                    else:                         # 48 / (number of the four patterns equal to the least, P1)
                        weight = 48 // (1 + (1 if eq2 else 0) + (1 if eq3 else 0) + (1 if cmp4 == 0 else 0))
                if weight:
                    kk = key + w[mm + 1] - w[mm] + w[m2 + 1] - w[m2]
                    out[nvn, np.searchsorted(keys, kk)] += weight
                    found += weight
            continue
        mult[e] = mm + 1
        oddrow[r] ^= 1 << cc
        oddcol[cc] ^= 1 << r
        sg = 1 if (mm + 1) % 2 == 1 else -1
        nodd += sg
        bal[r] += sg
        bal[cc] -= sg
        key += w[mm + 1] - w[mm]
        spare = L - d - nodd                      # steps left beyond one per odd entry
        if d >= k and vmin > 0:
            # path two only: q >= 1 new labels need q + 1 new entries (entry (u, v) walks u -> v, so the
            # way into a new label and the way out differ), each used twice: spare >= 2q + 2
            cut = nvn + (spare - 2 if spare >= 4 else 0) // 2 < vmin
        else:
            cut = nvn + spare // 2 < vmin         # every label still to come opens an entry used twice
        if not cut and d >= k:
            # path two only (every step left walks u -> v through entry (u, v)): the steps left must balance
            # each label's odd out- and in-degrees up to the walk's own ends x and 0; two extra steps fix an
            # imbalance of at most 2 at each of two labels, so L - d >= #odd + sum |imbalance| / 2
            tot = 0
            for y in range(nvn):
                v = bal[y] - (1 if y == x else 0) + (1 if y == 0 else 0)
                tot += v if v > 0 else -v
            cut = L - d < nodd + tot // 2
        if cut or d + 1 == stop:
            if not cut:                           # a prefix of the requested length
                if found < sink.shape[0]:
                    sink[found, :d] = lab[:d]
                    sink[found, d] = x
                found += 1
            mult[e] = mm
            oddrow[r] ^= 1 << cc
            oddcol[cc] ^= 1 << r
            nodd -= sg
            bal[r] -= sg
            bal[cc] += sg
            key -= w[mm + 1] - w[mm]
            continue
        ent_r[d] = r
        ent_c[d] = cc
        if sym and d == k:                        # path one complete: its reversal must not fall below it
            tick += 1
            cmp2 = 0
            n2 = 0
            for i in range(k + 1):
                g = x if i == 0 else lab[k - i]
                if stamp[g] != tick:
                    stamp[g] = tick
                    rmap[g] = n2
                    n2 += 1
                p1 = x if i == k else lab[i]
                if rmap[g] != p1:
                    cmp2 = -1 if rmap[g] < p1 else 1
                    break
            if cmp2 < 0:
                mult[e] = mm
                oddrow[r] ^= 1 << cc
                oddcol[cc] ^= 1 << r
                nodd -= sg
                bal[r] -= sg
                bal[cc] += sg
                key -= w[mm + 1] - w[mm]
                continue
            eq2 = cmp2 == 0
        if sym and d >= k:
            if d == k:                            # b: P3 starts here with label 0
                map3[x] = 0
                n3 = 1
                eq[d + 1] = True
            else:
                p3 = map3[x]
                new3[d] = p3 < 0
                if p3 < 0:
                    p3 = n3
                    map3[x] = n3
                    n3 += 1
                eq[d + 1] = eq[d] and p3 == lab[d - k]
        d += 1
        lab[d - 1] = x
        nvb[d] = nvn
        if nodd == L - d + 1:
            tight[d] = True
            nxt[d] = oddcol[x] if d <= k else oddrow[x]
        elif nvn + (L - d + 1 - nodd) // 2 == vmin:
            tight[d] = True
            nxt[d] = (oddcol[x] if d <= k else oddrow[x]) | (1 << nvn)
        else:
            tight[d] = False
            nxt[d] = 0
    return found


# --------------------------------------------------------------------------------------------------
# work items, chunks, the public count
# --------------------------------------------------------------------------------------------------
def prefix_items(k, depth, *, top=None) -> np.ndarray:
    """The valid prefixes of length ``depth`` (labels of positions ``0..depth-1``), one per row: the work items
    (``top``: of the search cut at ``V >= k + 1 - top``, as in :func:`shape_counts`).

    >>> prefix_items(3, 3).tolist()
    [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2]]
    """
    top = None if top is None else as_int("top", top, minimum=0, maximum=MAX_TOP)
    k = as_int("k", k, minimum=1, maximum=K_MAX_SHAPES if top is None else K_MAX_SHAPES_TOP)
    depth = as_int("depth", depth, minimum=1, maximum=2 * k - 1)
    keys, _ = _keys(k, top)
    w = _weights(k, top)
    vmin = 0 if top is None else k + 1 - top
    out = np.zeros((1, 1), dtype=np.int64)
    root = np.zeros(1, dtype=np.int64)
    count = _search(k, root, keys, w, out, np.zeros((0, depth), dtype=np.int64), vmin, False)
    sink = np.zeros((count, depth), dtype=np.int64)
    _search(k, root, keys, w, out, sink, vmin, False)
    return sink


def _depth_for(k: int) -> int:
    """Prefix length giving a few thousand work items (enough for even chunks, few enough to replay cheaply)."""
    return min(k, 7 if k <= 9 else 8)           # inside path one (the symmetry of the search starts at b)


def _chunk_task(args) -> tuple[int, np.ndarray, float]:
    """Count the shapes below every prefix of one chunk: (chunk index, counts table, CPU seconds)."""
    k, top, index, items = args
    keys, parts = _keys(k, top)
    w = _weights(k, top)
    vmin = 0 if top is None else k + 1 - top
    out = np.zeros((k + 2, len(parts)), dtype=np.int64)
    empty = np.zeros((0, 0), dtype=np.int64)
    t0 = time.process_time()
    for row in items:
        _search(k, row, keys, w, out, empty, vmin, k >= 2)
    return index, out, time.process_time() - t0


def _scale(k: int) -> int:
    """The factor of the kernel's weighted counts: 12 with the symmetry (k >= 2; weights 48 / ties), else 1."""
    return 12 if k >= 2 else 1


def _read_log(path: str, head: dict) -> dict[int, np.ndarray]:
    """The finished chunks of an earlier run with the same ``head`` (k, top, chunks, depth) in the JSON-lines log."""
    done: dict[int, np.ndarray] = {}
    if not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            if all(rec.get(key) == value for key, value in head.items()):
                done[int(rec["chunk"])] = np.array(rec["counts"], dtype=np.int64)
    return done


def shape_counts(k, *, top=None, executor=None, log_file=None,
                 chunks: int = _CHUNKS) -> dict[tuple[int, tuple[int, ...]], int]:
    r"""The law-independent shape table of ``P_k(n)``: ``{(V, lambda): number of shapes}`` (module docstring).

    ``P_k(n) = sum count * n(n-1)...(n-V+1) * prod_{r in lambda} m_{2r}`` (``m_2 = 1``).

    Parameters
    ----------
    k : int
        Depth, ``0 <= k <= K_MAX_SHAPES``; cost ~ x16 per k (k = 12: about an hour of one core).
    top : int, optional
        Only the shapes with ``V >= k + 1 - top`` (``0 <= top <= MAX_TOP``): all that the coefficients of
        ``n^(k+1-m)``, ``m <= top``, need (a falling factorial ``n(n-1)...(n-V+1)`` has no power above
        ``n^V``). The search is cut early (module docstring), so the cost grows only polynomially in k:
        the top coefficients are reached far beyond the full rows. None: every shape.
    executor : concurrent.futures.Executor, optional
        Runs the chunks (``executor.map``); None: in this process.
    log_file : str or os.PathLike, optional
        A JSON-lines file: each finished chunk is appended (with its CPU seconds) and a rerun with the same
        ``k``, ``top`` and ``chunks`` skips the chunks found there (resume after a kill).
    chunks : int
        Number of chunks, ``1 <= chunks <= 10^5`` (the result never depends on it).

    Returns
    -------
    dict
        ``(V, lambda) -> count`` for the nonzero counts; ``lambda`` a partition of k (decreasing parts).

    Raises
    ------
    TypeError, ValueError
        A bad ``k``, ``top``, ``chunks``, ``executor`` or ``log_file``.

    Examples
    --------
    >>> sum(shape_counts(5).values())          # the number of shapes for k = 5
    559
    >>> shape_counts(20, top=0)                # V = k + 1: the ladder (path two retraces path one) only
    {(21, (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)): 1}
    """
    top = None if top is None else as_int("top", top, minimum=0, maximum=MAX_TOP)
    k = as_int("k", k, minimum=0, maximum=K_MAX_SHAPES if top is None else K_MAX_SHAPES_TOP)
    executor = as_executor(executor)
    chunks = as_int("chunks", chunks, minimum=1, maximum=10**5)
    log = None if log_file is None else as_path("log_file", log_file)
    if k == 0:
        return {(1, ()): 1}                       # tr(I) = n
    keys, parts = _keys(k, top)
    depth = _depth_for(k)
    items = prefix_items(k, depth, top=top)
    head = {"k": k, "top": top, "chunks": chunks, "depth": depth, "kernel": KERNEL}
    done = {} if log is None else _read_log(log, head)
    tasks = [(k, top, c, items[c::chunks]) for c in range(chunks) if c not in done and len(items[c::chunks])]
    results = map(_chunk_task, tasks) if executor is None else executor.map(_chunk_task, tasks)
    for index, table, cpu in results:
        done[index] = table
        if log is not None:
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({**head, "chunk": index, "cpu_seconds": round(cpu, 3),
                                     "counts": table.tolist()}) + "\n")
    total = np.zeros((k + 2, len(parts)), dtype=np.int64)
    for index in sorted(done):
        total += done[index]
    if np.any(total % _scale(k)):                 # every orbit of the symmetry adds 12 times its size
        raise RuntimeError(f"k={k}: weighted shape counts not divisible by {_scale(k)} (a corrupt log?)")
    total //= _scale(k)
    return {(int(V), parts[j]): int(total[V, j]) for V, j in zip(*np.nonzero(total))}
