"""Build benchmark models from plain, JSON-able specs, e.g. ``{"arch": "tcn", "channels": 16, "levels": 6}``.

Architectures and their fields (defaults are the constructors' keyword defaults):

- ``lstm``:        width, layers
- ``s4d``:         width, state, layers, init ("lin" | "inv"), dt_range ("task" = [1/T, 1] | "reference" =
  [1e-3, 1e-1]), dt_min, dt_max (explicit override), linear, skip
- ``tcn``:         channels, levels, kernel_size
- ``transformer``: d_model, heads, layers, pos ("sinusoidal" | "learned"), max_len, ffn_mult
- ``sequential``:  stages (a list of >= 2 specs, applied first to last), interface (the feature width
  between stages, default 16): ``{"arch": "sequential", "stages": [{"arch": "lstm"}, {"arch": "tcn"}]}``
  is LSTM -> TCN.

The task's sequence length is not part of a model spec: :func:`build_model` takes it as ``seq_len`` (the
S4D default ``dt_range="task"`` scales its time steps to it; the run config's target holds T).

:func:`normalize_model_spec` fills in every default, so that equal models have equal specs (and equal
content-addressed run ids); unknown fields and ill-typed values are rejected with an error naming them.
"""

from __future__ import annotations

import copy
import inspect
import json
from typing import Any

import torch

from theory._args import as_int, as_length

from numerics.memory_functions.models.compose import Sequential
from numerics.memory_functions.models.lstm import LSTM
from numerics.memory_functions.models.s4d import S4D
from numerics.memory_functions.models.tcn import TCN
from numerics.memory_functions.models.transformer import Transformer

ARCHITECTURES = {"lstm": LSTM, "s4d": S4D, "tcn": TCN, "transformer": Transformer}
_INTERNAL = ("self", "d_in", "d_out", "seq_len")
_NORMALIZED: dict[str, dict] = {}


def _fields(cls) -> dict[str, Any]:
    return {name: p.default for name, p in inspect.signature(cls.__init__).parameters.items()
            if name not in _INTERNAL and p.kind is not p.VAR_POSITIONAL}


def normalize_model_spec(spec: Any, *, where: str = "spec") -> dict:
    """Return a new spec with every default filled in; raise TypeError/ValueError naming the bad field
    (``where``: the name of the spec in the messages, e.g. ``"model"`` for a run config's field)."""
    try:
        key = json.dumps(spec, sort_keys=True)
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _NORMALIZED:       # a sweep repeats the same few specs many times
        return copy.deepcopy(_NORMALIZED[key])
    out = _normalize(spec, where)
    if key is not None:
        _NORMALIZED[key] = copy.deepcopy(out)
    return out


def _normalize(spec: Any, where: str) -> dict:
    if not isinstance(spec, dict):
        raise TypeError(f"{where} must be a dict like {{'arch': 'lstm', ...}}, got {type(spec).__name__}")
    arch = spec.get("arch")
    allowed = (*ARCHITECTURES, "sequential")
    if arch not in allowed:
        raise ValueError(f"{where}.arch must be one of {allowed}, got {arch!r}")
    if arch == "sequential":
        extra = set(spec) - {"arch", "stages", "interface"}
        if extra:
            raise ValueError(f"{where}: unknown field(s) {sorted(extra)}; sequential takes 'stages', 'interface'")
        stages = spec.get("stages")
        if not isinstance(stages, (list, tuple)) or len(stages) < 2:
            raise ValueError(f"{where}.stages must be a list of at least 2 model specs, got {stages!r}")
        return {"arch": "sequential",
                "interface": as_int(f"{where}.interface", spec.get("interface", 16), minimum=1),
                "stages": [normalize_model_spec(s, where=f"{where}.stages[{i}]") for i, s in enumerate(stages)]}
    fields = _fields(ARCHITECTURES[arch])
    extra = set(spec) - {"arch"} - set(fields)
    if extra:
        raise ValueError(f"{where}: unknown field(s) {sorted(extra)} for arch {arch!r}; allowed: {sorted(fields)}")
    out = {"arch": arch}
    for name, default in fields.items():
        value = spec.get(name, default)
        if isinstance(default, bool) and not isinstance(value, bool):
            raise TypeError(f"{where}.{name} must be a bool, got {value!r}")
        if isinstance(default, int) and not isinstance(default, bool) and isinstance(value, float):
            raise TypeError(f"{where}.{name} must be an integer, got float {value!r}")
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        out[name] = value
    try:                                   # the constructor holds the range checks: run them once,
        with torch.random.fork_rng():      # without consuming the caller's random stream
            _build(out, 1, 1, seq_len=2)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{where}: {exc}") from None
    return out


def build_model(spec: dict, seq_len: int | None = None):
    """A freshly initialised model (B, T, 1) -> (B, T, 1) for ``spec``; ``seq_len`` = the task's T (needed by
    S4D's default task-scaled time steps).

    Initialised from torch's global RNG exactly as the constructor called directly would be
    (validating the model description does not consume random numbers), so ``torch.manual_seed(s)`` fixes it.
    """
    seq_len = None if seq_len is None else as_length("seq_len", seq_len)
    return _build(normalize_model_spec(spec), 1, 1, seq_len=seq_len)


def _build(spec: dict, d_in: int, d_out: int, seq_len: int | None = None):
    arch = spec["arch"]
    if arch == "sequential":
        k, n = spec["interface"], len(spec["stages"])
        return Sequential(*(_build(s, d_in if i == 0 else k, d_out if i == n - 1 else k, seq_len)
                            for i, s in enumerate(spec["stages"])))
    kwargs = {key: v for key, v in spec.items() if key != "arch"}
    if arch == "s4d":
        kwargs["seq_len"] = seq_len
    return ARCHITECTURES[arch](**kwargs, d_in=d_in, d_out=d_out)


def describe(spec: dict) -> str:
    """Short human label: ``lstm``, ``lstm->tcn``, ``s4d``, ..."""
    if not isinstance(spec, dict) or "arch" not in spec:
        raise TypeError(f"spec must be a model spec dict with 'arch' (zoo.normalize_model_spec), got {spec!r:.60}")
    if spec["arch"] == "sequential":
        return "->".join(describe(s) for s in spec["stages"])
    return spec["arch"]
