r"""Exact real-weight moments ``E tr((G^k)^T G^k)`` beyond enumeration of the Wick pairings (numba).

Source of the quantity: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range
Linear Recurrences", arXiv:2605.05113 (2026), Sec. 2 (real weights; no closed form is known), conventions
as in ``docs/papers/signal-propagation.md``: ``G`` is ``n x n`` with iid ``N(0, 1)`` entries and
``Q^R_{n,k} = E tr((G^k)^T G^k) / n^(k+1)``. Row j of a result is the coefficient of ``n**j``.

The reformulation
-----------------
Write the trace word ``(G^T)^k G^k`` around a circle: with ``N = k + 1`` take the ``2N`` points of
``Z/2N`` and let ``c`` be the rotation ``x -> x + 1``. Then

.. math:: E\,tr((G^T)^k G^k) = \sum_{\mu \ni \{0, N\}} n^{\#\mathrm{cycles}(\mu \cup c\mu c^{-1})},

the sum over the ``(2k-1)!!`` perfect matchings ``mu`` of ``Z/2N`` that contain the pair ``{0, N}``, where
``c mu c^-1`` pairs ``x + 1`` with ``y + 1`` for every pair ``{x, y}`` of ``mu`` and the union of two
perfect matchings is a disjoint union of even cycles. (Why: point ``x`` stands for the index between two
consecutive letters of the word; a Wick pair of two letters equates their left indices and their right
indices, i.e. joins the two points on the left of the letters (``mu``) and the two on the right
(``c mu c^-1``); the extra pair ``{0, N}`` closes the word and is a "letter" whose own partner is
itself. The class count is the number of connected components.) This module never enumerates the
pairings of :mod:`numerics.signal_propagation.wick`; the two agree for every k where both run (``tests/test_real_weights.py``).

Algorithm
---------
* **Incremental cycle count.** A depth-first search over matchings adds, per pair ``{x, y}``, the two
  edges ``{x, y}`` and ``{x+1, y+1}`` to a graph whose open paths are kept as an endpoint array
  (``end[a]`` = the other end of the path through end ``a``); adding an edge closes a cycle iff its two
  ends are the two ends of one path, else it links two paths. Each step is O(1) and undone on backtrack,
  so a matching costs a few nanoseconds instead of the O(k) recount of the enumeration.
* **Symmetry.** The group ``{x -> x, x + N, -x, N - x}`` (order 4) fixes the pair ``{0, N}``, maps
  ``c mu c^-1`` to ``c^{+-1} (g mu g^-1) c^{-+1}`` and so preserves the cycle count. It also preserves
  the set ``P = {1, N-1, N+1, 2N-1}``; the work items are the partial matchings that cover ``P``, only one
  per orbit is searched, and its histogram is multiplied by the orbit size (exact integers).
* **Memo of the last levels.** Once ``2 * MEMO_LEVELS = 8`` points are left, the cycles their 105
  completions close depend only on a local state (which points are adjacent, and how the open path ends
  among them are paired: :func:`_state_key`); each state's histogram is computed once per group of
  work items and looked up afterwards (2.5-2.8x measured at k = 10 and 12).
* **Determinism.** Every work item fills its own int64 histogram row; rows are summed in a fixed order,
  so the result is bit-identical for any numba thread count and any executor.

Beyond one machine
------------------
``executor=`` takes any :class:`concurrent.futures.Executor`; the work items are cut into a fixed list of
chunks (independent of the executor) and ``executor.map`` runs one kernel call per chunk. With Dask::

    from dask.distributed import Client
    client = Client("tcp://scheduler:8786")       # a real cluster: dask-scheduler + dask-worker on nodes
    # every worker needs this package installed (same version); numba compiles once per worker process
    poly = real_wick_polynomial(13, executor=client.get_executor())

Start the cluster with ``dask scheduler`` on one node and ``dask worker tcp://scheduler:8786 --nthreads 1
--nworkers <cores>`` on each node (one numba thread per worker process: set ``NUMBA_NUM_THREADS=1``), or
with ``dask_jobqueue.SLURMCluster`` on a batch system. Cost grows ~ (2k-1)!!: k = 13 is ~25x k = 12.

>>> real_wick_polynomial(3)                 # n^4 + 10 n^2 + 4 n
[0, 4, 10, 0, 1]
>>> sum(real_wick_polynomial(6)) == 11 * 9 * 7 * 5 * 3    # n = 1: E g^12 = 11!!
True
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit, prange, types
from numba.typed import Dict

from theory._args import as_choice, as_int
from theory._data import package_path

__all__ = ["real_wick_polynomial", "real_work_items", "real_counts", "K_MAX"]

K_MAX = 16                # int64 histograms: (2k-1)!! at k = 16 is 1.9e17 < 2^63
_CHUNKS = 64              # work items are cut into this many executor tasks (fixed: results never depend on it)
_SERIAL_BELOW = 10        # k below this: one thread (a thread team costs more than the whole count)


# --------------------------------------------------------------------------------------------------
# the kernel: DFS over matchings with an O(1) incremental cycle count
# --------------------------------------------------------------------------------------------------
@njit(cache=True)
def _prefix(k, pairs, end, rest):
    """Apply the prefix pairs (flat, -1 padded) to ``end``; fill ``rest`` with the unmatched points.

    Returns (cycles closed by the prefix, number of unmatched points).
    """
    M = 2 * (k + 1)
    used = np.zeros(M, dtype=np.bool_)
    cyc = 0
    i = 0
    while i < pairs.shape[0] and pairs[i] >= 0:
        x, y = pairs[i], pairs[i + 1]
        used[x] = True
        used[y] = True
        for a, b in ((x, y), ((x + 1) % M, (y + 1) % M)):
            if end[a] == b:
                cyc += 1
            else:
                ea, eb = end[a], end[b]
                end[ea] = eb
                end[eb] = ea
        i += 2
    m = 0
    for v in range(M):
        if not used[v]:
            rest[m] = v
            m += 1
    return cyc, m


@njit(inline="always")
def _advance(d, rest, end, M, choice, undo):
    """Level d takes its next choice: swap rest[2d + choice[d]] into slot 2d + 1, add the edges {x, y} and
    {x+1, y+1} (x, y = rest[2d], rest[2d + 1]), record their undo slots 2d, 2d + 1; returns the cycles closed.

    Undo slot u holds (ea, old end[ea], eb, old end[eb]) of the edge added at slot u, or ea = -1 if that
    edge closed a cycle. Inlined at numba IR level (``inline="always"``), like :func:`_retreat`.
    """
    u_ea, u_oa, u_eb, u_ob = undo
    a, b = 2 * d + 1, 2 * d + choice[d]
    rest[a], rest[b] = rest[b], rest[a]
    x, y = rest[2 * d], rest[2 * d + 1]
    c = 0
    for u in (2 * d, 2 * d + 1):
        if u == 2 * d + 1:
            x = x + 1 if x + 1 < M else 0
            y = y + 1 if y + 1 < M else 0
        if end[x] == y:                            # x and y end the same path: the edge closes it
            c += 1
            u_ea[u] = -1
        else:                                      # link the two paths
            ea, eb = end[x], end[y]
            u_ea[u], u_oa[u], u_eb[u], u_ob[u] = ea, end[ea], eb, end[eb]
            end[ea] = eb
            end[eb] = ea
    return c


@njit(inline="always")
def _retreat(d, rest, end, choice, undo):
    """Undo :func:`_advance` at level d (edges in reverse order, then the swap) and move to its next choice."""
    u_ea, u_oa, u_eb, u_ob = undo
    for u in (2 * d + 1, 2 * d):
        if u_ea[u] >= 0:
            end[u_eb[u]] = u_ob[u]
            end[u_ea[u]] = u_oa[u]
    a, b = 2 * d + 1, 2 * d + choice[d]
    rest[a], rest[b] = rest[b], rest[a]
    choice[d] += 1


@njit(inline="always")
def _search_arrays(levels):
    """The depth-first search's state over ``levels`` levels: the choice at each level, the cycles each
    closed, and the flat undo arrays of :func:`_advance` / :func:`_retreat`."""
    return (np.zeros(levels, dtype=np.int64), np.zeros(levels, dtype=np.int64),
            (np.empty(2 * levels, dtype=np.int64), np.empty(2 * levels, dtype=np.int64),
             np.empty(2 * levels, dtype=np.int64), np.empty(2 * levels, dtype=np.int64)))


@njit(inline="always")
def _back_up(d, rest, end, choice, closed, undo):
    """One level up from the exhausted level d: the new level and the cycles its undone step had closed
    (:func:`_retreat`); the backtracking step of both searches."""
    d -= 1
    if d < 0:
        return d, 0
    _retreat(d, rest, end, choice, undo)
    return d, closed[d]


@njit(cache=True)
def _dfs_plain(rest, m, end, M, out):
    """All matchings of ``rest[:m]`` from the current path state: ``out[c] += 1``, c = cycles they close.

    Depth-first; level d pairs rest[2d] with rest[2d + choice[d]] (swapped into slot 2d + 1) and adds the
    edges {x, y}, {x+1, y+1} (:func:`_advance`; :func:`_retreat` undoes them). Flat undo arrays, and the
    two steps are ``inline="always"`` helpers: numba pastes their IR into this loop, whereas an ordinary
    call taking arrays costs ~6x here (measured). ``end`` and ``rest`` are restored on return.
    """
    levels = m // 2
    choice, closed, undo = _search_arrays(levels)
    cyc = 0
    d = 0
    choice[0] = 1
    while d >= 0:
        if choice[d] > m - 2 * d - 1:              # level exhausted: back up
            d, released = _back_up(d, rest, end, choice, closed, undo)
            cyc -= released
            continue
        c = _advance(d, rest, end, M, choice, undo)
        if d == levels - 1:                        # a complete matching
            out[cyc + c] += 1
            _retreat(d, rest, end, choice, undo)
        else:
            closed[d] = c
            cyc += c
            d += 1
            choice[d] = 1


@njit(cache=True)
def _count_item(k, pairs, hist_row):
    """Histogram of cycle counts over all matchings that contain the prefix ``pairs`` (no memo)."""
    M = 2 * (k + 1)
    end = np.arange(M)
    rest = np.empty(M, dtype=np.int64)
    cyc0, m = _prefix(k, pairs, end, rest)
    tmp = np.zeros(hist_row.shape[0], dtype=np.int64)
    if m == 0:
        tmp[0] = 1
    else:
        _dfs_plain(rest, m, end, M, tmp)
    for c in range(hist_row.shape[0] - cyc0):
        hist_row[cyc0 + c] += tmp[c]


@njit(cache=True, parallel=True)
def _counts_parallel(k, items):
    hist = np.zeros((items.shape[0], k + 2), dtype=np.int64)
    for it in prange(items.shape[0]):
        _count_item(k, items[it], hist[it])
    return hist


@njit(cache=True)
def _counts_serial(k, items):
    hist = np.zeros((items.shape[0], k + 2), dtype=np.int64)
    for it in range(items.shape[0]):
        _count_item(k, items[it], hist[it])
    return hist


# --------------------------------------------------------------------------------------------------
# the memo: the last MEMO_LEVELS levels depend only on the local state
# --------------------------------------------------------------------------------------------------
MEMO_LEVELS = 4           # 8 points left: 105 completions per lookup (measured best: 2.5x at k = 10, 12)
_KEY = types.UniTuple(types.int64, 4)


@njit(cache=True)
def _state_key(sub, r, end, M, vl):
    """Key of the state "points ``sub`` (sorted) unmatched, paths as in ``end``": 5-bit local labels.

    With R the unmatched points, every vertex outside ``R u (R+1)`` already has both edges, so all open
    path ends lie in ``R u (R+1)`` and the completions' cycle counts depend only on (a) which local label
    each of x, x+1 (x in R, in order) carries and (b) the path pairing of those labels. Labels are given
    in order of first appearance (at most 2r <= 16 of them, 5 bits each, 12 per word).
    """
    nl = 0
    w0, w1, w2, w3 = 0, 0, 0, 0
    cnt = 0
    for i in range(r):
        for v in (sub[i], sub[i] + 1 if sub[i] + 1 < M else 0):
            j = 0
            while j < nl and vl[j] != v:
                j += 1
            if j == nl:
                vl[nl] = v
                nl += 1
            if cnt < 12:
                w0 = w0 * 32 + j
            else:
                w1 = w1 * 32 + j
            cnt += 1
    for j in range(nl):
        e = end[vl[j]]
        q = 0
        while vl[q] != e:
            q += 1
        if j < 12:
            w2 = w2 * 32 + q
        else:
            w3 = w3 * 32 + q
    return (w0, w1, w2, w3)


@njit(cache=True)
def _count_item_memo(k, pairs, hist_row, memo, store):
    """:func:`_count_item` with the last MEMO_LEVELS levels looked up in ``memo`` (key -> row of ``store``).

    The top levels are the DFS of :func:`_dfs_plain` (same loop, same inlined steps); at its leaves the local
    state of the remaining 2 * MEMO_LEVELS points is keyed (:func:`_state_key`) and its histogram of closed cycles is
    computed once by :func:`_dfs_plain`. Exact integers throughout: the rows equal the memo-free ones.
    Returns ``store`` (reallocated when full).
    """
    M = 2 * (k + 1)
    end = np.arange(M)
    rest = np.empty(M, dtype=np.int64)
    cyc, m = _prefix(k, pairs, end, rest)
    L = MEMO_LEVELS
    levels = m // 2
    top = levels - L
    if top <= 0:
        _count_item(k, pairs, hist_row)
        return store
    r = 2 * L
    W = hist_row.shape[0]
    sub = np.empty(r, dtype=np.int64)
    vl = np.empty(2 * r, dtype=np.int64)
    choice, closed, undo = _search_arrays(top)
    d = 0
    choice[0] = 1
    while d >= 0:
        if choice[d] > m - 2 * d - 1:              # level exhausted: back up
            d, released = _back_up(d, rest, end, choice, closed, undo)
            cyc -= released
            continue
        c = _advance(d, rest, end, M, choice, undo)
        if d == top - 1:                           # 2L points left: look the completions up
            for j in range(r):
                sub[j] = rest[2 * top + j]
            sub.sort()
            key = _state_key(sub, r, end, M, vl)
            if key in memo:
                idx = memo[key]
            else:
                idx = len(memo)
                if idx == store.shape[0]:
                    grown = np.zeros((2 * idx, store.shape[1]), dtype=np.int64)
                    grown[:idx] = store[:idx]
                    store = grown
                _dfs_plain(sub, r, end, M, store[idx])
                memo[key] = idx
            base = cyc + c
            for j in range(min(r + 1, W - base)):
                hist_row[base + j] += store[idx, j]
            _retreat(d, rest, end, choice, undo)
        else:
            closed[d] = c
            cyc += c
            d += 1
            choice[d] = 1
    return store


@njit(cache=True)
def _counts_memo_group(k, items, hist):
    """Rows of ``hist`` for ``items``, one memo shared by the group (exact: rows never depend on it)."""
    memo = Dict.empty(key_type=_KEY, value_type=types.int64)
    store = np.zeros((4096, 2 * MEMO_LEVELS + 1), dtype=np.int64)
    for it in range(items.shape[0]):
        store = _count_item_memo(k, items[it], hist[it], memo, store)


@njit(cache=True, parallel=True)
def _counts_memo(k, items, n_groups):
    """Histogram rows with the memo; items are cut into ``n_groups`` contiguous groups run in parallel."""
    hist = np.zeros((items.shape[0], k + 2), dtype=np.int64)
    n = items.shape[0]
    for g in prange(n_groups):
        lo = g * n // n_groups
        hi = (g + 1) * n // n_groups
        _counts_memo_group(k, items[lo:hi], hist[lo:hi])
    return hist


# --------------------------------------------------------------------------------------------------
# work items: partial matchings covering P, one per orbit of the symmetry group
# --------------------------------------------------------------------------------------------------
def _group(N: int):
    M = 2 * N
    return (lambda x: x, lambda x: (x + N) % M, lambda x: (-x) % M, lambda x: (N - x) % M)


def _canonical(pairs, g) -> tuple:
    return tuple(sorted(tuple(sorted((g(x), g(y)))) for x, y in pairs))


def real_work_items(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(items, weights)``: one partial matching (flat pairs, always including {0, N}) per symmetry orbit
    of the partial matchings covering ``P = {1, N-1, N+1, 2N-1}``, and the orbit sizes.

    The weights sum to the number of such partial matchings; ``sum_i weights[i] * (completions of item
    i)`` is ``(2k-1)!!``. For k < 3 (P too small) the single item is ``{0, N}`` with weight 1.
    """
    k = as_int("k", k, minimum=0, maximum=K_MAX)
    N = k + 1
    if k < 3:
        return np.array([[0, N]], dtype=np.int64), np.array([1], dtype=np.int64)
    M = 2 * N
    P = sorted({1, N - 1, N + 1, M - 1})
    group = _group(N)
    partials: list[list[tuple[int, int]]] = []

    def rec(acc, used):
        todo = [p for p in P if p not in used]
        if not todo:
            partials.append(acc)
            return
        x = todo[0]
        for y in range(M):
            if y not in used and y != x:
                rec(acc + [(x, y)], used | {x, y})

    rec([], {0, N})
    orbits: dict[tuple, int] = {}
    for pairs in partials:
        key = min(_canonical(pairs, g) for g in group)
        orbits[key] = orbits.get(key, 0) + 1
    keys = sorted(orbits)
    # a partial matching covering P has 2 to 4 pairs (points of P may pair with each other): pad with -1
    items = np.full((len(keys), 10), -1, dtype=np.int64)
    for i, key in enumerate(keys):
        flat = [0, N] + [v for pr in key for v in pr]
        items[i, :len(flat)] = flat
    return items, np.array([orbits[key] for key in keys], dtype=np.int64)


