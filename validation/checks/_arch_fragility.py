"""Fragility of the architecture claims' verdicts under the cross-machine spread of the runs.

The rule (``docs/papers/memory-functions.md``, "Amendment (2026-12-06): fragility"; written before any round-2
run existed): the same run retrained on another x86-64 machine may end at a different RelMSE. The measured
*per-run spread* ``s`` (decades: the largest ``|log10 RelMSE(machine A) - log10 RelMSE(machine B)|`` of one
run, per model kind and budget) is read from one committed file, :data:`SPREAD_FILE`. Every run's log10
RelMSE may then lie anywhere in ``[x - s, x + s]``, independently of every other run. Beside every decisive
margin of a verdict (the quantity compared with a threshold) the report gives the range that margin can take
over that box, and a verdict that *can flip* within it (some point of the box gives another verdict) is
labelled **fragile**; otherwise **robust**. How a per-run spread reaches each statistic's margin:

- **Paired differences** ``d_i = x_b - x_a`` move by at most ``e_i = s_a + s_b``. The sign test's count, its
  p-values, the median and both ends of the order-statistic interval are monotone in every ``d_i``, so their
  ranges are exact at the two corners ``d - e`` and ``d + e`` (:func:`paired_corners`); e.g. a median of
  paired differences moves by at most ``max_i e_i`` (the sum of the two runs' spreads), and the sign test's
  count changes only through the pairs with ``|d_i| <= e_i`` (:func:`sign_flippable`), with p recomputed at
  the worst case.
- **Mann-Whitney** p-values are monotone in every value of each group: exact at the corners
  (:func:`mwu_corners`), the values' own bounds being ``s_a + s_b`` for a paired ``|d|`` and
  ``s sqrt(n / (n - 1))`` for a standard deviation of ``n`` values (:func:`sd_shift_bound`).
- **Statistics of per-cell centres** (a median or mean of a cell's RelMSE moves by at most the cell's
  ``s`` in log10): a maximum over cells (:func:`max_range`), a span ``max - min`` (:func:`span_range`) and
  differences of such maxima are exact; a Spearman correlation over cells is exact by a search over the
  orderings the box allows (:func:`spearman_range`). A seed-bootstrap interval end is bounded by the
  quantiles of its replicates' own ranges (:func:`bootstrap_range`): an outer bound. Beside it, the interval
  end at two points of the box (every cell moved its full spread the way that lowers, or raises, the statistic
  at the data: :func:`bootstrap_reached`): values the end does take, so a flip reached there is certain.
- A claim made of parts: every part's reachable outcomes, combined as the verdict combines them
  (:func:`reachable_parts`), parts treated as independent (an outer bound where parts share runs).

So *robust* is certain (no point of the box flips the verdict) and *fragile* may be conservative where a
bound is outer. *fail* (a toolkit bug, e.g. a run below a theorem's floor) is never a fragility outcome: a
run below a lower bound on any machine is a bug to fix, not another answer. The spread applies to the runs
it was measured for (``applies_to`` in the file: round 1, trained before the pinned settings); the other
runs carry none.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from numerics.memory_functions.bench.aggregate import log10_or_inf
from numerics.stats import LEVEL, Paired, bootstrap, bootstrap_replicates, mwu, paired
from theory._args import as_choice, as_real, as_real_array

SPREAD_FILE = Path(__file__).resolve().parents[2] / "docs" / "results" / "cpu-architectures" / \
    "cross_machine_spread.json"
FRAGILE, ROBUST = "fragile", "robust"
SENSES = (">", ">=", "<", "<=")
MAX_STATES = 1 << 16        # orderings searched per level by spearman_range; beyond it the trivial bound [-1, 1]


# ----------------------------------------------------------------------------------------------------
# the spread: one committed file, per model kind and budget
# ----------------------------------------------------------------------------------------------------
def load_spread(path=None) -> dict | None:
    """The committed cross-machine spread (``path`` or :data:`SPREAD_FILE`), checked: ``spread`` maps each budget
    to ``{kind: decades}`` with a ``default``, every value finite and >= 0; ``applies_to.seeds`` lists the seeds
    it applies to; ``source`` says where it comes from. None when the file does not exist (an installed
    wheel: fragility is then not assessed)."""
    path = Path(SPREAD_FILE if path is None else path)
    if not path.is_file():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    where = f"cross-machine spread file {str(path)!r}"
    if not isinstance(doc.get("source"), str) or not doc["source"]:
        raise ValueError(f"{where}: needs a 'source' (where the measurement comes from)")
    table = doc.get("spread")
    if not isinstance(table, dict) or not table:
        raise ValueError(f"{where}: 'spread' must map each budget to {{model kind: decades}}")
    for budget, kinds in table.items():
        if not isinstance(kinds, dict) or "default" not in kinds:
            raise ValueError(f"{where}: spread[{budget!r}] needs a 'default' (the kinds not measured)")
        for kind, v in kinds.items():
            as_real(f"{where}: spread[{budget!r}][{kind!r}]", v, minimum=0.0)
    seeds = (doc.get("applies_to") or {}).get("seeds")
    if not isinstance(seeds, list) or not all(isinstance(s, int) for s in seeds):
        raise ValueError(f"{where}: 'applies_to.seeds' must list the seeds (int) of the runs it applies to")
    return doc


def kind_of(row: dict) -> str:
    """The model kind a spread is measured per: the run's architecture (``lstm``, ``s4d``, ``tcn``,
    ``transformer``, ``sequential``), or the model label of a row without a config (synthetic rows)."""
    cfg = row.get("config")
    return cfg.model["arch"] if cfg is not None else str(row["model"])


def run_spread(row: dict, doc: dict | None, budget: str) -> float:
    """One run's spread at ``budget`` (decades): its kind's entry, else the budget's default; 0 for a run the
    measurement does not apply to (its seed not in ``applies_to.seeds``) or when there is no file."""
    if doc is None or int(row["seed"]) not in doc["applies_to"]["seeds"]:
        return 0.0
    table = doc["spread"].get(budget) or doc["spread"].get("default") or {"default": 0.0}
    return float(table.get(kind_of(row), table["default"]))


def with_spread(rows: list[dict], doc: dict | None, budget: str) -> list[dict]:
    """The rows with their ``spread`` field set (:func:`run_spread`)."""
    return [dict(r, spread=run_spread(r, doc, budget)) for r in rows]


def spread_aware(rows: Iterable[dict]) -> bool:
    """Whether the rows carry spreads (then every verdict reports its margins and fragility)."""
    return any("spread" in r for r in rows)


# ----------------------------------------------------------------------------------------------------
# one margin: its reachable range, and whether its comparison can flip
# ----------------------------------------------------------------------------------------------------
def holds(value: float, threshold: float, sense: str) -> bool:
    """``value <sense> threshold`` for ``sense`` in ``>``, ``>=``, ``<``, ``<=``."""
    sense = as_choice("sense", sense, SENSES)
    return {">": value > threshold, ">=": value >= threshold, "<": value < threshold,
            "<=": value <= threshold}[sense]


def can_flip(lo: float, hi: float, threshold: float, sense: str = ">") -> bool:
    """Whether ``value <sense> threshold`` differs somewhere on ``[lo, hi]``: the comparison is monotone in the
    value, so iff it differs at the two ends.

    >>> can_flip(0.2, 0.4, 0.3), can_flip(0.31, 0.5, 0.3), can_flip(0.3, 0.5, 0.3, ">"), can_flip(0.3, 0.5, 0.3, ">=")
    (True, False, True, False)
    """
    if not (lo <= hi):
        raise ValueError(f"lo must be <= hi, got lo = {lo!r}, hi = {hi!r}")
    return holds(lo, threshold, sense) != holds(hi, threshold, sense)


def fragility(margin: float, threshold: float, spread: float, sense: str = ">") -> str:
    """``"fragile"`` iff the comparison ``margin <sense> threshold`` can flip when the margin moves by up to
    ``spread`` either way, else ``"robust"`` (a margin that moves linearly with one run's spread).

    >>> fragility(0.5, 0.25, 0.25), fragility(0.5, 0.25, 0.125), fragility(0.5, 0.25, 0.0)
    ('fragile', 'robust', 'robust')
    """
    margin, threshold = as_real("margin", margin), as_real("threshold", threshold)
    spread = as_real("spread", spread, minimum=0.0)
    return FRAGILE if can_flip(margin - spread, margin + spread, threshold, sense) else ROBUST


def _num(v: float) -> str:
    """A margin's number in the report: three significant digits (``inf``, ``-inf`` as Python spells them)."""
    return f"{v:.3g}"


@dataclasses.dataclass(frozen=True)
class Margin:
    """A decisive comparison ``value <sense> threshold`` and the range ``[lo, hi]`` its value can take within
    the spread; ``note`` adds the statistic's own words (e.g. a sign test's count range). Where ``[lo, hi]``
    is an outer bound, ``reached`` holds values the margin takes at points of the box (besides ``value``, at
    the data): the flip is then certain when those values already differ in the comparison
    (:attr:`flip_reached`).

    >>> m = Margin("interval lower end", 1.4, 1.0, ">", 0.3, 2.5, reached=(0.3, 1.7))
    >>> m.flips, m.flip_reached
    (True, True)
    >>> Margin("interval lower end", 1.4, 1.0, ">", 0.3, 2.5, reached=(1.1, 1.7)).flip_reached
    False
    """

    name: str
    value: float
    threshold: float
    sense: str
    lo: float
    hi: float
    note: str = ""
    reached: tuple[float, float] | None = None

    def __post_init__(self):
        if self.reached is not None:
            pair = tuple(float(v) for v in self.reached)
            if len(pair) != 2 or any(math.isnan(v) for v in pair):
                raise ValueError(f"reached must be two values (not NaN) of the margin at points of the box, "
                                 f"got {self.reached!r}")
            object.__setattr__(self, "reached", pair)

    @property
    def flips(self) -> bool:
        return can_flip(self.lo, self.hi, self.threshold, self.sense)

    @property
    def flip_reached(self) -> bool | None:
        """Whether the comparison differs between the data and the points of the box in ``reached`` (a certain
        flip); None without such points (``[lo, hi]`` exact, or no point evaluated)."""
        if self.reached is None:
            return None
        vals = (self.value, *self.reached)
        return can_flip(min(vals), max(vals), self.threshold, self.sense)

    def detail(self) -> str:
        """``note``, with the points of the box where there are some (the report's note column)."""
        if self.reached is None:
            return self.note
        at = f"outer bound; at two points of the box {_num(self.reached[0])} and {_num(self.reached[1])}"
        if self.flips:
            at += ": the flip is " + ("reached (certain)" if self.flip_reached else "not reached there")
        return f"{self.note}; {at}" if self.note else at

    def as_dict(self) -> dict:
        return {**dataclasses.asdict(self), "flips": self.flips, "flip_reached": self.flip_reached,
                "detail": self.detail()}

    def text(self) -> str:
        detail = self.detail()
        return (f"{self.name}: {_num(self.value)} (needs {self.sense} {_num(self.threshold)}; within the spread "
                f"[{_num(self.lo)}, {_num(self.hi)}]{'; ' + detail if detail else ''}): "
                f"{'can flip' if self.flips else 'holds'}")


def label(observed: str, reachable: Iterable[str]) -> str:
    """``"fragile"`` iff a verdict other than ``observed`` is reachable within the spread."""
    return FRAGILE if set(reachable) - {observed} else ROBUST


def summary(observed: str, reachable: Iterable[str], margins: list[Margin]) -> dict:
    """``data["fragility"]`` of one verdict: the label, the reachable verdicts, every margin."""
    reach = sorted(set(reachable) | {observed})
    return {"label": label(observed, reach), "reachable": reach, "margins": [m.as_dict() for m in margins]}


# ----------------------------------------------------------------------------------------------------
# per statistic: the range of its margins within the spread
# ----------------------------------------------------------------------------------------------------
def _arrays(d, e) -> tuple[np.ndarray, np.ndarray]:
    d = as_real_array("d", d, finite=False).ravel()
    e = as_real_array("e", e).ravel()
    if d.shape != e.shape or np.any(e < 0):
        raise ValueError(f"e must hold one spread >= 0 per difference: {e.size} spreads for {d.size} differences")
    return d, e


def paired_corners(d, e, level: float = LEVEL) -> tuple[Paired, Paired]:
    """:func:`numerics.stats.paired` at the two corners ``d - e`` (every difference moved against the claimed
    direction) and ``d + e``: the extremes of the count, both p-values, the median and both interval ends."""
    d, e = _arrays(d, e)
    return paired(d - e, level), paired(d + e, level)


def sign_flippable(d, e) -> int:
    """How many paired differences can change sign (or become a tie) within their spread: ``|d_i| <= e_i``
    (NaN differences, dropped by the sign test, never count)."""
    d, e = _arrays(d, e)
    return int(np.sum(np.abs(d) <= e))


def mwu_corners(x, ex, y, ey) -> tuple[float, float]:
    """(smallest, largest) one-sided Mann-Whitney p of "x tends to be larger than y" when every ``x_i`` moves by
    up to ``ex_i`` and every ``y_j`` by up to ``ey_j`` (p falls as x rises and y falls)."""
    x, ex = _arrays(x, ex)
    y, ey = _arrays(y, ey)
    return mwu(x + ex, y - ey), mwu(x - ex, y + ey)


def sd_shift_bound(n: int, s: float) -> float:
    """How far the sample standard deviation (ddof 1) of ``n`` values can move when each moves by up to ``s``:
    ``||delta - mean(delta)|| <= s sqrt(n)``, so at most ``s sqrt(n / (n - 1))`` (0 for ``n <= 1``: no standard
    deviation, the statistic's infinite placeholder, either way).

    >>> round(sd_shift_bound(5, 0.1), 6)
    0.111803
    """
    return float(s) * math.sqrt(n / (n - 1)) if n > 1 else 0.0


def max_range(values, spreads) -> tuple[float, float]:
    """Range of ``max_i v_i`` when every ``v_i`` moves by up to ``s_i``: ``[max(v - s), max(v + s)]`` (exact)."""
    v, s = _arrays(values, spreads)
    return float(np.max(v - s)), float(np.max(v + s))


def span_range(values, spreads) -> tuple[float, float]:
    """Range of ``max_i v_i - min_i v_i`` within the box: the largest is ``max(v + s) - min(v - s)``, the smallest
    ``max(0, max(v - s) - min(v + s))`` (every value squeezed into the common part of the boxes; exact)."""
    v, s = _arrays(values, spreads)
    return max(0.0, float(np.max(v - s) - np.min(v + s))), float(np.max(v + s) - np.min(v - s))


def diff_range(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """Range of ``A - B`` for ``A`` in ``a`` and ``B`` in ``b`` (independent: exact when they share no run)."""
    lo, hi = a[0] - b[1], a[1] - b[0]
    return (0.0 if math.isnan(lo) else lo), (0.0 if math.isnan(hi) else hi)


def spearman_range(x, y, s) -> tuple[float, float]:
    """(smallest, largest) Spearman correlation of ``x`` with ``y`` when every ``y_c`` moves by up to ``s_c``.

    Spearman depends on ``y`` through its order only; cell ``a`` must stay below ``b`` iff
    ``y_a + s_a < y_b - s_b``. Over the orders this allows, the correlation is affine in
    ``sum_c rank_x(c) position(c)``, whose extremes a dynamic programme over the sets of cells placed first
    finds exactly (ties in ``y``, which average ranks, lie between). Beyond :data:`MAX_STATES` sets per level
    it returns the trivial bound (-1, 1).

    >>> spearman_range([1, 2, 3], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    (1.0, 1.0)
    >>> spearman_range([1, 2, 3], [1.0, 2.0, 3.0], [0.6, 0.6, 0.6])
    (0.5, 1.0)
    """
    from scipy.stats import rankdata, spearmanr

    x = as_real_array("x", x).ravel()
    y, s = _arrays(y, s)
    n = x.size
    if y.size != n or n < 3:
        raise ValueError(f"x and y must hold the same number (>= 3) of cells, got {n} and {y.size}")
    rx = rankdata(x)
    pred = [sum(1 << a for a in range(n) if a != c and y[a] + s[a] < y[c] - s[c]) for c in range(n)]
    best = {0: ((0.0, ()), (0.0, ()))}          # placed set -> ((min sum, order), (max sum, order))
    for pos in range(1, n + 1):
        nxt: dict = {}
        for mask, (lo, hi) in best.items():
            for c in range(n):
                if mask >> c & 1 or pred[c] & ~mask:
                    continue
                key, w = mask | 1 << c, rx[c] * pos
                cand = ((lo[0] + w, lo[1] + (c,)), (hi[0] + w, hi[1] + (c,)))
                old = nxt.get(key)
                nxt[key] = cand if old is None else (min(old[0], cand[0]), max(old[1], cand[1]))
        if len(nxt) > MAX_STATES:
            return -1.0, 1.0
        best = nxt
    (lo, hi), = best.values()
    rho = [float(spearmanr(x, np.argsort(order)).statistic) for order in (lo[1], hi[1])]
    return min(rho), max(rho)


def spearman_p(x, rho: float) -> float:
    """The one-sided ("greater") p of a Spearman correlation ``rho`` over ``len(x)`` cells, as
    ``scipy.stats.spearmanr`` computes it (Student's t with n - 2 degrees of freedom; monotone in rho)."""
    from scipy.stats import t as student

    n = len(x)
    if rho >= 1.0:
        return 0.0
    return float(student.sf(rho * math.sqrt((n - 2) / ((1.0 - rho) * (1.0 + rho))), n - 2))


def bootstrap_range(cells: dict, spreads: dict, stat_range: Callable[[dict, dict], tuple[float, float]],
                    level: float = LEVEL, *, center: str = "median") -> tuple[tuple[float, float], tuple[float, float]]:
    """Ranges of the two ends of :func:`numerics.stats.bootstrap`'s percentile interval when every per-seed value
    of cell ``c`` moves by up to ``spreads[c]`` decades (``cells`` hold RelMSE; a cell's median or mean then
    moves by at most its spread in log10). ``stat_range(log10 centres, spreads) -> (lo, hi)`` is the range of
    the statistic of one set of centres. Each end lies between the same quantile of the replicates' lows and
    of their highs (the same resamples as the verdict's bootstrap): an outer bound."""
    _, reps = bootstrap_replicates(cells, center=center)
    ranges = np.asarray([stat_range({c: log10_or_inf(v) for c, v in r.items()}, spreads) for r in reps], float)
    q = lambda col, p: float(np.quantile(ranges[:, col], p))  # noqa: E731
    return (q(0, level), q(1, level)), (q(0, 1 - level), q(1, 1 - level))


def bootstrap_reached(cells: dict, spreads: dict, stat_range: Callable[[dict, dict], tuple[float, float]],
                      level: float = LEVEL, *, center: str = "median") -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of :func:`numerics.stats.bootstrap`'s percentile interval at two points of the box of
    :func:`bootstrap_range`: ((lower end at the low point, at the high point), (upper end at the low point, at
    the high point)). At the low point every per-seed value of cell ``c`` is moved by its full spread
    ``spreads[c]`` the way that lowers the statistic at the data (its centres moved one cell at a time; a
    cell that moves nothing there stays), at the high point the other way. These are values the ends do take
    (the same resamples as the verdict's bootstrap), inside :func:`bootstrap_range`'s outer bounds; where they
    cross a threshold the flip is certain. ``stat_range`` as in :func:`bootstrap_range` (its value at zero
    spreads is the statistic)."""
    point, _ = bootstrap_replicates(cells, B=1, center=center)
    zero = {c: 0.0 for c in cells}
    stat = lambda m: stat_range(m, zero)[0]  # noqa: E731
    logc = {c: log10_or_inf(v) for c, v in point.items()}
    lowering = {}
    for c in cells:
        s = float(spreads[c])
        if s == 0.0 or not math.isfinite(logc[c]):
            lowering[c] = 0.0
            continue
        up, dn = stat({**logc, c: logc[c] + s}), stat({**logc, c: logc[c] - s})
        lowering[c] = s if up < dn else -s if dn < up else 0.0
    ends = []
    for sign in (1.0, -1.0):
        moved = {c: [v * 10.0 ** (sign * lowering[c]) for v in vs] for c, vs in cells.items()}
        _, lo, hi = bootstrap(moved, lambda m: stat({c: log10_or_inf(v) for c, v in m.items()}), level, center=center)
        ends.append((lo, hi))
    return (ends[0][0], ends[1][0]), (ends[0][1], ends[1][1])


# ----------------------------------------------------------------------------------------------------
# a claim of parts: which verdicts its parts can reach together
# ----------------------------------------------------------------------------------------------------
def reachable_parts(parts: dict, pass_: str, not_reproduced: str, inconclusive: str) -> set[str]:
    """The verdicts a claim of parts can reach within the spread, combined as ``architectures._decide`` combines
    them (pass iff every part is significant; not reproduced iff some part is ruled out; else inconclusive).
    Each part is ``(sig_reach, out_reach)``: the values its "significant" and "ruled out" can take. Parts are
    treated as independent (an outer bound where they share runs)."""
    out = set()
    if all(True in sig for sig, _ in parts.values()):
        out.add(pass_)
    if any(True in ruled for _, ruled in parts.values()):
        out.add(not_reproduced)
    if any(False in sig for sig, _ in parts.values()) and all(False in ruled for _, ruled in parts.values()):
        out.add(inconclusive)
    return out
