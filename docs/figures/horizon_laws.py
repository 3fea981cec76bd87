"""The horizon depth t*(n, tol) of plain Glorot scaling against the width n, per initialisation law (docs/results/init-laws.md).

    python docs/figures/horizon_laws.py        # writes docs/figures/horizon_laws.png (about 100 CPU s)

t*(n, tol) is the first depth with |Q_{n,t} - 1| > tol at sigma = 1 (theory.horizon.depth_for_scale(..., init=law)
+ 1; the free recurrence, tol = 0.05), from the exact rows of each law (depth <= 12) and the large-n expansion
beyond where it is served (theory.init_laws.energy); widths where the crossing lies beyond the served domain are
left out (the script prints, per law, the widths it plots). Student t with nu = 6 has an infinite mean energy from depth 3:
its t* is 3 at every width.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from validation.checks.init_laws import horizon_law_data, plot_horizon_laws  # noqa: E402

LAWS = ("gaussian", "uniform", "rademacher", "sparse:0.05", "sparse:0.2", "student:6")
NS = tuple(2**j for j in range(4, 21))
TOL = 0.05


def main(path: Path = Path(__file__).with_suffix(".png")) -> Path:
    data = horizon_law_data(NS, TOL, LAWS)
    for law, pts in data.items():                  # the plotted points, for the results page
        print(f"{law:12s} {len(pts)}/{len(NS)} widths (n: t*): " + ", ".join(f"{n}: {t}" for n, t in pts))
    plot_horizon_laws(path, data, tol=TOL)
    return path


if __name__ == "__main__":
    print(f"wrote {main()}")
