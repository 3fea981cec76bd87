"""Helpers shared by the frozen config dataclasses of the experiments (one home, no copies).

Every config of the toolkit (``TargetSpec``, ``TrainSpec``, ``RunConfig``, the gated-RNN sub-specs,
``SDEConfig``) is a frozen dataclass whose ``__post_init__`` validates and normalises its fields, and whose
``from_dict`` accepts the plain JSON dict of a profile or sweep file.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable


def setter(obj: Any) -> Callable[[str, Any], None]:
    """``f(name, value)`` that sets a field of a *frozen* dataclass from inside its ``__post_init__``.

    A frozen dataclass forbids ``self.x = v``; validation that normalises a field (an int given as 3.0,
    a list given for a tuple) must go through ``object.__setattr__``, which this names once.
    """
    return lambda name, value: object.__setattr__(obj, name, value)


def dataclass_from_dict(cls, d: Any, where: str, *, tuples: tuple[str, ...] = ()):
    """``cls(**d)`` with a clear error for a non-dict or an unknown field (``where`` names the config).

    ``tuples``: fields given as JSON lists that the dataclass stores as tuples.
    """
    if isinstance(d, cls):
        return d
    if not isinstance(d, dict):
        raise TypeError(f"{where} must be a dict, got {type(d).__name__}")
    names = [f.name for f in dataclasses.fields(cls)]
    extra = set(d) - set(names)
    if extra:
        raise ValueError(f"{where}: unknown field(s) {sorted(extra)}; allowed: {names}")
    d = {k: tuple(v) if k in tuples and isinstance(v, list) else v for k, v in d.items()}
    return cls(**d)
