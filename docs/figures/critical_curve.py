"""The README's figure: exact Q_{n,k} against c = k/sqrt(n) collapses onto the critical curve (2/c^2) sinh(c^2/2).

    python docs/figures/critical_curve.py        # writes docs/figures/critical_curve.png (~5 s)
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from numerics.plotting import pyplot, save_figure  # noqa: E402
from theory.regimes import critical_curve  # noqa: E402
from theory.signal_energy import Q_all  # noqa: E402


def main(path: Path = Path(__file__).with_suffix(".png")) -> Path:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for n in (4, 16, 64, 256, 4096, 10**6):
        kmax = int(3.2 * math.sqrt(n))
        ax.plot(np.arange(kmax + 1) / math.sqrt(n), Q_all(n, kmax), ".-" if n < 100 else "-", ms=3, lw=1,
                label=f"exact $Q_{{n,k}}$, n = {n}")
    c = np.linspace(0, 3.2, 300)
    ax.plot(c, critical_curve(c), "k--", lw=2, label=r"limit $(2/c^2)\sinh(c^2/2)$")
    ax.axhline(1, color="gray", lw=0.8)
    ax.set_yscale("log")
    ax.set_xlabel(r"depth in units of $\sqrt{n}$:  $c = k/\sqrt{n}$")
    ax.set_ylabel(r"signal energy $Q_{n,k}$ (infinite width: 1)")
    ax.set_title("Finite width departs from infinite width at depth ~ sqrt(n)")
    ax.legend(fontsize=8)
    save_figure(fig, path)
    return path


if __name__ == "__main__":
    print(f"wrote {main()}")
