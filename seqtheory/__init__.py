"""seqtheory: exact finite-width signal energies, controllable memory functions, anti-collapse Levy SDEs.

One import for the public API of the three packages ``theory`` (exact and symbolic), ``numerics``
(independent numerics) and ``validation`` (the claims). Names load on first use, so ``import seqtheory`` is
cheap and never imports torch; the PyTorch parts (``LSTM``, ``S4D``, ``TCN``, ``Transformer``,
``rnn_timescales``) need the ``models`` extra. Command line: ``seqtheory --help``.

>>> import seqtheory
>>> seqtheory.Q(4, 2, method="exact")
Fraction(17, 16)
"""

from __future__ import annotations

import importlib
from importlib import metadata

try:
    __version__ = metadata.version("seqtheory")
except metadata.PackageNotFoundError:       # a source checkout on sys.path, not installed
    __version__ = "0+unknown"

_EXPORTS = {
    "theory.signal_energy": "Q S Q_all log_Q log_S hultman_row trace_moment Q_series S_series",
    "theory.regimes": "regime breakdown_depth critical_curve critical_S_curve critical_correction REGIMES",
    "theory.horizon": "HorizonScale depth_for_scale max_horizon glorot_table gain_curve",
    "numerics.signal_propagation.horizon_mc": "sigma_for_horizon depth_with_se real_energies simulate_energies",
    "theory.memory": "KINDS memory_function mixed_memory_function expected_linear_relmse lag_weights",
    "theory.prony": "ExpSumFit prony matrix_pencil best_mterm_fit select_order",
    "theory.complexity": "tail_energy effective_support effective_rank",
    "theory.levy": "LevyParams Phi characteristic_root threshold_eta_J phase PHASES",
    "theory.tauberian": "envelope_from_spectrum tauberian_asymptote horizon:tauberian_horizon",
    "numerics.signal_propagation.wick": "wick_polynomial count_pairings",
    "numerics.signal_propagation.ginibre": "sample_ginibre estimate_Q estimate_S",
    "numerics.anticollapse.sde": "SDEConfig simulate",
    "numerics.anticollapse.estimators": "tail_beta envelope_fit phase_rule",
    "numerics.memory_functions.targets": "linear_target make_dataset relative_mse",
    "numerics.memory_functions.memory_report": "memory_report mismatch nearest_families load_benchmark "
                                               "DEFAULT_RESULTS:BENCHMARK_RESULTS",
    "numerics.memory_functions.models": "LSTM S4D TCN Transformer",                              # torch (extra "models")
    "numerics.anticollapse.gated.rnn_timescales": "rnn_timescales as_rnn",          # torch (extra "models")
    "numerics.stats": "z_for_false_alarm agreement",
    "validation": "check discover",
}
# "name:alias" exports ``name`` as ``alias``: one meaning per exported name (``seqtheory.horizon`` would read as
# the ``seqtheory horizon`` tool; the Tauberian horizon is ``tauberian_horizon``)
_WHERE = {n.partition(":")[2] or n: (mod, n.partition(":")[0]) for mod, names in _EXPORTS.items() for n in names.split()}
_MODELS = {"LSTM": "lstm", "S4D": "s4d", "TCN": "tcn", "Transformer": "transformer"}
__all__ = ["__version__", *_WHERE]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'seqtheory' has no attribute {name!r}")
    mod, attr = _WHERE[name]
    mod += f".{_MODELS[name]}" if name in _MODELS else ""
    try:
        value = getattr(importlib.import_module(mod), attr)
    except ImportError as exc:               # an optional extra (torch, python-flint, dask): name it
        from theory._extras import missing_extra, needs_extra

        hit = missing_extra(exc)
        if hit is None:
            raise
        raise ModuleNotFoundError(f"seqtheory.{name} {needs_extra(hit[1])} ({hit[0]} is not installed)",
                                  name=hit[0]) from exc
    globals()[name] = value                    # later look-ups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
