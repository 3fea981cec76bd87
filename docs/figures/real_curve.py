"""The real and complex critical curves and their first corrections (docs/results/real-weight-expansion.md).

    python docs/figures/real_curve.py        # writes docs/figures/real_curve.png (a few seconds)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from validation.checks.real_expansion import plot_real_curves  # noqa: E402


def main(path: Path = Path(__file__).with_suffix(".png")) -> Path:
    plot_real_curves(path)
    return path


if __name__ == "__main__":
    print(f"wrote {main()}")
