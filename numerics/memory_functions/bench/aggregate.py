"""Aggregation of a memory-function sweep: flat rows, medians over seeds, and the one per-kind score.

Every consumer (the validation checks, the figures, the notebooks) aggregates through this module, so that a
diverged run (``relmse`` None) means the same thing everywhere: a failure to fit, counted as ``+inf``.

Convergence rule (:func:`convergence`), stated before any result was seen and never tuned: a cell (the seeds
of one model on one target) is *converged* iff its training schedule embeds the half-budget run
(``cosine2`` or ``constant``: ``numerics.memory_functions.bench.trainer``), its median final RelMSE is finite, and the
median over seeds improved by at most ``CONVERGENCE_RATIO = 2`` from half to full budget,
``median(half) <= 2 median(full)``, or the half-budget median is already at float32 noise
(``<= FLOAT_FLOOR = 1e-6``). Every trained number is an upper bound on what the architecture can do; the
architecture claims report convergence as context beside their verdicts, never as a veto
(``validation.checks._arch_budgets``).
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from theory._args import as_instance, as_real


def collect(runs: Iterable, store) -> list[dict]:
    """Flat rows (study, model, train_variant, kind, alpha, lam, seed, relmse, ...) for the runs in the store."""
    from numerics.experiments.store import ResultStore

    as_instance("store", store, ResultStore, "numerics.experiments.store.ResultStore")
    runs = _as_list("runs", runs)
    for r in runs:      # SweepRun (expand_sweep), by its fields: the sweep module imports this one
        if not all(hasattr(r, a) for a in ("run_id", "config", "study", "model", "train_variant")):
            raise TypeError(f"runs must hold SweepRun entries (expand_sweep), got {type(r).__name__}")
    rows = []
    for r in runs:
        rec = store.get(r.run_id)
        if rec is None:
            continue
        res, t = rec["result"], r.config.target
        rows.append({"study": r.study, "model": r.model, "train_variant": r.train_variant, "kind": t.kind,
                     "alpha": t.alpha, "lam": t.lam, "T": t.T, "seed": r.config.train.seed,
                     "relmse": res.get("relmse"), "initial_relmse": res.get("initial_relmse"),
                     "half_relmse": res.get("half_relmse"), "half_step": res.get("half_step"),
                     "half_is_budget": bool(res.get("half_is_budget")),
                     "n_params": res.get("n_params"), "seconds": res.get("seconds"),
                     "cpu_seconds": res.get("cpu_seconds"),
                     "curve_steps": res.get("curve_steps"), "curve_loss": res.get("curve_loss"),
                     "probe": res.get("probe"), "exp_sum": res.get("exp_sum"), "run_id": r.run_id,
                     "config": r.config, **_polish_fields(res.get("polish"))})
    return rows


def _polish_fields(pol: dict | None) -> dict:
    """The polish's row fields: ``floor`` is the polished budget's number, the float64 RelMSE where the polish
    ended (None: the run was not polished); ``certified``, ``cert_change`` and ``grad_ratio`` its diagnostics."""
    pol = pol or {}
    return {"floor": pol.get("relmse"), "certified": bool(pol.get("certified")), "cert_change": pol.get("change"),
            "grad_ratio": pol.get("grad_ratio"), "polish_reason": pol.get("reason"),
            "polish_curve": pol.get("curve"), "f64_iters": pol.get("f64_iters"), "polish_seconds": pol.get("seconds"),
            "adam_exp_sum": pol.get("adam_exp_sum")}


def median_by(rows: list[dict], keys: tuple[str, ...], value: str = "relmse") -> dict[tuple, float]:
    """Median of ``value`` over the rows sharing ``keys`` (diverged runs count as +inf: a failure to fit)."""
    _check_rows(rows, tuple(_as_list("keys", keys)) + (as_instance("value", value, str, "column name (str)"),))
    groups: dict[tuple, list[float]] = {}
    for r in rows:
        v = r[value]
        groups.setdefault(tuple(r[k] for k in keys), []).append(math.inf if v is None else float(v))
    out = {}
    for k, vs in groups.items():
        vs = sorted(vs)
        n = len(vs)
        out[k] = vs[n // 2] if n % 2 else 0.5 * (vs[n // 2 - 1] + vs[n // 2])
    return out


def _as_list(name: str, value) -> list:
    try:            # an Iterable may still refuse iteration (a 0-d numpy array)
        if isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
            raise TypeError
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a list or tuple, got {type(value).__name__} {value!r:.60}") from None


def _check_rows(rows, columns: tuple) -> None:
    """``rows``: a list of dicts (from :func:`collect`) that hold every column in ``columns``."""
    for r in _as_list("rows", rows):
        as_instance("rows[i]", r, dict, "dict (a row of collect)")
        missing = [c for c in columns if not isinstance(c, str) or c not in r]
        if missing:
            raise ValueError(f"rows: column(s) {missing!r:.80} not in the rows (keys/value/label name columns)")


CONVERGENCE_RATIO = 2.0
FLOAT_FLOOR = 1e-6


def convergence(rows: list[dict], keys: tuple[str, ...] = ("model", "kind", "alpha")) -> dict[tuple, dict]:
    """Per cell (rows sharing ``keys``): median full and half-budget RelMSE, their ratio, and ``converged``
    with the ``reason`` when not (see the module docstring). Diverged runs count as +inf in both medians."""
    full = median_by(rows, keys)
    half = median_by([dict(r, relmse=r.get("half_relmse") if r.get("relmse") is not None else None)
                      for r in rows], keys)
    budget: dict[tuple, bool] = {}
    for r in rows:
        k = tuple(r[x] for x in keys)
        budget[k] = budget.get(k, True) and bool(r.get("half_is_budget"))
    out = {}
    for k, f in full.items():
        h = half[k]
        ratio = h / f if 0 < f < math.inf else (1.0 if h == f == 0 else math.inf)
        if not budget[k]:
            ok, why = False, "no half-budget run (schedule)"
        elif f == math.inf:
            ok, why = False, "diverged (median +inf)"
        elif h <= FLOAT_FLOOR or ratio <= CONVERGENCE_RATIO:
            ok, why = True, ""
        else:
            ok, why = False, f"median improved {ratio:.3g}x from half to full budget"
        out[k] = {"full": f, "half": h, "ratio": ratio, "converged": ok, "reason": why}
    return out


def log10_or_inf(v: float | None) -> float:
    """log10 of a RelMSE; None or +inf (diverged) is +inf, 0 is floored at 1e-300."""
    if v is None or (v == math.inf and not isinstance(v, bool)):
        return math.inf
    return math.log10(max(as_real("v", v, minimum=0.0), 1e-300))


def kind_scores(rows: list[dict], label: str = "model") -> dict[tuple, float]:
    """(label, kind) -> mean over alpha of log10 median RelMSE over seeds: the per-kind score.

    A cell with a diverged median scores +inf (it is not dropped: a model that diverges on a kind is worst
    on it). ``label`` names the row field that identifies a model (``"model"`` or a display label).
    """
    med = median_by(rows, (label, "kind", "alpha"))
    cells: dict[tuple, list[float]] = {}
    for (m, k, _a), v in med.items():
        cells.setdefault((m, k), []).append(log10_or_inf(v))
    return {key: float(np.mean(vs)) for key, vs in cells.items()}
