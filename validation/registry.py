"""The registry of claims.

A *check* pairs one claim of a paper with the closed form that encodes it (``theory``), the independent
numerics that test it (``numerics``, exact enumeration, another precision, ...), the statistic that
decides, and a verdict. Check modules live in ``validation/checks/``; each registers its checks with the
:func:`check` decorator and is discovered automatically (no central list to edit).

Verdicts
--------
``pass``
    the numerics agree with the closed form / the claim holds under our conventions.

``fail``
    a closed form disagrees with its numerics: a bug in the toolkit (exit code 1).

``not reproduced``
    a *paper's* claim does not hold under the toolkit's documented conventions; the
    report gives the numbers. This is an honest scientific outcome, not a toolkit bug.

``inconclusive``
    the experiment did not test the claim (training not converged, seeds disagreeing more
    than the effect, a spectrum not resolved at this scale); the summary states the reason.
    Not a failure and not a finding: counted separately.

``not run``
    the check belongs to a larger profile than the one requested (e.g. GPU-scale).

``error``
    the check raised; counted as a failure.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import importlib
import pkgutil
import time
import traceback
import uuid
from pathlib import Path
from typing import Callable

PASS = "pass"
FAIL = "fail"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_RUN = "not run"
ERROR = "error"
VERDICTS = (PASS, FAIL, NOT_REPRODUCED, INCONCLUSIVE, NOT_RUN, ERROR)
FAILING = (FAIL, ERROR)
# quick: a smoke test of a few minutes (CI); cpu: every claim at CPU scale (<= 60 min on 2 cores, results
# committed under docs/results/); full: the papers' scale (an accelerator).
PROFILES = ("quick", "cpu", "full")


@dataclasses.dataclass
class Outcome:
    """What a check returns: the verdict, a one-line summary of the decisive numbers, and details.

    ``details`` is Markdown (tables, fitted rates); ``figures`` are file names inside the report
    directory (made with :meth:`Context.figure_path`); ``data`` holds JSON-able numbers for machines.
    """

    verdict: str
    summary: str
    details: str = ""
    figures: list[str] = dataclasses.field(default_factory=list)
    data: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == INCONCLUSIVE and not self.summary.strip():
            raise ValueError("an inconclusive outcome must state its reason in the summary")


@dataclasses.dataclass
class Context:
    """Passed to every check: the profile, where to write figures, a deterministic seed, and how the
    trained-model checks get their runs: ``store`` (the result store file they train into and read; None:
    :meth:`store_path`'s file per experiment in the report directory), ``workers`` (processes of a sweep, one
    torch thread each), ``train`` (False: report on the runs already stored, an unfinished profile) and
    ``sweep`` (the architecture sweep file's name when it is not the profile's, e.g. ``cpu_T256``).
    ``session`` identifies this validation run: the quick profile's default stores are rebuilt once per session.
    """

    profile: str
    report_dir: Path
    seed: int = 20261202
    store: Path | None = None
    workers: int = 2
    train: bool = True
    sweep: str | None = None
    session: str = dataclasses.field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def small_sizes(self) -> bool:
        """Whether the theory and Monte Carlo checks run at their small sizes.

        True in the quick and the cpu profiles alike (the cpu profile scales up the trained-model experiments
        only; those checks read ``profile``); the full profile runs them at their large sizes.
        """
        return self.profile in ("quick", "cpu")

    def figure_path(self, name: str) -> Path:
        """Path for a figure file (PNG) inside the report directory; returns the full path."""
        d = self.report_dir / "figures"
        d.mkdir(parents=True, exist_ok=True)
        return d / name

    def store_path(self, experiment: str, tag: str | None = None) -> Path:
        """The SQLite result store of ``experiment``: ``store`` if given (one file may hold several experiments:
        their run ids differ), else ``<report dir>/<experiment>-<tag or profile>.sqlite``. That default store is
        emptied once per session in the quick profile (a CI smoke test never reuses results of older code); the
        cpu and full stores are resumed."""
        if self.store is not None:
            return Path(self.store)
        self.report_dir.mkdir(parents=True, exist_ok=True)
        path = self.report_dir / f"{experiment}-{tag or self.profile}.sqlite"
        if self.profile == "quick":
            marker = path.with_suffix(".session")
            if not marker.exists() or marker.read_text() != self.session:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(path) + suffix).unlink(missing_ok=True)
                marker.write_text(self.session)
        return path


def with_figure(ctx: "Context", out: Outcome, name: str, plot: Callable, *args, **kwargs) -> Outcome:
    """Draw ``plot(ctx.figure_path(name), *args, **kwargs)`` and attach the figure ``name`` to ``out``: the
    last step of a check (compute the data, ``verdict_*(data)``, the figure)."""
    plot(ctx.figure_path(name), *args, **kwargs)
    out.figures.append(name)
    return out


@dataclasses.dataclass(frozen=True)
class Check:
    """One registered claim: what it tests, against which closed form and numerics, and the function that runs it.

    Made by the :func:`check` decorator; :func:`discover` returns every one; ``run(ctx)`` gives a
    :class:`Result` (the :class:`Outcome` and the seconds).

    Parameters
    ----------
    name : str
        ``"<paper>.<claim>"``.
    paper, claim, closed_form, numerics, statistic : str
        The source, the claim in words, the dotted names of the closed form and the numerics (resolved by
        ``tests/test_registry.py``), and the decision rule.
    func : callable
        ``func(ctx) -> Outcome``.
    profiles : tuple of str
        The profiles it runs in.

    Returns
    -------
    Check
        A frozen record.

    Examples
    --------
    >>> chk = next(c for c in discover() if c.name == "levy.tail_threshold")
    >>> chk.closed_form.startswith("theory.levy.characteristic_root"), "quick" in chk.profiles
    (True, True)
    """

    name: str
    paper: str
    claim: str
    closed_form: str
    numerics: str
    statistic: str
    func: Callable[[Context], Outcome]
    profiles: tuple[str, ...] = PROFILES

    def run(self, ctx: Context) -> "Result":
        t0 = time.perf_counter()
        if ctx.profile not in self.profiles:
            out = Outcome(NOT_RUN, f"runs only in the {'/'.join(self.profiles)} profile")
        else:
            try:
                out = self.func(ctx)
                if not isinstance(out, Outcome):
                    raise TypeError(f"check {self.name} returned {type(out).__name__}, not Outcome")
            except Exception as exc:  # a crashing check is reported, never swallowed
                out = _missing_extra(exc) or Outcome(ERROR, f"{type(exc).__name__}: {exc}", details="```\n" + traceback.format_exc() + "```")
        if ctx.profile == "quick":          # a trained-model claim (one with a committed cpu answer): a smoke test
            from .committed import load

            if self.name in load():
                out = smoke_test(self.name, out, ctx.profile)
        return Result(self, out, time.perf_counter() - t0)


def _missing_extra(exc: Exception) -> Outcome | None:
    """*not run*, naming the extra, when ``exc`` comes from importing an optional extra's module (torch,
    python-flint, dask) that is not installed; None for any other exception (an ``error``)."""
    from theory._extras import missing_extra, needs_extra

    hit = missing_extra(exc)
    if hit is None:
        return None
    module, extra = hit
    return Outcome(NOT_RUN, f"not run ({needs_extra(extra)}; {module} is not installed)")


def smoke_test(name: str, out: Outcome, profile: str = "quick") -> Outcome:
    """The quick profile's answer to a trained-model claim: *inconclusive (smoke test)*, with what its own
    statistic said and the committed cpu answer beside (``validation.committed``). ``fail`` and ``error``,
    toolkit bugs, stay; so does ``not run``, with the committed answer added."""
    from .committed import committed_line

    if out.verdict in FAILING:
        return out
    line = committed_line(name)
    if out.verdict == NOT_RUN:
        return Outcome(NOT_RUN, f"{out.summary} | {line}", details=out.details, figures=out.figures, data=out.data)
    return Outcome(INCONCLUSIVE, f"smoke test ({profile} profile: toy scale, one short training budget, decides "
                                 f"nothing; its statistic says {out.verdict}) | {line}",
                   details=f"The smoke test's own numbers (not a verdict): {out.summary}\n\n{out.details}",
                   figures=out.figures, data={**out.data, "smoke_test_verdict": out.verdict})


@dataclasses.dataclass
class Result:
    check: Check
    outcome: Outcome
    seconds: float


_REGISTRY: dict[str, Check] = {}


def check(
    name: str,
    *,
    paper: str,
    claim: str,
    closed_form: str,
    numerics: str,
    statistic: str,
    profiles: tuple[str, ...] = PROFILES,
) -> Callable[[Callable[[Context], Outcome]], Callable[[Context], Outcome]]:
    """Register a function as the check of one paper claim: a decorator for ``func(ctx) -> Outcome``.

    The decorated function is returned unchanged and recorded, with the texts that describe the claim, under
    ``name`` in the registry that :func:`discover` returns and ``python -m validation`` runs (module
    docstring: verdicts). A check module in ``validation/checks/`` is discovered automatically.

    Parameters
    ----------
    name : str
        Dotted name, e.g. ``signal.float_vs_exact`` (unique: the pattern of ``--only`` selects by it).
    paper : str
        The paper (and section) the claim comes from.
    claim : str
        The claim, in words.
    closed_form : str
        The closed form that encodes it (a ``theory`` function).
    numerics : str
        The independent numerics that test it (exact enumeration, another precision, Monte Carlo, ...).
    statistic : str
        The statistic that decides, with its threshold.
    profiles : tuple of str, default ("quick", "cpu", "full")
        The profiles the check runs in; in any other it reports *not run*.

    Returns
    -------
    callable
        The decorator: ``deco(func) -> func``.

    Raises
    ------
    ValueError
        A profile not in ``PROFILES`` (when called), or a ``name`` already registered by another function
        (when decorating).

    Examples
    --------
    >>> @check("example.sum", paper="none", claim="1 + 1 = 2", closed_form="2", numerics="1 + 1",
    ...        statistic="equality", profiles=("quick",))
    ... def _sum(ctx):
    ...     return Outcome(PASS if 1 + 1 == 2 else FAIL, "1 + 1 = 2")
    >>> _REGISTRY["example.sum"].func is _sum, _REGISTRY["example.sum"].run(Context("quick", Path("."))).outcome.verdict
    (True, 'pass')
    >>> _REGISTRY["example.sum"].run(Context("full", Path("."))).outcome.verdict      # not one of its profiles
    'not run'
    >>> del _REGISTRY["example.sum"]                    # leave the registry as it was
    >>> check("example.gpu", paper="", claim="", closed_form="", numerics="", statistic="", profiles=("gpu",))
    Traceback (most recent call last):
    ...
    ValueError: profiles must be drawn from ('quick', 'cpu', 'full'), got 'gpu'
    """
    for p in profiles:
        if p not in PROFILES:
            raise ValueError(f"profiles must be drawn from {PROFILES}, got {p!r}")

    def deco(func: Callable[[Context], Outcome]) -> Callable[[Context], Outcome]:
        if name in _REGISTRY and _REGISTRY[name].func.__qualname__ != func.__qualname__:
            raise ValueError(f"duplicate check name {name!r}")
        _REGISTRY[name] = Check(name, paper, claim, closed_form, numerics, statistic, func, tuple(profiles))
        return func

    return deco


def discover() -> list[Check]:
    """Import every module of ``validation.checks`` and return the registered checks, sorted by name."""
    import validation.checks as pkg

    for mod in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{mod.name}")
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def select(checks: list[Check], pattern: str | None) -> list[Check]:
    """Checks whose name matches ``pattern``: a glob such as ``signal.*``, a plain substring, or several of
    either separated by commas (``architectures.heads,architectures.no_single_best``: their union, in
    registry order). Check names hold no commas, so a comma always separates patterns."""
    if not pattern:
        return list(checks)
    pats = [p.strip() for p in pattern.split(",") if p.strip()]

    def hit(name: str, pat: str) -> bool:
        return fnmatch.fnmatchcase(name, pat) if any(ch in pat for ch in "*?[") else pat in name

    return [c for c in checks if any(hit(c.name, p) for p in pats)]
