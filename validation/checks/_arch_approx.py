"""The *approximation* answer of the architecture claims: decisions from certified floors and upper bounds.

Every polished run's floor is an upper bound on what its architecture can reach on the task; a *certified*
cell's floor (``numerics.memory_functions.bench.aggregate.cell_floors``: the best seed certified flat) is taken to lie
in ``[estimate / spread, estimate]`` (``spread``: the certified seeds' max/min, stuck seeds left out). The
rule, fixed before any polished run was seen:

- :func:`below` ``(a, b, factor)`` -- "a's floor is below ``factor`` x b's" -- is *yes* iff b is certified and
  ``estimate_a < factor * estimate_b / spread_b`` (a's upper bound is under b's lowest floor: a need not be
  certified), *no* iff a is certified and ``estimate_a / spread_a > factor * estimate_b`` (b's upper bound
  is under a's lowest floor), and *open* otherwise (the uncertified side is named, or the bands overlap).
- A claim is a set of :class:`Clause` s, each a list of alternatives, each a list of comparisons. A part
  *holds* iff some alternative has every comparison yes; it is *ruled out* iff every alternative has a no.
  The claim passes iff every part holds, is not reproduced iff some part is ruled out, else inconclusive,
  naming the open comparisons. There is no seed-noise statistic here: the uncertainty of a floor is the
  optimiser's (did it find the floor), which the certificate and the seed spread bound.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from validation.registry import INCONCLUSIVE, NOT_REPRODUCED, PASS

YES, NO, OPEN = "yes", "no", "open"


def _name(cell) -> str:
    return "/".join(str(x) for x in cell)


def below(cells: dict, a: tuple, b: tuple, factor: float = 1.0) -> tuple[str, str]:
    """(yes | no | open, why) for "floor(a) < factor * floor(b)" (module docstring)."""
    ca, cb = cells.get(a), cells.get(b)
    if ca is None or cb is None:
        return OPEN, f"{_name(a if ca is None else b)} not polished"
    ea, eb = ca["estimate"], cb["estimate"]
    if cb["certified"] and ea < factor * eb / cb["spread"]:
        return YES, ""
    if ca["certified"] and ea / ca["spread"] > factor * eb:
        return NO, f"{_name(a)} {ea:.3g} (certified) vs {_name(b)} {eb:.3g}"
    missing = [_name(c) for c, v in ((a, ca), (b, cb)) if not v["certified"]]
    return OPEN, (f"not certified: {', '.join(missing)}" if missing else
                  f"bands overlap: {_name(a)} {ea:.3g} x/{ca['spread']:.2g}, {_name(b)} {eb:.3g} x/{cb['spread']:.2g}"
                  + (f" (factor {factor:g})" if factor != 1 else ""))


@dataclasses.dataclass
class Clause:
    """One part of a claim: alternatives (any one suffices), each a list of (a, b, factor) comparisons."""

    alternatives: list[list[tuple]]

    def status(self, cells: dict) -> tuple[str, list[str]]:
        """(holds | ruled out | open, the reasons of the comparisons that keep it open or rule it out)."""
        results = [[below(cells, *c) for c in alt] for alt in self.alternatives]
        if any(alt and all(s == YES for s, _ in alt) for alt in results):
            return "holds", []
        if all(any(s == NO for s, _ in alt) for alt in results):
            return "ruled out", sorted({w for alt in results for s, w in alt if s == NO})[:3]
        return "open", sorted({w for alt in results for s, w in alt if s == OPEN})


def decide(parts: dict[str, "Clause"], cells: dict) -> tuple[str, str, dict]:
    """(verdict, reason, status per part) of a claim made of parts (module docstring)."""
    status = {n: p.status(cells) for n, p in parts.items()}
    if status and all(s == "holds" for s, _ in status.values()):
        return PASS, "every part holds on certified floors / settling upper bounds", status
    out = [n for n, (s, _) in status.items() if s == "ruled out"]
    if out:
        return NOT_REPRODUCED, "ruled out: " + "; ".join(f"{n} ({', '.join(status[n][1])})" for n in out), status
    open_ = [(n, w) for n, (s, w) in status.items() if s == "open"]
    shown = "; ".join(f"{n}: {', '.join(w[:3])}" + (f" (+{len(w) - 3} more)" if len(w) > 3 else "") for n, w in open_)
    return INCONCLUSIVE, "undecided on approximation: " + shown, status


def all_certified(cells: dict, wanted) -> list:
    """The cells of ``wanted`` that are missing or not certified."""
    return [c for c in wanted if c not in cells or not cells[c]["certified"]]


def spearman_bands(cells: dict, measure: dict) -> tuple[float, float, float, float]:
    """(rho, p) of the floors against ``measure`` at the estimates and at the band's lower ends
    (estimate / spread): both must agree for a decision. One-sided p for rho > 0."""
    from scipy.stats import spearmanr

    keys = sorted(measure)
    x = [measure[k] for k in keys]
    out = []
    for lo in (False, True):
        y = [math.log10(max(cells[k]["estimate"] / (cells[k]["spread"] if lo else 1.0), 1e-300)) for k in keys]
        res = spearmanr(x, y, alternative="greater")
        out += [float(res.statistic), float(res.pvalue)]
    return tuple(out)


def floors_table(cells: dict, keys: tuple[str, ...]) -> str:
    """Markdown table of the approximation estimates per cell, with every seed's floor."""
    from validation.report import markdown_table

    rows = []
    for c, v in cells.items():
        seeds = "; ".join(f"{s}: {d['floor']:.3g}{'' if d['certified'] else ' (ub)'} [{_num(d.get('change'))}, "
                          f"{_num(d.get('grad_ratio'))}]" for s, d in v["seeds"].items())
        rows.append([*c, f"{v['estimate']:.3g}", "yes" if v["certified"] else "NO (upper bound)",
                     f"{v['spread']:.2g}", f"{v['n_certified']}/{v['n_seeds']}",
                     ", ".join(str(s) for s in v["stuck"]) or "-", seeds])
    return ("Approximation estimates (best polished seed; certified iff that seed's float64 RelMSE is flat to 1% "
            "over 500 iterations with ||g||/||g0|| <= 1e-3; ub = upper bound, not certified; stuck = more than "
            "10x above the best seed; per seed: floor [relative change over the last 500 float64 iterations, "
            "||g||/||g0||]):\n\n"
            + markdown_table([*keys, "floor estimate", "certified", "spread", "seeds certified", "stuck seeds",
                              "per seed"], rows))


def _num(v) -> str:
    return "-" if v is None else f"{v:.2g}"


def geometric_span(cells: dict, wanted) -> float:
    """log10(max/min) of the estimates over ``wanted`` (decades)."""
    v = [math.log10(max(cells[c]["estimate"], 1e-300)) for c in wanted if c in cells]
    return float(np.ptp(v)) if v else math.nan
