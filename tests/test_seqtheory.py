"""The user's package: ``import seqtheory`` re-exports the public API (the command line: tests/test_cli.py)."""

from __future__ import annotations

import importlib
from importlib import metadata
from pathlib import Path

import pytest

import seqtheory

ROOT = Path(__file__).resolve().parents[1]
TORCH_NAMES = ("LSTM", "S4D", "TCN", "Transformer", "rnn_timescales", "as_rnn", "RNNTimescales")


# ----------------------------------------------------------------------------------------------------
# the package
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.torch] if n in TORCH_NAMES else [])
                                  for n in seqtheory.__all__ if n != "__version__"])
def test_every_export_is_the_object_of_its_home_module(name):
    home, attr = seqtheory._WHERE[name]
    home += f".{seqtheory._MODELS[name]}" if name in seqtheory._MODELS else ""
    assert getattr(seqtheory, name) is getattr(importlib.import_module(home), attr)
    assert name in dir(seqtheory)


def test_the_package_answers_like_its_modules():
    from fractions import Fraction

    assert seqtheory.Q(4, 2, method="exact") == Fraction(17, 16)
    assert seqtheory.wick_polynomial(4, "complex") == seqtheory.hultman_row(4)
    # both weight types through one name: complex = the closed form of theory.horizon
    from theory.horizon import sigma_for_horizon as complex_only

    assert seqtheory.sigma_for_horizon(64, 8, 0.05, quantity="Q").sigma == complex_only(64, 8, 0.05, quantity="Q").sigma
    assert seqtheory.sigma_for_horizon(16, 6, 0.05, field="real", quantity="Q").field == "real"
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        seqtheory.no_such_name  # noqa: B018


def test_version_comes_from_the_package_metadata():
    try:
        expected = metadata.version("seqtheory")
    except metadata.PackageNotFoundError:
        expected = "0+unknown"
    assert seqtheory.__version__ == expected


# ----------------------------------------------------------------------------------------------------
# the command line: the parsers it delegates to
# ----------------------------------------------------------------------------------------------------


# ----------------------------------------------------------------------------------------------------
# the command line: running it
# ----------------------------------------------------------------------------------------------------


# ----------------------------------------------------------------------------------------------------
# long runs show progress
# ----------------------------------------------------------------------------------------------------
def test_real_weight_monte_carlo_shows_progress(capsys):
    from numerics.signal_propagation import ginibre, horizon_mc

    horizon_mc.mc_energies(4, 3, 8, batches=2, progress=True)
    assert "Monte Carlo energies n=4" in capsys.readouterr().err          # the bar, on stderr
    horizon_mc.mc_energies(4, 3, 8, batches=2)                            # automatic: a tiny run shows none
    assert capsys.readouterr().err == ""
    # a long real-weight run (n = 256, t = 40, the default 4096 draws: about 5e12 flops) shows it
    assert horizon_mc.mc_flops(256, 40, 4096, "real") > ginibre._PROGRESS_FLOPS > horizon_mc.mc_flops(4, 3, 8, "real")