def real_counts(k: int, items: np.ndarray, *, memo: bool | None = None) -> np.ndarray:
    """Histogram rows (int64, one per work item) for the flat-pair ``items`` of :func:`real_work_items`.

    ``memo``: look the last MEMO_LEVELS levels up (default: for k >= 8); the rows are the same either way.
    """
    k = as_int("k", k, minimum=0, maximum=K_MAX)
    items = _check_items(k, items)
    if memo is None:
        memo = k >= 8
    elif not isinstance(memo, (bool, np.bool_)):
        raise TypeError(f"memo must be True, False or None (auto), got {memo!r}")
    if memo:
        return _counts_memo(k, items, max(1, min(len(items), 4 * numba.get_num_threads())))
    kernel = _counts_serial if k < _SERIAL_BELOW or len(items) == 1 else _counts_parallel
    return kernel(k, items)


def _check_items(k: int, items) -> np.ndarray:
    """``items`` as the kernels need them (they index without bounds checks): an int64 array of shape
    (m, 10) ((1, 2) for k < 3), each row the flat pairs of a partial matching of Z/2N that starts with {0, N}, padded with -1."""
    if isinstance(items, (str, bytes)) or items is None:
        raise TypeError(f"items must be an integer array of shape (m, 10), got {items!r}")
    try:
        arr = np.asarray(items)
    except (TypeError, ValueError):
        raise TypeError(f"items must be an integer array of shape (m, 10), got {items!r}") from None
    if arr.dtype.kind not in "iu" or arr.ndim != 2 or arr.shape[1] not in (2, 10) or arr.shape[0] < 1:
        raise ValueError(f"items must be an integer array of shape (m >= 1, 10), or (1, 2) for k < 3, from "
                         f"real_work_items(k), "
                         f"got dtype {arr.dtype} and shape {arr.shape}")
    N = k + 1
    for row in arr.tolist():
        used = [v for v in row if v != -1]
        n_used = len(used)
        if (row[:2] != [0, N] or n_used % 2 or any(v != -1 for v in row[n_used:])
                or any(not 0 <= v < 2 * N for v in used) or len(set(used)) != n_used):
            raise ValueError(f"items rows must be disjoint pairs of 0..{2 * N - 1} starting with (0, {N}) and "
                             f"padded with -1 (as real_work_items(k={k}) makes them), got row {row}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def _chunk_task(args):
    k, items = args
    return real_counts(k, items)


ALGORITHMS = ("pfaffian", "enumerate")


def real_wick_polynomial(k: int, *, algorithm: str | None = None, executor=None) -> list[int]:
    r"""Integer coefficients of ``E tr((G^k)^T G^k)`` (real ``G``, iid ``N(0, 1)``), entry j of ``n**j``.

    ``algorithm="pfaffian"`` (the default, None; k <= 64): the polynomial-time route of :mod:`numerics.signal_propagation.real_wick_pfaffian`
    (quaternion duality, Pfaffian average, modular arithmetic and CRT); every row k <= 30 in seconds.
    ``algorithm="enumerate"`` (k <= 16, the reference): the matching reformulation with an incremental
    cycle count and the order-4 symmetry (module docstring), an algorithm independent of
    :func:`numerics.signal_propagation.wick.wick_polynomial`'s enumeration, which it reproduces; ``executor`` (any
    :class:`concurrent.futures.Executor`, a Dask ``Client.get_executor()`` included) distributes it, with
    bit-identical results for any executor and thread count. Cost: ``benchmarks/bench_wick.py`` and
    ``theory/data/real_wick_rows.json``.

    >>> real_wick_polynomial(4)                 # n^5 + 28 n^3 + 28 n^2 + 48 n
    [0, 48, 28, 28, 0, 1]
    >>> real_wick_polynomial(9, algorithm="enumerate") == real_wick_polynomial(9)
    True
    """
    algorithm = as_choice("algorithm", "pfaffian" if algorithm is None else algorithm, ALGORITHMS)
    if algorithm == "pfaffian":
        if executor is not None:
            raise TypeError("executor applies to algorithm='enumerate' only (the Pfaffian route takes seconds)")
        from numerics.signal_propagation.real_wick_pfaffian import pfaffian_real_wick_polynomial
        return pfaffian_real_wick_polynomial(k)
    k = as_int("k", k, minimum=0, maximum=K_MAX)
    if executor is not None and not callable(getattr(executor, "map", None)):
        raise TypeError(f"executor must be a concurrent.futures.Executor (anything with .map) or None, "
                        f"got {type(executor).__name__}")
    items, weights = real_work_items(k)
    if executor is None:
        hist = real_counts(k, items)
    else:
        bounds = np.linspace(0, len(items), min(_CHUNKS, len(items)) + 1).astype(int)
        tasks = [(k, items[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])]
        hist = np.concatenate(list(executor.map(_chunk_task, tasks)), axis=0)
    total = [0] * (k + 2)
    for row, w in zip(hist.tolist(), weights.tolist()):     # Python ints: exact for any k
        for j, v in enumerate(row):
            total[j] += w * v
    return total


# --------------------------------------------------------------------------------------------------
# the published rows and their structure
# --------------------------------------------------------------------------------------------------
# the rows are theory's package data (found through importlib.resources), read by theory.real_rows; the
# benchmark rewrites them through this path
DATA_FILE = package_path("theory", "data", "real_wick_rows.json")


def published_rows() -> dict[int, list[int]]:
    """The rows of ``theory/data/real_wick_rows.json`` (k <= 60 by the Pfaffian route, k <= 12 also by the
    enumeration; ``benchmarks/bench_real_wick_pfaffian.py --write`` regenerates them), read from the file
    itself (:mod:`theory.real_rows` is the theory layer's reader of the same file)."""
    import json
    data = json.loads(DATA_FILE.read_text())
    return {int(r["k"]): [int(c) for c in r["coefficients"]] for r in data["rows"]}


def _double_factorial(m: int) -> int:
    return math.prod(range(m, 0, -2))


def row_identities(k: int, coeffs) -> list[tuple[str, str, bool]]:
    r"""``(identity, "proved" | "observed", holds)`` for a real row ``coeffs`` (entry j: coefficient of n^j).

    Proved:

    * ``n = 1``: the value is ``(2k-1)!!`` (``G`` is a scalar ``g``; ``E g^(2k) = (2k-1)!!``).
    * degree k + 1, no constant term: the union of two perfect matchings of ``2N`` points has between 1
      and ``N = k + 1`` cycles.
    * leading coefficient 1: N cycles means ``mu = c mu c^-1``, i.e. mu is rotation invariant; with
      ``{0, N}`` in mu that forces ``mu = {x, x + N}``, a single matching.
    * coefficient-wise ``>=`` the complex (Hultman) row: the ``k!`` matchings that pair every letter of
      ``G^k`` with one of ``(G^T)^k`` are exactly the complex Wick pairings, the others add ``n^j`` terms.

    Observed on every computed row, k <= 30 (not proved here):

    * the coefficient of ``n^k`` is 0 (as in the complex case, whose row has only ``n^(k+1-2g)``);
    * the coefficient of ``n^(k-1)`` is ``C(k+2, 4) + (4k^3 - 2k^2 - 4k + 1 - (-1)^k) / 16`` (k >= 2): the
      complex genus-1 count (Hultman) plus a cubic, fitted on k = 2..9 (eight values, eight unknowns of a
      quartic plus ``(-1)^k`` times a quadratic), then holding on every row k = 10..30;
    * all coefficients of ``n^1 .. n^(k-1)`` are positive (k >= 2);
    * at ``n = -2`` the value is ``(-1)^(k+1) 2 (k+1)!``: the real/quaternionic duality ``n -> -2n``
      (cited; ``docs/results/real-weight-pfaffian.md``) maps it to the 1 x 1 quaternion Gaussian ``q``,
      ``E tr (q q^*)^k = 2 E|q|^(2k) = 2 (k+1)!``; the Pfaffian route uses ``n = -2`` as a node, so on its
      rows this identity tests the duality's m = 1 case, not the rows.
    """
    from theory.signal_energy import hultman_row
    c = [int(v) for v in coeffs]
    at = lambda x: sum(a * x**j for j, a in enumerate(c))   # noqa: E731
    hult = hultman_row(k)
    out = [
        ("value at n = 1 is (2k-1)!!", "proved", at(1) == _double_factorial(2 * k - 1)),
        ("degree k + 1, zero constant term", "proved", len(c) == k + 2 and c[0] == 0 and c[-1] != 0),
        ("leading coefficient 1", "proved", len(c) == k + 2 and c[-1] == 1),
        ("coefficient-wise >= complex Hultman row", "proved",
         len(c) == len(hult) and all(a >= h for a, h in zip(c, hult))),
        ("coefficient of n^k is 0", "observed", k == 0 or (len(c) == k + 2 and c[k] == 0)),
        ("coefficient of n^(k-1) is C(k+2,4) + (4k^3-2k^2-4k+1-(-1)^k)/16", "observed",
         k < 2 or (len(c) == k + 2 and 16 * c[k - 1] == 16 * math.comb(k + 2, 4) + 4 * k**3 - 2 * k**2 - 4 * k + 1
                   - (-1) ** k)),
        ("coefficients of n^1..n^(k-1) positive", "observed", all(a > 0 for a in c[1:k])),
        ("value at n = -2 is (-1)^(k+1) 2 (k+1)!", "observed", at(-2) == (-1) ** (k + 1) * 2 * math.factorial(k + 1)),
    ]
    return out
