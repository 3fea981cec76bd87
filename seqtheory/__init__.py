"""seqtheory: exact finite-width signal energies, controllable memory functions, anti-collapse Levy SDEs.

One import for the public API of the three packages ``theory`` (exact and symbolic), ``numerics``
(independent numerics) and ``validation`` (the claims). Names load on first use, so ``import seqtheory`` is
cheap and never imports torch; the PyTorch parts (``LSTM``, ``S4D``, ``TCN``, ``Transformer``,
``rnn_timescales``, ``RNNTimescales``) need the ``models`` extra. The result classes the functions return
(``Energy``, ``MCEstimate``, ``TailFit``, ...) are here too; every name follows one vocabulary
(docs/api/vocabulary.md). Command line: ``seqtheory --help``.

>>> import seqtheory
>>> seqtheory.Q(4, 2, method="exact")
Fraction(17, 16)
"""

import importlib as _importlib
from importlib import metadata as _metadata
from typing import TYPE_CHECKING

try:
    __version__ = _metadata.version("seqtheory")
except _metadata.PackageNotFoundError:       # a source checkout on sys.path, not installed
    __version__ = "0+unknown"

_EXPORTS = {
    "theory.signal_energy": "Q S Q_all log_Q log_S hultman_row trace_moment Q_series S_series",
    "theory.real_expansion": "QR SR",
    "theory.results": "Energy",
    "theory.regimes": "regime breakdown_depth critical_curve critical_S_curve critical_correction REGIMES",
    "theory.horizon": "HorizonScale depth_for_scale max_horizon glorot_table gain_curve",
    "numerics.signal_propagation.horizon_mc": "sigma_for_horizon depth_with_se real_energies simulate_energies",
    "theory.structured_init": "Q_structured S_structured structured_variance identity_noise_expansion as_init "
                              "OrthogonalInit RingInit RotationBlocksInit IdentityNoiseInit",
    "numerics.signal_propagation.structured_mc": "estimate_structured StructuredEstimate",
    "theory.nonlinear": "mean_field_energy",
    "theory.init_laws.rows": "law_row",
    "theory.init_laws.energy": "Q_law S_law",
    "theory.memory": "KINDS memory_function mixed_memory_function expected_linear_relmse lag_weights",
    "theory.prony": "ExpSumFit OrderSelection prony matrix_pencil best_mterm_fit select_order",
    "theory.complexity": "tail_energy effective_support effective_rank",
    "theory.levy": "LevyParams Phi characteristic_root threshold_eta_J phase PHASES",
    "theory.tauberian": "envelope_from_spectrum tauberian_asymptote horizon:tauberian_horizon",
    "numerics.signal_propagation.wick": "wick_polynomial count_pairings",
    "numerics.signal_propagation.ginibre": "MCEstimate sample_ginibre estimate_Q estimate_S",
    "numerics.anticollapse.sde": "SDEConfig simulate",
    "numerics.anticollapse.sde_tail": "SDEBeta beta_from_sde stationary_snapshot",
    "numerics.anticollapse.estimators": "TailFit EnvelopeFit tail_beta envelope_fit phase_rule",
    "numerics.memory_functions.targets": "linear_target make_dataset relative_mse",
    "numerics.memory_functions.memory_report": "MemoryReport BenchCell memory_report mismatch nearest_families "
                                               "load_benchmark DEFAULT_RESULTS:BENCHMARK_RESULTS",
    "numerics.memory_functions.models": "LSTM S4D TCN Transformer",                     # torch (extra "models")
    "numerics.anticollapse.gated.rnn_timescales": "RNNTimescales rnn_timescales as_rnn",  # torch (extra "models")
    "numerics.stats": "Agreement z_for_false_alarm agreement",
    "validation": "Check check discover",
}
# "name:alias" exports ``name`` as ``alias``: one meaning per exported name (``seqtheory.horizon`` would read as
# the ``seqtheory horizon`` tool; the Tauberian horizon is ``tauberian_horizon``)
_WHERE = {n.partition(":")[2] or n: (mod, n.partition(":")[0]) for mod, names in _EXPORTS.items() for n in names.split()}
_MODELS = {"LSTM": "lstm", "S4D": "s4d", "TCN": "tcn", "Transformer": "transformer"}
# a literal list, for static tools (tests/test_seqtheory.py: it equals the table's names)
__all__ = [
    "__version__", "Q", "S", "Q_all", "log_Q", "log_S", "hultman_row", "trace_moment", "Q_series", "S_series", "QR",
    "SR", "Energy", "regime", "breakdown_depth", "critical_curve", "critical_S_curve", "critical_correction",
    "REGIMES", "HorizonScale", "depth_for_scale", "max_horizon", "glorot_table", "gain_curve", "sigma_for_horizon",
    "depth_with_se", "real_energies", "simulate_energies", "Q_structured", "S_structured",
    "structured_variance", "identity_noise_expansion", "as_init", "OrthogonalInit", "RingInit", "RotationBlocksInit",
    "IdentityNoiseInit", "estimate_structured", "StructuredEstimate", "mean_field_energy", "law_row", "Q_law", "S_law", "KINDS", "memory_function", "mixed_memory_function",
    "expected_linear_relmse", "lag_weights", "ExpSumFit", "OrderSelection", "prony", "matrix_pencil",
    "best_mterm_fit", "select_order", "tail_energy", "effective_support", "effective_rank", "LevyParams", "Phi",
    "characteristic_root", "threshold_eta_J", "phase", "PHASES", "envelope_from_spectrum", "tauberian_asymptote",
    "tauberian_horizon", "wick_polynomial", "count_pairings", "MCEstimate", "sample_ginibre", "estimate_Q",
    "estimate_S", "SDEConfig", "simulate", "SDEBeta", "beta_from_sde", "stationary_snapshot", "TailFit",
    "EnvelopeFit", "tail_beta", "envelope_fit", "phase_rule", "linear_target", "make_dataset", "relative_mse",
    "MemoryReport", "BenchCell", "memory_report", "mismatch", "nearest_families", "load_benchmark",
    "BENCHMARK_RESULTS", "LSTM", "S4D", "TCN", "Transformer", "RNNTimescales", "rnn_timescales", "as_rnn",
    "Agreement", "z_for_false_alarm", "agreement", "Check", "check", "discover"
]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'seqtheory' has no attribute {name!r}")
    mod, attr = _WHERE[name]
    mod += f".{_MODELS[name]}" if name in _MODELS else ""
    try:
        value = getattr(_importlib.import_module(mod), attr)
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
    """The public names only (no helper of this module: ``TYPE_CHECKING``, the lazy-import machinery)."""
    return sorted(__all__)


