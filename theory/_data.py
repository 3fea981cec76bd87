"""(private) Where the toolkit's run-time data lives: folders inside its own packages, found with
``importlib.resources`` (so a wheel installed anywhere reads the same files as a checkout).

Every file the library reads at run time (sweep and profile configs, the published real rows, the packaged
benchmark results, the committed verdicts) is package data (``[tool.setuptools.package-data]`` in
``pyproject.toml``); nothing is read relative to a repository checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def package_path(package: str, *parts: str) -> Path:
    """The file-system path of ``parts`` inside the installed ``package`` (located by ``importlib.resources``).

    Parameters
    ----------
    package : str
        A dotted package name, e.g. ``"numerics.memory_functions.bench"``.
    *parts : str
        Path components below the package folder, e.g. ``"sweeps", "quick.json"``.

    Returns
    -------
    pathlib.Path
        The path (it need not exist: callers test ``is_file()`` and name it in their errors).

    Raises
    ------
    RuntimeError
        If the package is not installed as files (a zipped import); pip installs wheels as files.

    Examples
    --------
    >>> package_path("theory", "data", "real_wick_rows.json").is_file()
    True
    """
    where = resources.files(package).joinpath(*parts)
    if not isinstance(where, Path):            # a zip import: the toolkit's readers need real files
        raise RuntimeError(f"package {package!r} is not installed as files ({where!r}); reinstall it with pip")
    return where
