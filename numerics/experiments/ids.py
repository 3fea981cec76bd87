"""Content addresses of experiments: canonical JSON and run ids.

A run id is the first 16 hex digits of the SHA-256 of the canonical JSON (sorted keys, no spaces, floats as
Python's shortest repr) of ``{"schema": schema, "config": config}``: the same experiment always gets the
same id, whichever way its config was written, so a store of results doubles as a cache. ``schema`` is the
experiment kind's version: bumping it retires every stored result of that kind.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from theory._args import as_instance

__all__ = ["canonical_json", "content_id"]


def canonical_json(obj: Any) -> str:
    """``obj`` as canonical JSON (sorted keys, no spaces): the text a run id hashes.

    >>> canonical_json({"b": 1, "a": [1.5, None]})
    '{"a":[1.5,null],"b":1}'
    """
    return _canonical("obj", obj)


def _canonical(name: str, obj: Any) -> str:
    try:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:      # numpy scalars, arrays, objects; NaN and infinities
        raise type(exc)(f"{name} must be JSON data (dict, list, str, int, finite float, bool, None): {exc}") from None


def content_id(config: dict, schema: Any) -> str:
    """Content address of a *normalised* config dict under ``schema`` (an int or a str naming the kind).

    >>> content_id({"a": 1}, 3) == content_id({"a": 1}, 3) != content_id({"a": 1}, 4)
    True
    """
    as_instance("config", config, dict, "dict (a normalised run config)")
    _canonical("schema", schema)             # a bad schema (nan, an object) named as such, not as the config
    blob = _canonical("config", {"schema": schema, "config": config})
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