if TYPE_CHECKING:   # static tools (type checkers, completion) see every lazy name: the same table as _EXPORTS
    from theory.signal_energy import (Q as Q, S as S, Q_all as Q_all, log_Q as log_Q, log_S as log_S,
        hultman_row as hultman_row, trace_moment as trace_moment, Q_series as Q_series, S_series as S_series)
    from theory.real_expansion import QR as QR, SR as SR
    from theory.results import Energy as Energy
    from theory.regimes import (regime as regime, breakdown_depth as breakdown_depth,
        critical_curve as critical_curve, critical_S_curve as critical_S_curve,
        critical_correction as critical_correction, REGIMES as REGIMES)
    from theory.horizon import (HorizonScale as HorizonScale, depth_for_scale as depth_for_scale,
        max_horizon as max_horizon, glorot_table as glorot_table, gain_curve as gain_curve)
    from numerics.signal_propagation.horizon_mc import (sigma_for_horizon as sigma_for_horizon,
        depth_with_se as depth_with_se, real_energies as real_energies, simulate_energies as simulate_energies)
    from theory.structured_init import (Q_structured as Q_structured, S_structured as S_structured,
        structured_variance as structured_variance, identity_noise_expansion as identity_noise_expansion,
        as_init as as_init, OrthogonalInit as OrthogonalInit, RingInit as RingInit,
        RotationBlocksInit as RotationBlocksInit, IdentityNoiseInit as IdentityNoiseInit)
    from numerics.signal_propagation.structured_mc import (estimate_structured as estimate_structured,
        StructuredEstimate as StructuredEstimate)
    from theory.nonlinear import mean_field_energy as mean_field_energy
    from theory.memory import (KINDS as KINDS, memory_function as memory_function,
        mixed_memory_function as mixed_memory_function, expected_linear_relmse as expected_linear_relmse,
        lag_weights as lag_weights)
    from theory.prony import (ExpSumFit as ExpSumFit, OrderSelection as OrderSelection, prony as prony,
        matrix_pencil as matrix_pencil, best_mterm_fit as best_mterm_fit, select_order as select_order)
    from theory.complexity import (tail_energy as tail_energy, effective_support as effective_support,
        effective_rank as effective_rank)
    from theory.levy import (LevyParams as LevyParams, Phi as Phi, characteristic_root as characteristic_root,
        threshold_eta_J as threshold_eta_J, phase as phase, PHASES as PHASES)
    from theory.tauberian import (envelope_from_spectrum as envelope_from_spectrum,
        tauberian_asymptote as tauberian_asymptote, horizon as tauberian_horizon)
    from numerics.signal_propagation.wick import (wick_polynomial as wick_polynomial,
        count_pairings as count_pairings)
    from numerics.signal_propagation.ginibre import (MCEstimate as MCEstimate, sample_ginibre as sample_ginibre,
        estimate_Q as estimate_Q, estimate_S as estimate_S)
    from numerics.anticollapse.sde import SDEConfig as SDEConfig, simulate as simulate
    from numerics.anticollapse.sde_tail import (SDEBeta as SDEBeta, beta_from_sde as beta_from_sde,
        stationary_snapshot as stationary_snapshot)
    from numerics.anticollapse.estimators import (TailFit as TailFit, EnvelopeFit as EnvelopeFit,
        tail_beta as tail_beta, envelope_fit as envelope_fit, phase_rule as phase_rule)
    from numerics.memory_functions.targets import (linear_target as linear_target, make_dataset as make_dataset,
        relative_mse as relative_mse)
    from numerics.memory_functions.memory_report import (MemoryReport as MemoryReport, BenchCell as BenchCell,
        memory_report as memory_report, mismatch as mismatch, nearest_families as nearest_families,
        load_benchmark as load_benchmark, DEFAULT_RESULTS as BENCHMARK_RESULTS)
    from numerics.memory_functions.models.lstm import LSTM as LSTM
    from numerics.memory_functions.models.s4d import S4D as S4D
    from numerics.memory_functions.models.tcn import TCN as TCN
    from numerics.memory_functions.models.transformer import Transformer as Transformer
    from numerics.anticollapse.gated.rnn_timescales import (RNNTimescales as RNNTimescales,
        rnn_timescales as rnn_timescales, as_rnn as as_rnn)
    from numerics.stats import Agreement as Agreement, z_for_false_alarm as z_for_false_alarm, agreement as agreement
    from validation import Check as Check, check as check, discover as discover
    from theory.init_laws.rows import law_row as law_row
    from theory.init_laws.energy import Q_law as Q_law, S_law as S_law
