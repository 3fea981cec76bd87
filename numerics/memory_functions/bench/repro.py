"""The reproducibility cell: a small sweep trained under the pinned numerical environment, whose committed record
(``tests/data/repro_cell.json``) every fresh machine must reproduce bit for bit.

The cell runs the benchmark's own code path at a few seconds of CPU: the Adam stage (two cosine cycles,
minibatch RelMSE normalised by the whole data set's energy) and the L-BFGS polish (a float32 stage, then a
float64 stage to its certificate window), through :func:`numerics.memory_functions.bench.sweep.run_sweep` with
its pinned worker process, for the four architectures (an LSTM pair trained as one vmapped group, and a lone
TCN, Transformer and S4D). Each of them crosses a library that dispatches by instruction set when unpinned:
the LSTM's float32 polish and the TCN's convolutions go through oneDNN, the Transformer through ATen's
vectorised kernels, the S4D through FFTs, and every data set through NumPy's SIMD loops.

``tests/test_repro_cell.py`` retrains the cell and compares every number of every run with the record
(:func:`differences`: exact equality of the JSON text, NaN included); ``benchmarks/memory_arch/repro_cell.py
--write`` records it (only ever under the pins). What may differ: the fields that describe the process rather
than the result (:data:`VOLATILE`: timings, host, pid, and the numerical environment, whose CPU name and
environment list are the machine's; its ``pinned`` flag must be True).
"""

from __future__ import annotations

import json
import math
from typing import Any

from theory._args import as_instance, as_int

# train_cell is the benchmark's and the CI test's entry (it trains in a pinned pool of spawned workers, which
# a daemonic fuzz process cannot start); the names below are the module's fuzzed surface
__all__ = ["SWEEP", "GROUP", "VOLATILE", "reproducible_part", "differences"]

SWEEP = {
    "name": "repro_cell",
    "description": "The reproducibility cell (numerics.memory_functions.bench.repro): the cpu profile's protocol "
                   "(Adam in two cosine cycles at lr 5e-3, then a float32 and a float64 L-BFGS stage) at T = 32 "
                   "and a few seconds of CPU.",
    "defaults": {
        "target": {"T": 32, "n_seq": 64, "nonlinear": False, "data_seed": 0},
        "train": {"optimizer": "adam", "lr": 0.005, "steps": 200, "batch": 16, "schedule": "cosine2", "clip": 1.0,
                  "log_every": 10},
        "polish": {"f32_iters": 60, "f64_iters": 60, "history": 20, "window": 20, "f32_window": 20,
                   "check_every": 5, "curve_every": 1},
    },
    "studies": {
        "pair": {"models": {"lstm": {"arch": "lstm", "width": 8, "layers": 1}},
                 "kinds": ["exp"], "alphas": [0.5], "seeds": [0, 1]},
        "lone": {"models": {"tcn": {"arch": "tcn", "channels": 4, "levels": 3, "kernel_size": 2},
                            "transformer": {"arch": "transformer", "d_model": 8, "heads": 2, "layers": 1},
                            "s4d": {"arch": "s4d", "width": 4, "state": 8, "layers": 1}},
                 "kinds": ["impulse"], "alphas": [0.5], "seeds": [0]},
    },
}
GROUP = 2            # the LSTM pair trains as one vmapped group; the lone runs alone
# fields of a result that describe the process, not the result
VOLATILE = ("seconds", "cpu_seconds", "pid", "host", "finished_at", "numeric_env")


def train_cell(store) -> dict[str, dict]:
    """Train the cell into ``store`` (a ``ResultStore``) under the pins (one pinned worker process) and return
    ``{run_id: result}`` of its runs."""
    from numerics.experiments.store import ResultStore

    from .sweep import expand_sweep, run_sweep

    as_instance("store", store, ResultStore, "numerics.experiments.store.ResultStore")
    runs = expand_sweep(SWEEP)
    run_sweep(runs, store, workers=1, group=GROUP, progress=False, pin=True)
    return {r.run_id: store.get(r.run_id)["result"] for r in runs}


def reproducible_part(result: dict) -> dict:
    """``result`` without its :data:`VOLATILE` fields (the polish's own ``seconds`` included)."""
    as_instance("result", result, dict, "run result dict")
    out = {k: v for k, v in result.items() if k not in VOLATILE}
    if isinstance(out.get("polish"), dict):
        out["polish"] = {k: v for k, v in out["polish"].items() if k != "seconds"}
    return out


def differences(recorded: dict, fresh: dict, *, max_fields: int = 10) -> list[str]:
    """Where ``fresh`` (``{run_id: result}``) differs from ``recorded`` (``{run_id: reproducible part}``): run
    ids missing on either side, and for each run its first ``max_fields`` differing fields (dotted paths, both
    values); empty when every number is the same float (NaN equal to NaN, as in the stored JSON).

    >>> differences({"a": {"x": [1.0, float("nan")]}}, {"a": {"x": [1.0, float("nan")], "pid": 7}})
    []
    >>> differences({"a": {"x": [1.0, 2.0]}}, {"a": {"x": [1.0, 2.0000000000000004]}})
    ['a: x.1: 2.0 != 2.0000000000000004']
    """
    as_instance("recorded", recorded, dict, "dict run id -> recorded result")
    as_instance("fresh", fresh, dict, "dict run id -> result")
    max_fields = as_int("max_fields", max_fields, minimum=1)
    out = [f"{rid}: {'not retrained' if rid in recorded else 'not in the record'}"
           for rid in sorted(set(recorded) ^ set(fresh))]
    for rid in sorted(set(recorded) & set(fresh)):
        out += [f"{rid}: {d}" for d in _walk(recorded[rid], reproducible_part(fresh[rid]), "")[:max_fields]]
    return out


def _walk(a: Any, b: Any, path: str) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b), key=str)
                for d in (_walk(a[k], b[k], f"{path}.{k}".lstrip(".")) if k in a and k in b
                          else [f"{path}.{k}".lstrip(".") + (": only in the record" if k in a else ": not in the record")])]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (u, v) in enumerate(zip(a, b)) for d in _walk(u, v, f"{path}.{i}".lstrip("."))]
    same = (json.dumps(a) == json.dumps(b) and type(a) is type(b)) or (
        isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    return [] if same else [f"{path}: {a!r} != {b!r}"]
