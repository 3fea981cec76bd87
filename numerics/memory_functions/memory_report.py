r"""Memory report of any target: complexity, Prony order, nearest benchmarked family, best architectures.

Source: H. Jiang, Z. Bao, S. Wang, Q. Li, "Numerical Investigation of Sequence Modeling Theory using
Controllable Memory Functions", arXiv:2506.05678 (2025) (``docs/papers/memory-functions.md``): a linear,
causal, time-homogeneous target is ``y(t) = sum_{s<=t} rho(s) x(t-s)``; its memory function ``rho`` sets
how hard it is for each architecture. Given a user's ``rho`` (an array over lags ``s = 0..T-1`` or a
callable evaluated there), :func:`memory_report` reports

* the **tail-energy complexity** (:mod:`theory.complexity`): ``C(rho, s)`` at ``s = 1, 2, 4, ...`` and its
  area ``sum_s C(rho, s)`` (``effective_support``), sorted (best-s-term) and positional;
* the **effective rank** of the Toeplitz, Hankel and lag couplings;
* the **best exponential-sum order** (:func:`theory.prony.select_order`): the smallest m whose best
  m-term fit has weighted residual ``<= prony_tol`` (= the expected RelMSE of the best m-mode linear
  diagonal SSM, a lower bound for any such model), with the residual, the Vandermonde condition number
  and the spread of time scales;
* the **nearest benchmarked family** and its alpha, with the mismatch defined below;
* from committed benchmark results (:func:`load_benchmark`), **the architectures that did best** on the
  benchmarked cell nearest to that (kind, alpha), with their median RelMSE.

The mismatch (the toolkit's definition)
---------------------------------------
With the lag weights ``w_s = T - s`` of the RelMSE (:func:`theory.memory.expected_linear_relmse`):

.. math::

    D(\rho, \varphi) = \min_{c} \frac{\sum_s w_s (c\varphi(s) - \rho(s))^2}{\sum_s w_s \rho(s)^2}
                     = 1 - \frac{\langle \rho, \varphi\rangle_w^2}{\|\rho\|_w^2\,\|\varphi\|_w^2} \in [0, 1],

the expected RelMSE on the user's target of a *perfect* model of the family member ``phi``, rescaled:
scale and sign of ``rho`` do not matter. The nearest family minimises D over the four kinds and alpha in
[0, 1] (exp and poly: over their continuous parameter ``tau`` resp. ``p`` within the alpha range, then
alpha from the area convention ``A = 1 + alpha (T/4 - 1)``; impulse and Airy: over every shift
``m = alpha (T - 1)``). **Far from every family**: ``D > far_threshold`` (default 0.1: a model that were
perfect on the nearest family would still miss more than 10 % of the target's energy, so the benchmark's
RelMSE values below that level do not transfer). The benchmarked cell (its discrete alpha) is compared
with the same D, so a near family with no nearby benchmarked alpha is reported too.

Benchmark results
-----------------
The default file is ``numerics/memory_functions/data/cpu_architectures_results.json``, shipped with the package: a copy of
the committed ``docs/results/cpu-architectures/results.json`` (the ``cpu`` profile of
``python -m validation --cpu``, written by ``python benchmarks/memory_arch/cpu_results.py``, which writes
both; ``tests/test_memory_report.py`` checks that they are identical). :func:`load_benchmark` accepts the validation report (a bare list of checks
or an object with a ``"results"`` list; every check's ``data`` is searched for records with ``model``,
``kind``, ``alpha`` and ``median_relmse`` (or ``median``/``relmse``); a report of the retired Adam-only rule
also has the per-(model, alpha) exp/poly table of ``architectures.recurrent_exp_vs_poly``, which is read), or a rows file (JSON list or CSV with columns
``model, kind, alpha`` and ``median_relmse`` or per-seed ``relmse``; per-seed rows are reduced to medians,
a diverged run (empty/None) counting as ``+inf``, as :func:`numerics.memory_functions.bench.aggregate.median_by`).
Rows with a ``study`` column are restricted to the ``main`` study. The committed report answers every claim at
two optimisation budgets and records the per-cell medians of its headline budget only (``medians`` of
``architectures.no_single_best``: the Adam stage followed by the full-batch L-BFGS polish, over every seed of
the main study), so the ranking is by the polished medians. No numbers are invented: without a
file, or without per-cell medians in it, the report says so and which files are accepted; and
no architecture is ranked for a target farther than ``far_threshold`` from the benchmarked cell (the
report says so and gives the mismatch instead).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
from pathlib import Path

import numpy as np
from scipy.optimize import minimize_scalar

from numerics.memory_functions.bench.aggregate import median_by
from theory._args import MAX_LENGTH, as_choice, as_int, as_real, as_real_array
from theory.complexity import effective_rank, effective_support, tail_energy
from theory.memory import KINDS, default_area_max, exp_tau, lag_weights, memory_function, poly_exponent
from theory.prony import select_order
from theory._data import package_path

__all__ = ["DEFAULT_RESULTS", "FAR_THRESHOLD", "MemoryReport", "BenchCell", "BenchmarkNotFound", "mismatch",
           "nearest_families", "load_benchmark", "best_on_cell", "memory_report", "as_memory_function"]

DEFAULT_RESULTS = package_path("numerics.memory_functions", "data", "cpu_architectures_results.json")
FAR_THRESHOLD = 0.1
PRONY_TOL = 1e-3
MIN_T = 8                       # the smooth families need A_max = T/4 > 1
DEFAULT_T = 64                  # the command line's --T with --kind: the length of the packaged benchmark
_GRID = 160                     # coarse grid of the exp/poly parameter before the bounded refinement
_RELMSE_KEYS = ("median_relmse", "median", "relmse")


# ----------------------------------------------------------------------------------------------------
# input
# ----------------------------------------------------------------------------------------------------
def as_memory_function(rho, T: int | None = None) -> np.ndarray:
    """The user's memory function as a float64 array over lags ``0..T-1`` (array, list or callable).

    A callable is evaluated on ``np.arange(T)`` (``T`` required) and must return ``T`` finite values.
    ``8 <= T <= MAX_LENGTH``; ``rho`` must not vanish identically.

    >>> as_memory_function(lambda s: 0.5 ** s, T=8)[:3].tolist()
    [1.0, 0.5, 0.25]
    """
    if callable(rho):
        if T is None:
            raise TypeError("T is required when rho is a callable (it is evaluated on lags 0..T-1)")
        T = as_int("T", T, minimum=MIN_T, maximum=MAX_LENGTH)
        r = as_real_array("rho", rho(np.arange(T)))
        if r.shape != (T,):
            raise ValueError(f"rho(np.arange(T)) must return {T} values, got shape {r.shape}")
    else:
        r = as_real_array("rho", rho)
        if T is not None:
            raise TypeError("T applies only to a callable rho (an array sets T = len(rho))")
    if r.ndim != 1 or r.size < MIN_T:
        raise ValueError(f"rho must be a 1-d array of at least {MIN_T} lags, got shape {r.shape}")
    if not np.any(r):
        raise ValueError("rho must not be identically zero")
    return r


def mismatch(rho, phi) -> float:
    r"""How far one memory function is from another, up to scale and sign: 0 (proportional) to 1 (orthogonal).

    ``D(rho, phi) = 1 - <rho, phi>_w^2 / (||rho||_w^2 ||phi||_w^2)`` with the lag weights ``w_s = T - s`` of
    the RelMSE (:func:`theory.memory.lag_weights`): the expected RelMSE on the target ``rho`` of the best
    multiple of a perfect model of ``phi`` (the toolkit's definition, module docstring; after Jiang, Bao,
    Wang, Li (2025), arXiv:2506.05678). Symmetric in its two arguments.

    Parameters
    ----------
    rho, phi : array_like of float
        Memory functions over lags ``0..T-1``: finite 1-d arrays of one length ``T >= 1``, neither
        identically zero (D is 0/0 there).

    Returns
    -------
    float
        ``D`` in [0, 1].

    Raises
    ------
    TypeError
        ``rho`` or ``phi`` not arrays of real numbers.
    ValueError
        Not 1-d, different lengths, non-finite values, or identically zero.

    Examples
    --------
    >>> mismatch([1.0, 0.0, 0.0], [-2.0, 0.0, 0.0])        # scale and sign do not matter
    0.0
    >>> mismatch([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    1.0
    >>> round(mismatch([1.0, 1.0], [1.0, 0.0]), 12)         # w = (2, 1): 1 - 2^2 / (3 * 2) = 1/3
    0.333333333333
    """
    r, p = _as_lags("rho", rho), _as_lags("phi", phi)
    if r.size != p.size:
        raise ValueError(f"rho and phi must have the same length, got {r.size} and {p.size}")
    # D is scale invariant: normalise first, so that squares of large entries cannot overflow
    r, p = r / np.max(np.abs(r)), p / np.max(np.abs(p))
    w = lag_weights(r.size)
    num = float(np.dot(w, r * p)) ** 2
    den = float(np.dot(w, r * r)) * float(np.dot(w, p * p))
    return min(1.0, max(0.0, 1.0 - num / den))


def _as_lags(name: str, v) -> np.ndarray:
    a = as_real_array(name, v)
    if a.ndim != 1 or a.size < 1:
        raise ValueError(f"{name} must be a 1-d array over lags 0..T-1, got shape {a.shape}")
    if not np.any(a):
        raise ValueError(f"{name} must not be identically zero (the mismatch is 0/0)")
    return a


# ----------------------------------------------------------------------------------------------------
# nearest family
# ----------------------------------------------------------------------------------------------------
def _alpha_from_area(area: float, T: int) -> float:
    return min(1.0, max(0.0, (area - 1.0) / (default_area_max(T) - 1.0)))


def _smooth_best(r: np.ndarray, kind: str) -> tuple[float, float]:
    """(alpha, D) for exp/poly: minimise D over log tau (exp) or log p (poly) within alpha in [0, 1]."""
    T = r.size
    s = np.arange(T, dtype=float)
    if kind == "exp":
        lo, hi = math.log(0.05), math.log(exp_tau(1.0, T))          # tau -> 0 is delta_0 (alpha = 0)
        member = lambda u: np.exp(-s / math.exp(u))                 # noqa: E731
    else:
        lo, hi = math.log(poly_exponent(1.0, T)), math.log(60.0)   # p -> inf is delta_0 (alpha = 0)
        member = lambda u: np.exp(-math.exp(u) * np.log1p(s))      # noqa: E731
    f = lambda u: mismatch(r, member(u))                            # noqa: E731
    grid = np.linspace(lo, hi, _GRID)
    vals = [f(u) for u in grid]
    i = int(np.argmin(vals))
    a, b = grid[max(0, i - 1)], grid[min(_GRID - 1, i + 1)]
    u = minimize_scalar(f, bounds=(a, b), method="bounded", options={"xatol": 1e-10}).x
    alpha = _alpha_from_area(float(member(u).sum()), T)
    cands = [(alpha, mismatch(r, memory_function(kind, alpha, T))), (0.0, mismatch(r, memory_function(kind, 0.0, T)))]
    return min(cands, key=lambda c: c[1])


def _shift_best(r: np.ndarray, kind: str) -> tuple[float, float]:
    """(alpha, D) for impulse/airy: every shift m = 0..T-1, alpha = m/(T-1)."""
    T = r.size
    best = (0.0, math.inf)
    for m in range(T):
        alpha = m / (T - 1)
        d = mismatch(r, memory_function(kind, alpha, T))
        if d < best[1]:
            best = (alpha, d)
    return best


def nearest_families(rho, *, kinds=KINDS) -> list[dict]:
    r"""The benchmarked memory-function families nearest to a target: for each family, the closest member.

    For each family kind, the alpha in [0, 1] minimising the mismatch D (:func:`mismatch`; the search of the
    module docstring), families sorted by D, nearest first. Families at the user's length ``T = len(rho)``
    with the toolkit's conventions (:func:`theory.memory.memory_function`; after Jiang, Bao, Wang, Li (2025),
    arXiv:2506.05678, ``docs/papers/memory-functions.md``).

    Parameters
    ----------
    rho : array_like of float
        Memory function over lags ``0..T-1``, ``8 <= T <= MAX_LENGTH``, not identically zero.
    kinds : str or sequence of str, default theory.memory.KINDS
        One family name or a non-empty sequence of names from ``theory.memory.KINDS`` ("exp", "poly",
        "impulse", "airy").

    Returns
    -------
    list of dict
        ``[{"kind": str, "alpha": float, "mismatch": float}, ...]``, one per kind, nearest first.

    Raises
    ------
    TypeError
        ``rho`` not an array of real numbers (a callable needs :func:`memory_report`'s ``T``), ``kinds`` not
        a name or a sequence of names.
    ValueError
        ``rho`` shorter than 8 lags, not 1-d or identically zero; an empty ``kinds`` or an unknown name.

    Examples
    --------
    >>> from theory.memory import memory_function
    >>> best = nearest_families(memory_function("impulse", 0.5, 33))[0]
    >>> best["kind"], best["alpha"], best["mismatch"]       # a family member is its own nearest: D = 0
    ('impulse', 0.5, 0.0)
    >>> fams = nearest_families(memory_function("exp", 0.5, 64))
    >>> [f["kind"] for f in fams][0], len(fams), round(fams[0]["alpha"], 6)
    ('exp', 4, 0.5)
    """
    r = as_memory_function(rho)
    if isinstance(kinds, str):
        kinds = (kinds,)
    if not hasattr(kinds, "__iter__"):
        raise TypeError(f"kinds must be a sequence of family names from {KINDS}, got {type(kinds).__name__}")
    kinds = list(kinds)
    if not kinds:
        raise ValueError(f"kinds must name at least one family of {KINDS}")
    out = []
    for kind in kinds:
        kind = as_choice("kinds", kind, KINDS)
        alpha, d = _smooth_best(r, kind) if kind in ("exp", "poly") else _shift_best(r, kind)
        out.append({"kind": kind, "alpha": alpha, "mismatch": d})
    return sorted(out, key=lambda c: c["mismatch"])


# ----------------------------------------------------------------------------------------------------
# benchmark results
# ----------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class BenchCell:
    """One benchmark cell: the median over seeds of the final training RelMSE of ``model`` on (kind, alpha).

    Returned (a list of them) by :func:`load_benchmark`; :func:`memory_report` ranks architectures by them.

    Parameters
    ----------
    model : str
        The architecture (e.g. "lstm", "s4d", "lstm->tcn").
    kind : str
        The memory-function family (:data:`theory.memory.KINDS`).
    alpha : float
        The family's memory parameter, in [0, 1].
    median_relmse : float
        Median over seeds of the final training RelMSE (``inf`` for a diverged run).
    source : str
        Where the record was read (a check's name, or the rows file).
    T : int or None
        The benchmark's sequence length, where the results file records it.

    Returns
    -------
    BenchCell
        A frozen record.

    Examples
    --------
    >>> cell = load_benchmark()[0]                  # the packaged cpu results
    >>> cell.kind in ("exp", "poly", "impulse", "airy"), cell.median_relmse >= 0
    (True, True)
    """

    model: str
    kind: str
    alpha: float
    median_relmse: float
    source: str
    T: int | None = None          # the benchmark's sequence length, where the results file records it


class BenchmarkNotFound(FileNotFoundError):
    """No benchmark results at the given path (the message says which files are accepted)."""


def _num(v) -> float:
    if v is None or v == "":
        return math.inf                  # a diverged run: a failure to fit
    return float(v)                      # "inf" parses too


def _walk(obj, name: str, records: list, raw: list):
    """Collect median records and raw per-seed rows anywhere in a JSON object."""
    if isinstance(obj, dict):
        if {"model", "kind", "alpha"} <= obj.keys():
            key = next((k for k in _RELMSE_KEYS if k in obj), None)
            if key == "relmse" and "seed" in obj:
                raw.append(obj)
            elif key is not None:
                records.append((obj, key, name))
            return
        if name == "architectures.recurrent_exp_vs_poly" and isinstance(obj.get("cells"), list):
            for row in filter(_exp_poly_row, obj["cells"]):     # [model, alpha, exp, poly, poly/exp, better]
                for kind, v in (("exp", row[2]), ("poly", row[3])):
                    records.append(({"model": row[0], "kind": kind, "alpha": row[1], "median": v}, "median", name))
        for key, v in obj.items():
            _walk(v, obj.get("name", name) if key == "data" else name, records, raw)
    elif isinstance(obj, list):
        for v in obj:
            _walk(v, name, records, raw)


def _exp_poly_row(row) -> bool:
    """Whether ``row`` is a row of the retired Adam-only report's exp/poly table, ``[model, alpha, exp, poly, ...]``.
    A two-budget report's ``cells`` are the cells its statistic read, ``[study, model, variant, kind, alpha, ...]``
    (no medians: those are in its ``medians``), and are skipped."""
    return (isinstance(row, list) and len(row) >= 4 and isinstance(row[0], str)
            and isinstance(row[1], (int, float)) and not isinstance(row[1], bool))


def _read_rows(path: Path):
    if path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8") as fh:
            return list(csv.DictReader(fh))
    return json.loads(path.read_text(encoding="utf-8"))


def _as_path(name: str, v):
    if not isinstance(v, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {type(v).__name__}")
    return v


def load_benchmark(path=None) -> list[BenchCell]:
    r"""Read benchmark results: the median RelMSE of each architecture on each (kind, alpha) cell.

    Per-cell medians ``(model, kind, alpha, median RelMSE)`` from a validation report or a rows file, as the
    module docstring says (section "Benchmark results"): per-seed rows are reduced to medians (a diverged
    run counting as ``+inf``), rows of another study than ``main`` are left out. No number is invented.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A ``results.json`` of a validation report, or a rows file (JSON list or CSV with columns ``model,
        kind, alpha`` and ``median_relmse`` or per-seed ``relmse``). None: :data:`DEFAULT_RESULTS`, the
        committed cpu-profile results shipped with the package.

    Returns
    -------
    list of BenchCell
        One per (model, kind, alpha) record found, with its source.

    Raises
    ------
    TypeError
        ``path`` not a str or os.PathLike.
    BenchmarkNotFound
        No file at ``path`` (a ``FileNotFoundError``; the message says which files are accepted).
    ValueError
        A file that is not JSON/CSV, or holds no per-cell medians (the message names ``path``).

    Examples
    --------
    >>> import os, tempfile
    >>> tmp = tempfile.TemporaryDirectory(); p = os.path.join(tmp.name, "results.json")
    >>> _ = open(p, "w").write('{"results": [{"name": "x", "data": {"medians": ['
    ...     '{"model": "tcn", "kind": "poly", "alpha": 0.5, "median_relmse": 0.01}]}}]}')
    >>> load_benchmark(p)[0].median_relmse
    0.01
    >>> q = os.path.join(tmp.name, "rows.csv")                    # per-seed rows: the median over seeds
    >>> _ = open(q, "w").write("model,kind,alpha,seed,relmse\nlstm,exp,0.5,0,0.3\nlstm,exp,0.5,1,0.1\n"
    ...                        "lstm,exp,0.5,2,0.2\n")
    >>> [(c.model, c.kind, c.alpha, c.median_relmse) for c in load_benchmark(q)]
    [('lstm', 'exp', 0.5, 0.2)]
    >>> tmp.cleanup()
    """
    path = Path(DEFAULT_RESULTS if path is None else _as_path("path", path))
    if not path.is_file():
        raise BenchmarkNotFound(f"no benchmark results found at {path}; give the results.json of a cpu-profile "
                                "validation report (as docs/results/cpu-architectures/results.json) or a rows file "
                                "(CSV/JSON: model, kind, alpha, median_relmse)")
    try:
        data = _read_rows(path)
    except (json.JSONDecodeError, UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"benchmark file {path} is not valid JSON/CSV: {exc}") from None
    records, raw = [], []
    _walk(data, "", records, raw)
    if not records and not raw:
        raise ValueError(f"{path} holds no per-(model, kind, alpha) median RelMSE; the architecture checks must "
                         f"store them, or pass a rows file (CSV/JSON: model, kind, alpha, median_relmse or relmse)")
    mains = [r for r in raw if r.get("study", "main") == "main"] or raw
    out = [BenchCell(str(rec["model"]), str(rec["kind"]), float(rec["alpha"]), _num(rec[key]), src or str(path),
                     int(rec["T"]) if isinstance(rec.get("T"), int) else None)
           for rec, key, src in records if rec.get("study", "main") == "main"]
    rows = [{**r, "alpha": float(r["alpha"]), "relmse": None if r["relmse"] in (None, "") else float(r["relmse"])}
            for r in mains]
    for (m, k, a), v in median_by(rows, ("model", "kind", "alpha")).items():
        out.append(BenchCell(str(m), str(k), a, v, f"{path} (median over seeds)"))
    return out


def best_on_cell(cells: list[BenchCell], kind: str, alpha: float) -> tuple[float | None, list[BenchCell]]:
    """The benchmarked alpha of ``kind`` nearest to ``alpha`` and its cells sorted by median RelMSE (best first).

    ``cells``: BenchCells (:func:`load_benchmark`); ``kind`` in :data:`theory.memory.KINDS`; ``alpha`` in [0, 1].
    ``(None, [])`` when no cell has that kind.

    Duplicates of a (model, kind, alpha) cell (e.g. the same numbers in two checks) are kept once.

    >>> cells = [BenchCell("lstm", "exp", 0.5, 0.2, ""), BenchCell("s4d", "exp", 0.5, 0.01, ""),
    ...          BenchCell("s4d", "exp", 0.25, 0.001, "")]
    >>> a, best = best_on_cell(cells, "exp", 0.45)
    >>> a, [c.model for c in best]
    (0.5, ['s4d', 'lstm'])
    """
    if isinstance(cells, (str, bytes)) or not hasattr(cells, "__iter__"):
        raise TypeError(f"cells must be a sequence of BenchCell, got {type(cells).__name__}")
    cells = list(cells)
    if not all(isinstance(c, BenchCell) for c in cells):
        raise TypeError("cells must hold BenchCell objects (see load_benchmark)")
    kind = as_choice("kind", kind, KINDS)
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=1.0)
    alphas = sorted({c.alpha for c in cells if c.kind == kind})
    if not alphas:
        return None, []
    a = min(alphas, key=lambda x: (abs(x - alpha), x))
    seen, best = set(), []
    for c in sorted((c for c in cells if c.kind == kind and c.alpha == a), key=lambda c: c.median_relmse):
        if c.model not in seen:
            seen.add(c.model)
            best.append(c)
    return a, best


# ----------------------------------------------------------------------------------------------------
# the report
# ----------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class MemoryReport:
    """The memory report of a target: complexity, Prony order, nearest benchmarked family, best architectures.

    Returned by :func:`memory_report` (the module docstring defines every number); ``to_dict()`` for JSON.

    Parameters
    ----------
    T : int
        The number of lags of the memory function.
    tail_energy : dict
        The tail-energy complexity ``C(rho, s)`` at ``s = 1, 2, 4, ...`` and its area, sorted and positional.
    effective_rank : dict
        The effective rank of the Toeplitz, Hankel and lag couplings.
    prony : dict or None
        The best exponential-sum order within ``prony_tol`` with its residual, condition and time scales
        (None when not asked).
    families : list of dict
        Every family's nearest member (kind, alpha, mismatch), nearest first.
    nearest : dict
        The nearest family (kind, alpha, mismatch).
    far : bool
        Whether the mismatch exceeds ``far_threshold`` (no architecture is ranked then).
    far_threshold : float
        The threshold of ``far``.
    benchmark : dict
        The benchmarked cell nearest to the family and the architectures that did best on it (or why none).

    Returns
    -------
    MemoryReport
        A record.

    Examples
    --------
    >>> r = memory_report(0.9 ** np.arange(64), prony=False)       # an exponential memory
    >>> r.T, r.nearest["kind"], r.far
    (64, 'exp', False)
    """

    T: int
    tail_energy: dict
    effective_rank: dict
    prony: dict | None
    families: list[dict]
    nearest: dict
    far: bool
    far_threshold: float
    benchmark: dict

    def to_dict(self) -> dict:
        def clean(v):
            if isinstance(v, float) and not math.isfinite(v):
                return str(v)
            if isinstance(v, dict):
                return {str(k): clean(x) for k, x in v.items()}
            if isinstance(v, (list, tuple)):
                return [clean(x) for x in v]
            return v

        return clean(dataclasses.asdict(self))


def _tail(r: np.ndarray) -> dict:
    T = r.size
    s = [2**j for j in range(int(math.log2(T - 1)) + 1)]
    return {"effective_support_sorted": effective_support(r), "effective_support_positional":
            effective_support(r, kind="positional"), "C_sorted": {str(k): tail_energy(r, k) for k in s},
            "C_positional": {str(k): tail_energy(r, k, kind="positional") for k in s}}


def _prony(r: np.ndarray, tol: float, m_max: int | None) -> dict:
    sel = select_order(r, tol, m_max=m_max)
    f = sel.fit
    return {"tol": tol, "order": sel.m, "reached": sel.m is not None, "m_tried": len(sel.fits), "residual": f.residual,
            "condition": f.condition, "timescales": [float(x) for x in f.timescales],
            "timescale_spread": f.timescale_spread}


def _benchmark(results, kind: str, alpha: float, r: np.ndarray, far_threshold: float) -> dict:
    path = DEFAULT_RESULTS if results is None else Path(results)
    try:
        cells = load_benchmark(path)
    except (BenchmarkNotFound, ValueError) as exc:
        return {"path": str(path), "available": False, "message": str(exc)}
    a, best = best_on_cell(cells, kind, alpha)
    if a is None:
        return {"path": str(path), "available": False,
                "message": f"{path} has no cells of kind {kind!r}; benchmarked kinds: "
                           f"{sorted({c.kind for c in cells})}"}
    d = mismatch(r, memory_function(kind, a, r.size))
    ranked = d <= far_threshold          # the threshold is enforced: no ranking for a different target
    out = {"path": str(path), "available": True, "kind": kind, "alpha": a, "cell_mismatch": d, "ranked": ranked,
           "ranking": [{"model": c.model, "median_relmse": c.median_relmse} for c in best] if ranked else []}
    notes = []
    if not ranked:
        notes.append(f"no ranking: the nearest benchmarked cell ({kind}, alpha={a}) has mismatch {d:.3g} > "
                     f"{far_threshold}: its numbers describe a different target")
    lengths = sorted({c.T for c in best if c.T is not None})
    if lengths:
        out["benchmark_T"] = lengths[0] if len(lengths) == 1 else lengths
        if lengths != [r.size] and ranked:
            out["length_note"] = (f"the benchmark trained at T = {', '.join(map(str, lengths))}, your target has "
                                  f"T = {r.size}: the ranking is for the benchmark's length")
            notes.append(out["length_note"])
    if notes:
        out["message"] = "; ".join(notes)
    return out


def memory_report(rho, *, T: int | None = None, prony_tol: float = PRONY_TOL, m_max: int | None = None,
                   prony: bool = True, results=None, far_threshold: float = FAR_THRESHOLD) -> MemoryReport:
    r"""What a target's memory function says about how hard it is to learn, and which architectures did best.

    The memory report of the module docstring: the tail-energy complexity and effective ranks, the best
    exponential-sum (Prony) order, the nearest benchmarked family (with its mismatch D) and, from the
    benchmark results, the architectures that did best on the nearest benchmarked cell (no ranking for a
    target farther than ``far_threshold``). Source: Jiang, Bao, Wang, Li (2025), arXiv:2506.05678
    (``docs/papers/memory-functions.md``), with the toolkit's conventions.

    Parameters
    ----------
    rho : array_like of float or callable
        Memory function over lags ``0..T-1`` (``8 <= T <= MAX_LENGTH``), or a callable evaluated on
        ``numpy.arange(T)`` (then ``T`` is required).
    T : int, optional
        Length, only with a callable ``rho``.
    prony_tol : float, default 1e-3
        Residual (weighted RelMSE) the exponential-sum order must reach, in (0, 1].
    m_max : int, optional
        Largest order tried, ``1 <= m_max <= T // 2`` (default ``min(12, T // 2)``).
    prony : bool, default True
        False skips the Prony fits (they take seconds for hard targets).
    results : str or os.PathLike, optional
        Benchmark file (:func:`load_benchmark`); default :data:`DEFAULT_RESULTS`. A missing file is
        reported in ``benchmark["message"]``, not raised.
    far_threshold : float, default 0.1
        Mismatch above which the target is far from every family, in (0, 1).

    Returns
    -------
    MemoryReport
        ``T``, ``tail_energy``, ``effective_rank``, ``prony`` (None when skipped), ``families`` (nearest
        first), ``nearest``, ``far``, ``far_threshold`` and ``benchmark``; ``to_dict()`` for JSON.

    Raises
    ------
    TypeError
        An argument of the wrong type (named), a callable ``rho`` without ``T`` or an array with it.
    ValueError
        ``rho`` shorter than 8 lags, not 1-d, non-finite or identically zero; an argument out of range.

    Examples
    --------
    >>> from theory.memory import memory_function
    >>> p = memory_report(memory_function("exp", 0.5, 64), results="/nonexistent.json")
    >>> p.nearest["kind"], p.far, p.prony["order"], p.benchmark["available"]   # one exponential: order 1
    ('exp', False, 1, False)
    >>> p.benchmark["message"].startswith("no benchmark results found at /nonexistent.json; give")
    True
    >>> q = memory_report(lambda s: 0.9 ** s, T=32, prony=False)
    >>> q.T, q.prony, q.nearest["kind"]
    (32, None, 'exp')
    """
    r = as_memory_function(rho, T)
    if results is not None:
        _as_path("results", results)
    prony_tol = as_real("prony_tol", prony_tol, minimum=0.0, maximum=1.0, open_min=True)
    far_threshold = as_real("far_threshold", far_threshold, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    if m_max is None:
        m_max = min(12, r.size // 2)
    m_max = as_int("m_max", m_max, minimum=1, maximum=r.size // 2)
    if not isinstance(prony, bool):
        raise TypeError(f"prony must be a bool, got {prony!r}")
    fams = nearest_families(r)
    near = fams[0]
    far = near["mismatch"] > far_threshold
    bench = _benchmark(results, near["kind"], near["alpha"], r, far_threshold)
    if far and bench["available"]:     # no ranking; replaces the cell-mismatch and length notes
        bench.pop("length_note", None)
        bench.update(ranked=False, ranking=[],
                     message=f"no ranking: the target is far from every benchmarked family (nearest {near['kind']}, "
                             f"D = {near['mismatch']:.3g} > {far_threshold}): the benchmark's numbers describe "
                             "different targets")
    return MemoryReport(
        T=r.size, tail_energy=_tail(r),
        effective_rank={c: effective_rank(r, coupling=c) for c in ("toeplitz", "hankel", "lag")},
        prony=_prony(r, prony_tol, m_max) if prony else None, families=fams, nearest=near, far=far,
        far_threshold=far_threshold, benchmark=bench)
