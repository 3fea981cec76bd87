"""The tail exponent beta* of the anti-collapse Levy SDE against the jump intensity eta_J (anti-collapse page).

    python docs/figures/levy_root.py        # writes docs/figures/levy_root.png (~2 s)

beta* is the root in (0, lam) of Phi(beta) = 0 (``theory.levy.characteristic_root``; lam when there is none);
it crosses 1, the boundary between a concentrated and an extended time-scale spectrum, at the threshold
``theory.levy.threshold_eta_J``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from numerics.plotting import finish, panels  # noqa: E402
from theory.levy import characteristic_root, threshold_eta_J  # noqa: E402

SETTING = dict(eta_G=0.25, kappa=1.0, lam=5.0)


def main(path: Path = Path(__file__).with_suffix(".png")):
    fig, ax = panels(figsize=(6.4, 4.0))
    eta = np.linspace(0.0, 3.0, 301)
    for i, alpha in enumerate((0.5, 1.0, 1.5)):
        beta = characteristic_root(eta_J=eta, alpha=alpha, **SETTING)
        ax.plot(eta, beta, color=f"C{i}", label=fr"stable index $a$ = {alpha}")
        star = threshold_eta_J(alpha=alpha, **SETTING)
        if star <= eta[-1]:
            ax.plot([star], [1.0], "o", color=f"C{i}", ms=5)
    ax.axhline(1.0, color="gray", lw=0.8, ls=":")
    ax.set_xlabel(r"jump intensity $\eta_J$")
    ax.set_ylabel(r"tail exponent $\beta^*$ of $p(\tau)\sim\tau^{-1-\beta^*}$")
    ax.set_title(r"$\beta^*$ falls below 1 at $\eta_J^*$ (dots): " + r"$\eta_G = 0.25$, $\kappa = 1$, $\lambda = 5$",
                 fontsize=10)
    ax.legend(fontsize=8)
    return finish(fig, path)


if __name__ == "__main__":
    main()
    print(f"wrote {Path(__file__).with_suffix('.png')}")
