"""(private) The files the command lines read and the folders they write: one reader per kind, so that a new
command gets the same refusals.

* :func:`read_json`: every JSON file a command reads (sweep files, ``--results``) goes through it first: at
  most :data:`MAX_JSON_BYTES`, UTF-8, nested at most :data:`MAX_JSON_DEPTH` levels (a file of 100,000 ``[`` is
  a one-line error, never a ``RecursionError`` in ``json`` or in the code that walks the document), and, for
  a configuration, no ``NaN`` / ``Infinity`` (not JSON numbers: the error names the key that holds one).
* :func:`output_folder`: a folder a command writes into (``validate --report``, ``sweep plot --out``) lies in
  the *working tree*, the current directory and the folders below it, unless the user asks for another
  place (``--allow-outside``): ``--report /`` is a typo far more often than a wish.

Every problem is a ``ValueError`` whose message names the flag and the file; the commands print it as one
line and exit with status 2.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

# A sweep file or a report's results.json is a few levels deep (report > results > data > cells > row); 64
# leaves room for any such file and stays far below Python's recursion limit (1000), which json's decoder
# and every recursive walk of the document share.
MAX_JSON_DEPTH = 64
MAX_JSON_BYTES = 256 * 2**20          # read whole: at most 256 MiB

_NOT_FINITE = object()                 # what json's parse_constant gives for NaN / Infinity / -Infinity


def read_json(path: str, flag: str, *, finite: bool = True) -> Any:
    """The JSON document of the file ``path`` (named ``flag`` in errors, e.g. ``"--results"`` or ``"sweep"``).

    ``finite``: refuse ``NaN`` / ``Infinity`` literals (a configuration); False keeps them as floats (a
    results file written by Python's ``json``, whose statistics may be NaN). A missing, unreadable, too large,
    non-UTF-8, invalid or too deeply nested file is a ``ValueError`` naming ``flag`` and ``path``.

    >>> import os, tempfile
    >>> d = tempfile.TemporaryDirectory(); p = os.path.join(d.name, "deep.json")
    >>> _ = open(p, "w").write("[" * 100000 + "]" * 100000)
    >>> read_json(p, "--results")
    Traceback (most recent call last):
    ...
    ValueError: --results ...deep.json: nested more than 64 levels deep (a JSON file of this toolkit has a few)
    >>> _ = open(p, "w").write('{"studies": {"a": {"alphas": [0.5, NaN]}}}')
    >>> read_json(p, "sweep")
    Traceback (most recent call last):
    ...
    ValueError: sweep ...deep.json: NaN at studies.a.alphas[1]: not a JSON number (write a finite number)
    >>> read_json(p, "--results", finite=False)["studies"]["a"]["alphas"]
    [0.5, nan]
    >>> d.cleanup()
    """
    where = f"{flag} {path}"
    p = Path(path)
    try:
        size = p.stat().st_size
        if not p.is_file():
            raise ValueError(f"{where}: not a file")
        if size > MAX_JSON_BYTES:
            raise ValueError(f"{where}: {size / 2**20:.3g} MiB, over the limit of {MAX_JSON_BYTES / 2**20:.0f} MiB "
                             "for a JSON file")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{where}: no such file") from None
    except UnicodeDecodeError:
        raise ValueError(f"{where}: not a UTF-8 text file") from None
    except OSError as exc:
        raise ValueError(f"{where}: cannot read it ({exc.strerror or exc})") from None
    deep = ValueError(f"{where}: nested more than {MAX_JSON_DEPTH} levels deep (a JSON file of this toolkit has "
                      "a few)")
    constant = (lambda name: (_NOT_FINITE, name)) if finite else None
    try:
        doc = json.loads(text, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:                # deeper than the interpreter's recursion limit (about 1000)
        raise deep from None
    if _depth(doc) > MAX_JSON_DEPTH:      # deep enough for a RecursionError in the code that walks it
        raise deep
    if finite:
        hit = _first_constant(doc)
        if hit is not None:
            key, name = hit
            raise ValueError(f"{where}: {name} at {key or 'the top level'}: not a JSON number (write a finite number)")
    return doc


def _depth(doc: Any) -> int:
    """How many levels of lists and objects ``doc`` nests (a walk without recursion)."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        v, level = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, level)
            stack += [(x, level + 1) for x in (v.values() if isinstance(v, dict) else v)]
    return deepest


def _first_constant(doc: Any) -> tuple[str, str] | None:
    """(key path, literal) of the first NaN / Infinity that :func:`read_json` marked, walking without recursion."""
    stack = [("", doc)]
    while stack:
        key, v = stack.pop()
        if isinstance(v, tuple) and len(v) == 2 and v[0] is _NOT_FINITE:
            return key, v[1]
        if isinstance(v, float) and not math.isfinite(v):      # parse_float gives no inf; kept for safety
            return key, repr(v)
        if isinstance(v, dict):
            stack += [(f"{key}.{k}" if key else str(k), x) for k, x in reversed(list(v.items()))]
        elif isinstance(v, list):
            stack += [(f"{key}[{i}]", x) for i, x in reversed(list(enumerate(v)))]
    return None


def output_folder(path: str, flag: str, *, allow_outside: bool = False) -> Path:
    """``path`` as a folder a command may write into: inside the working tree (the current directory and the
    folders below it, symbolic links resolved), or anywhere when ``allow_outside`` (``--allow-outside``).

    >>> output_folder("validation-report", "--report").name
    'validation-report'
    >>> output_folder("/", "--report")
    Traceback (most recent call last):
    ...
    ValueError: --report /: outside the working tree (...); give a folder below it, or add --allow-outside to write there
    """
    folder = Path(path)
    if allow_outside:
        return folder
    here = Path.cwd().resolve()
    target = folder.resolve()
    if target != here and here not in target.parents:
        raise ValueError(f"{flag} {path}: outside the working tree ({here}); give a folder below it, or add "
                         "--allow-outside to write there")
    return folder
