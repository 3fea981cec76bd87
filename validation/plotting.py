"""Matplotlib for the checks' figures: the non-interactive Agg backend, imported only when a figure is made."""

from __future__ import annotations


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (checks run headless, in CI too)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
