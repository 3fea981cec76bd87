"""The four controllable memory-function families over the temporal strength alpha (memory-functions page).

    python docs/figures/memory_functions.py        # writes docs/figures/memory_functions.png (~2 s)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from validation.checks.memory_theory import plot_families  # noqa: E402


def main(path: Path = Path(__file__).with_suffix(".png")) -> Path:
    plot_families(path, T=256)
    return path


if __name__ == "__main__":
    print(f"wrote {main()}")
