"""(private) The optional extras and the modules they provide: one table, read by the validation registry
(a check whose import of an extra's module fails is *not run*, naming the extra), the command line and the
lazy ``seqtheory`` namespace (their errors name the extra to install).
"""

from __future__ import annotations

# top-level module -> the extra of pyproject.toml that installs it
EXTRAS = {"torch": "models", "flint": "certified", "dask": "distributed", "distributed": "distributed"}


def missing_extra(exc: BaseException | None) -> tuple[str, str] | None:
    """``(module, extra)`` when ``exc`` (or an exception it was raised from) is an import of an extra's module
    that failed; None otherwise (a bug, not a missing extra).

    Parameters
    ----------
    exc : BaseException or None
        The exception to inspect; its ``__cause__`` / ``__context__`` chain is followed.

    Returns
    -------
    tuple of (str, str) or None
        The top-level module that could not be imported and the extra that provides it.

    Examples
    --------
    >>> missing_extra(ModuleNotFoundError("No module named 'torch'", name="torch"))
    ('torch', 'models')
    >>> missing_extra(ModuleNotFoundError("No module named 'flint.x'", name="flint.x"))
    ('flint', 'certified')
    >>> missing_extra(ValueError("bad")) is None
    True
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            top = exc.name.split(".")[0]
            if top in EXTRAS:
                return top, EXTRAS[top]
        exc = exc.__cause__ or exc.__context__
    return None


def needs_extra(extra: str) -> str:
    """The words every message about a missing extra uses.

    >>> needs_extra("models")
    "needs the 'models' extra: pip install 'seqtheory[models]'"
    """
    return f"needs the {extra!r} extra: pip install 'seqtheory[{extra}]'"
