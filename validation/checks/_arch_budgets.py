"""The two optimisation budgets of the architecture claims (``docs/papers/memory-functions.md``, "The decision
rule: two stated optimisation budgets"; fixed before any polished run of the cpu profile was read).

Every run has two numbers, both *upper bounds* on what its architecture can reach on the task:

- the **Adam budget**: ``relmse``, the full-data RelMSE at the end of the Adam stage;
- the **polished budget**: ``floor`` in the rows of ``numerics.memory_functions.bench.aggregate.collect``, the float64
  full-data RelMSE where the L-BFGS polish (float32 stage, then float64 stage) ends.

:func:`two_budgets` applies one claim's own seed statistic (a ``verdict_*`` function of
``validation.checks.architectures``, taking rows whose ``relmse`` column is the budget's number) at both
budgets. The headline verdict is the polished budget's; beside it stands the Adam-budget verdict and whether
the two agree (*robust to the optimisation budget*) or not (*depends on the budget*). A claim about the
optimiser itself is answered at the Adam budget only. The Adam stage's half/full-budget ratio and the
polish's gradient ratio, flatness and certificate are reported per cell as context; they never veto.
A toolkit bug (``fail``, e.g. a run below the Prony lower bound) at either budget is the headline.

**Fragility** (``validation.checks._arch_fragility``): given the committed cross-machine spread, every run
carries its spread at each budget, every verdict reports its decisive margins with the range each can take
within the spread, and each budget's verdict is labelled *fragile* (it can flip within the spread) or
*robust*.

In the quick profile the registry turns the answer into *inconclusive (smoke test)* with the committed cpu
answer beside it (``validation.registry._smoke_test``).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from numerics.memory_functions.bench.aggregate import convergence
from validation.checks._arch_fragility import _num
from validation.registry import FAIL, INCONCLUSIVE, Outcome
from validation.report import markdown_table

ADAM, POLISHED = "adam", "polished"
BUDGET_NAMES = {ADAM: "Adam budget", POLISHED: "polished budget"}
ROBUST = "robust to the optimisation budget"


def polished_rows(rows: list[dict]) -> list[dict] | None:
    """The rows with ``relmse`` replaced by the polished number (a diverged or non-finite polish: None, i.e.
    +inf, a failure to fit) and ``budget`` set to ``"polished"``; None when some run has no polish record (the
    profile does not polish)."""
    if not rows or any(r.get("polish_curve") is None and r.get("floor") is None for r in rows):
        return None
    out = []
    for r in rows:
        v = r.get("floor")
        out.append(dict(r, relmse=float(v) if v is not None and math.isfinite(v) else None, budget=POLISHED))
    return out


def agreement(adam: str, polished: str) -> str:
    """The line beside the headline: the same verdict at both budgets, or which verdict at which."""
    if adam == polished:
        return ROBUST
    return f"depends on the budget: {polished} polished, {adam} at the Adam budget"


def _diverged(rows: list[dict]) -> int:
    return sum(r["relmse"] is None for r in rows)


def _seeds(rows: list[dict]) -> list[int]:
    return sorted({int(r["seed"]) for r in rows})


def two_budgets(rows: list[dict], verdict: Callable[[list[dict]], Outcome], keys=("model", "kind", "alpha"), *,
                adam_only: bool = False, spread: dict | None = None) -> Outcome:
    """One claim's Outcome from ``verdict`` applied at both budgets (module docstring); ``adam_only`` for a claim
    about the optimiser; ``spread``: the cross-machine spread (``_arch_fragility.load_spread``; None: fragility
    not assessed). ``data``: ``{"budgets": {"polished": ..., "adam": ...}, "agreement", "seeds",
    "lacks_power", "fragility"}`` plus the headline answer's own data (e.g. the ``medians`` that
    ``memory_report`` reads); each budget's entry carries its ``fragility`` (label, reachable verdicts,
    margins) when assessed."""
    from validation.checks._arch_fragility import with_spread

    if spread is not None:
        rows = with_spread(rows, spread, ADAM)
    adam = verdict(rows)
    prow = None if adam_only else polished_rows(rows)
    if prow is not None and spread is not None:
        prow = with_spread(prow, spread, POLISHED)
    if adam_only:
        head, pol = adam, None
    elif prow is None:
        pol = Outcome(INCONCLUSIVE, "no polished runs in this profile (its runs have the Adam stage only)")
        head = pol
    else:
        pol = verdict(prow)
        head = pol
    if FAIL in (adam.verdict, pol.verdict if pol else None):
        head = adam if adam.verdict == FAIL else pol
    answers = {ADAM: adam} if adam_only else {POLISHED: pol, ADAM: adam}
    agree = ("answered at the Adam budget only (a claim about the optimiser)" if adam_only
             else agreement(adam.verdict, pol.verdict))
    seeds = _seeds(rows)
    failed = {b: _diverged(prow if b == POLISHED else rows) for b in answers if b == ADAM or prow is not None}
    fail_txt = "; ".join(f"{n} diverged run(s) at the {BUDGET_NAMES[b]} (counted as +inf)" for b, n in failed.items()
                         if n)
    summary = " | ".join(f"{BUDGET_NAMES[b]}: {o.verdict}: {o.summary}" for b, o in answers.items())
    fragile = {b: (o.data.get("fragility") or {}).get("label", "not assessed") for b, o in answers.items()}
    frag_txt = "fragility (cross-machine spread): " + ", ".join(f"{BUDGET_NAMES[b]} {v}" for b, v in fragile.items())
    summary = f"{head.verdict}: {summary} | {agree} | {frag_txt}" + (f" | {fail_txt}" if fail_txt else "")
    details = "\n\n".join(f"### {BUDGET_NAMES[b]}: {o.verdict}\n\n{o.summary}\n\n{o.details}" for b, o in answers.items())
    details += fragility_details(answers)
    details += f"\n\n### Context (never a veto)\n\nSeeds: {', '.join(map(str, seeds))}.\n\n" + context_table(rows, keys)
    lacks = any(o.data.get("lacks_power") for o in answers.values())
    data = {k: v for k, v in head.data.items() if k != "lacks_power"}
    data.update({"budgets": {b: {"verdict": o.verdict, "summary": o.summary,
                                 **{k: v for k, v in o.data.items() if k != "medians"}} for b, o in answers.items()},
                 "agreement": agree, "seeds": seeds, "lacks_power": lacks, "diverged": failed, "fragility": fragile})
    return Outcome(head.verdict, summary, details=details, figures=[f for o in answers.values() for f in o.figures],
                   data=data)


def fragility_details(answers: dict) -> str:
    """The report's fragility section of one claim: per budget, its label and every decisive margin with the
    range it can take within the cross-machine spread."""
    parts = []
    for b, o in answers.items():
        f = o.data.get("fragility")
        if not f:
            continue
        rows = [[m["name"], _f(m["value"]), f"{m['sense']} {_f(m['threshold'])}", f"[{_f(m['lo'])}, {_f(m['hi'])}]",
                 "yes" if m["flips"] else "no", m.get("detail", m["note"]) or "-"] for m in f["margins"]]
        parts.append(f"{BUDGET_NAMES[b]}: **{f['label']}** (verdicts reachable within the spread: "
                     f"{', '.join(f['reachable'])})\n\n"
                     + markdown_table(["margin", "value", "needs", "within the spread", "can flip", "note"], rows))
    if not parts:
        return ""
    return ("\n\n### Fragility (the cross-machine spread of the round-1 runs)\n\nEvery run's log10 RelMSE may "
            "differ between machines by up to its spread (docs/results/cpu-architectures/cross_machine_spread.json); "
            "a verdict that can flip within it is fragile. The rule: docs/papers/memory-functions.md, \"Amendment "
            "(2026-12-06): fragility\".\n\n" + "\n\n".join(parts))


def _f(v) -> str:
    """A number of the report's tables (the fragility margins' format); ``-`` where there is none."""
    return "-" if v is None else _num(v)


def context_table(rows: list[dict], keys=("model", "kind", "alpha")) -> str:
    """Per cell: the Adam stage's medians at half and full budget and their ratio, and, where the runs were
    polished, the median polished RelMSE, the seeds whose polish passed the flat-floor certificate, and the
    median ||g||/||g0|| and relative RelMSE change over the last float64 window."""
    conv = convergence(rows, keys)
    polished = polished_rows(rows) is not None
    table = []
    for cell, c in conv.items():
        rs = [r for r in rows if tuple(r[k] for k in keys) == cell]
        row = [*cell, _f(c["half"]), _f(c["full"]), _f(c["ratio"])]
        if polished:
            fl = [r["floor"] if r["floor"] is not None else math.inf for r in rs]
            med = lambda name: float(np.median([r[name] for r in rs])) if all(r.get(name) is not None for r in rs) \
                else None  # noqa: E731
            row += [_f(float(np.median(fl))), f"{sum(bool(r['certified']) for r in rs)}/{len(rs)}",
                    _f(med("grad_ratio")), _f(med("cert_change"))]
        table.append(row)
    head = [*keys, "Adam median, half budget", "Adam median, full budget", "half/full"]
    if polished:
        head += ["polished median", "certified seeds", "median ||g||/||g0||", "median change, last window"]
    return ("Per cell (medians over seeds): the Adam stage at half and full budget (the state after the first "
            "cosine cycle against the end), and the polish's diagnostics. Context only: no verdict waits on "
            "convergence or on the certificate.\n\n" + markdown_table(head, table))
