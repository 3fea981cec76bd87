"""Fuzzing harness: every public function of ``theory.*`` and the ``numerics`` modules, one argument at a time
replaced by a bad or edge value in a valid baseline call, run in a worker process with a time limit.

Used by ``tests/test_fuzz.py`` (a bounded number of examples per function in CI) and ``benchmarks/fuzz.py``
(a long run that prints counts). Outcomes of one call:

* ``clean``   a TypeError/ValueError naming the parameter, a documented ArithmeticError (``raises``), or a
  result of the documented type that is finite, from a value of an allowed kind;
* ``unnamed`` a TypeError/ValueError whose message does not name the parameter;
* ``crash``   any other exception;
* ``silent``  silently wrong: a value of a kind the parameter does not allow was accepted, the result is
  not finite (or not of the documented type), a value equal to the baseline's (``np.uint64(30)`` for
  ``30``) gave a different result, or global state (mpmath precision, numpy error state) changed;
* ``slow``    no answer within the time limit, but a clean one when rerun with ``RERUN_FACTOR`` times the
  limit (a valid but long computation on a loaded machine, e.g. a million Monte Carlo draws);
* ``hang``    no answer within the time limit, nor on that rerun (the worker is killed and restarted).

Scope: every package: the modules of ``theory``, of ``numerics`` and of its torch subpackages
``numerics.memory_functions.models``, ``numerics.memory_functions.bench`` and ``numerics.anticollapse`` (their baselines, with
tiny models and two training steps, are in ``tests/fuzz_torch.py``, as are the command-line cases run as
subprocesses by ``benchmarks/fuzz.py``). Result containers (frozen dataclasses the toolkit returns) are
excluded by name in ``RESULT_TYPES``.

A new public function without an entry in ``BASELINES`` fails ``test_every_function_has_a_baseline``.
"""

from __future__ import annotations

import dataclasses
import decimal
import importlib
import inspect
import math
import multiprocessing as mp
import numbers
import operator
import os
import pkgutil
import sys
import traceback
from fractions import Fraction
from typing import Any

import numpy as np

from fuzz_torch import TORCH_RESULT_TYPES, torch_baselines

RESULT_TYPES = {
    "theory.prony.ExpSumFit", "theory.prony.OrderSelection", "numerics.anticollapse.estimators.TailFit",
    "numerics.anticollapse.estimators.EnvelopeFit", "numerics.anticollapse.estimators.SpectrumEnvelopeFit",
    "numerics.anticollapse.estimators.LognormalComparison", "numerics.signal_propagation.ginibre.MCEstimate", "numerics.signal_propagation.ginibre.Checkpoints",
    "numerics.signal_propagation.ginibre.FeedforwardEstimate", "numerics.anticollapse.levy_sampling.CTSParams", "numerics.anticollapse.levy_sampling.CPParams",
    "theory.horizon.HorizonScale", "numerics.memory_functions.memory_report.MemoryReport", "numerics.memory_functions.memory_report.BenchCell",
    "numerics.signal_propagation.quaternion_ginibre.QuaternionMoments", "numerics.stats.Agreement", "numerics.stats.Paired",
    "theory.results.Energy", "numerics.signal_propagation.real_energy_mc.RealEnergyMC",
    "numerics.signal_propagation.haar.HaarStatistics", "numerics.signal_propagation.haar.HaarRounding",
    "numerics.signal_propagation.structured_mc.StructuredEstimate", "numerics.anticollapse.sde_tail.SDEBeta",
    "numerics.signal_propagation.nonlinear_mc.NonlinearMC", "numerics.signal_propagation.nonlinear_breakdown.Breakdown",
    "numerics.signal_propagation.tied_correction.TiedCorrection",
    "theory.init_laws.laws.Law", "theory.init_laws.Law",   # a record: built and checked by the constructors, as_law
} | TORCH_RESULT_TYPES
# Command-line entry points (``main(argv)``) are excluded by name: they take an argv list and are tested by
# the CLI tests (exit status and one-line errors), not by replacing Python arguments.
CLI_NAMES = ("main",)
TIMEOUT_S = float(os.environ.get("SEQTHEORY_FUZZ_TIMEOUT", "10"))
RERUN_FACTOR = 6


def discover() -> list[str]:
    """Qualified names of the public callables (``__all__`` where defined) of every public module of ``theory``
    and ``numerics``, subpackages included (a module whose dotted name has a part starting with "_" is
    private), so a new module is covered as soon as it exists."""
    import numerics
    import theory

    names = set()
    for pkg in (theory, numerics):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if not any(part.startswith("_") for part in info.name.split(".")):     # packages too (their __all__)
                names.add(info.name)
    out = []
    for modname in sorted(names):
        mod = importlib.import_module(modname)
        public = getattr(mod, "__all__", None)
        if public is None:
            public = [n for n, o in vars(mod).items()
                      if not n.startswith("_") and getattr(o, "__module__", None) == modname]
        for n in public:
            obj = getattr(mod, n)
            qual = f"{modname}.{n}"
            if callable(obj) and qual not in RESULT_TYPES and n not in CLI_NAMES and not (
                    inspect.ismodule(obj) or (inspect.isclass(obj) and issubclass(obj, BaseException))):
                out.append(qual)
    return out


# ------------------------------------------------------------------------------------------------------
# baselines: a valid call per function (keyword form), the kind of each parameter, what may be returned
# ------------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class Case:
    kwargs: dict
    kinds: dict = dataclasses.field(default_factory=dict)   # overrides of the kind inferred from the value
    allow_inf: bool = False                                    # documented inf entries (float64 overflow)
    raises: tuple = ()                                         # documented ArithmeticErrors (overflow)
    names: dict = dataclasses.field(default_factory=dict)      # param -> other names an error may use
    keeps_type: bool = False     # documented: the result stores arguments as given (equal, not identical)
    allow_nan: bool = False      # documented NaN fields of a diagnostic record (e.g. a statistic not defined)
    comparable: bool = True      # results have a value to compare (False: handles such as an open store)
    # fields of a dataclass result that differ between two identical calls (wall-clock seconds, the live
    # optimiser object): left out when a value equal to the baseline's must give the baseline's result
    volatile: tuple = ()


def _rng():
    return np.random.default_rng(0)


def _fit():
    from theory.prony import best_mterm_fit
    return best_mterm_fit(0.5 ** np.arange(1, 17), 1)


def _real_items(k):
    from numerics.signal_propagation.real_wick import real_work_items
    return real_work_items(k)[0]


def _cfg(**kw):
    """An SDEConfig with the default Levy parameters of ``numerics.anticollapse.sde`` except ``kw``."""
    from numerics.anticollapse.sde import SDEConfig
    from theory.levy import LevyParams
    return SDEConfig(params=LevyParams(**{**SDE_PARAMS, **kw}))


def _levy_params(**kw):
    from theory.levy import LevyParams
    return LevyParams(**{**SDE_PARAMS, **kw})


def _fig():
    from numerics.plotting import pyplot
    return pyplot().figure()


RHO = 0.8 ** np.arange(1, 17)
LEVY = dict(eta_J=0.05, alpha=1.5, lam=2.0, C=1.0)
OVF = (OverflowError,)
SDE_PARAMS = dict(eta_G=0.25, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0, C=1.0)


def baselines() -> dict[str, Case]:
    """Built in the worker (some values are objects: generators, configs, fits)."""
    lags = np.arange(1.0, 30.0)
    tau = np.random.default_rng(1).pareto(1.5, 400) + 1.0
    cases = {
        # theory.complexity
        "theory.complexity.tail_energy": Case(dict(rho=RHO, s=3, kind="sorted"), kinds={"s": "intarray"}),
        "theory.complexity.tail_energy_curve": Case(dict(rho=RHO, kind="sorted")),
        "theory.complexity.effective_support": Case(dict(rho=RHO, kind="sorted")),
        "theory.complexity.exp_tail_energy": Case(dict(tau=4.0, T=32, s=3, method="float", dps=None),
                                                  kinds={"dps": "int?"}, names={"T": ("s",)}),
        "theory.complexity.exp_tail_energy#mp": Case(dict(tau=4.0, T=32, s=3, method="mp", dps=30), names={"T": ("s",)}),
        "theory.complexity.poly_tail_energy": Case(dict(p=1.5, T=32, s=3, method="float", dps=None),
                                                   kinds={"dps": "int?"}, names={"T": ("s",)}),
        "theory.complexity.poly_tail_energy#mp": Case(dict(p=1.5, T=32, s=3, method="mp", dps=30),
                                                      names={"T": ("s",)}),
        "theory.complexity.coupling_matrix": Case(dict(rho=RHO, coupling="toeplitz")),
        "theory.complexity.singular_values": Case(dict(rho=RHO, coupling="toeplitz")),
        "theory.complexity.entropy_effective_rank": Case(dict(sv=np.array([3.0, 2.0, 1.0]))),
        "theory.complexity.effective_rank": Case(dict(rho=RHO, coupling="toeplitz")),
        # theory.levy
        # documented: "Values are kept as given" (exact inputs stay exact for method="mp")
        "theory.levy.LevyParams": Case(dict(eta_G=0.1, kappa=1.0, **LEVY), keeps_type=True),
        "theory.levy.jump_symbol": Case(dict(beta=1.5, **LEVY, method="float", dps=None),
                                        kinds={"beta": "realarray", "dps": "int?"}, allow_inf=True),
        "theory.levy.jump_symbol#mp": Case(dict(beta=1.5, **LEVY, method="mp", dps=30), allow_inf=True),
        "theory.levy.jump_exponent": Case(dict(u=1.5, **LEVY), kinds={"u": "realarray"},
                                          allow_inf=True),     # documented: -inf once |u|^alpha passes float64
        "theory.levy.Phi": Case(dict(beta=1.5, eta_G=0.1, kappa=1.0, **LEVY, method="float", dps=None),
                               kinds={"beta": "realarray", "dps": "int?"},
                               allow_inf=True),         # documented: +inf for |beta| > lam
        "theory.levy.Phi#mp": Case(dict(beta=1.5, eta_G=0.1, kappa=1.0, **LEVY, method="mp", dps=30), allow_inf=True),
        # the float path broadcasts over parameter arrays; the mp path takes scalars
        "theory.levy.characteristic_root": Case(dict(eta_G=0.1, kappa=1.0, **LEVY, method="float", dps=None),
                                                kinds={"dps": "int?", **{k: "realarray" for k in
                                                                         ("eta_G", "kappa", "eta_J", "alpha",
                                                                          "lam", "C")}}),
        "theory.levy.characteristic_root#mp": Case(dict(eta_G=0.1, kappa=1.0, **LEVY, method="mp", dps=30)),
        "theory.levy.threshold_eta_J": Case(dict(eta_G=0.1, kappa=1.0, alpha=1.5, lam=2.0, C=1.0)),
        "theory.levy.critical_eta_J": Case(dict(eta_G=0.1, kappa=1.0, alpha=1.5, lam=2.0, C=1.0),
                                           kinds={"eta_G": "realarray"}),
        "theory.levy.critical_kappa": Case(dict(eta_G=0.1, **LEVY), allow_inf=True),    # documented: inf at lam < 1
        "theory.levy.phase": Case(dict(eta_G=0.1, kappa=1.0, drift="saturating", tol=1e-9, **LEVY)),
        "theory.levy.phase_of_beta": Case(dict(beta=1.5, tol=1e-9), kinds={"beta": "real?"}),   # None: collapsed
        "theory.levy.Phi_symbolic": Case(dict(alpha=None), kinds={"alpha": "any"}),
        # theory.memory
        "theory.memory.default_area_max": Case(dict(T=64)),
        "theory.memory.area_target": Case(dict(alpha=0.5, T=64, area_max=None), kinds={"area_max": "real?"}),
        # documented: tau = inf gives T
        "theory.memory.exp_area": Case(dict(tau=2.0, T=64, method="float", dps=None),
                                       kinds={"dps": "int?", "tau": "realinf"}),
        "theory.memory.exp_area#mp": Case(dict(tau=2.0, T=64, method="mp", dps=30), kinds={"tau": "realinf"}),
        "theory.memory.poly_area": Case(dict(p=1.5, T=64, method="float", dps=None), kinds={"dps": "int?"}),
        "theory.memory.poly_area#mp": Case(dict(p=1.5, T=64, method="mp", dps=30)),
        "theory.memory.area_expression": Case(dict(kind="exp")),
        "theory.memory.exp_tau": Case(dict(alpha=0.5, T=64, area_max=None, work_dps=30), kinds={"area_max": "real?"}),
        "theory.memory.poly_exponent": Case(dict(alpha=0.5, T=64, area_max=None, work_dps=30),
                                            kinds={"area_max": "real?"}, allow_inf=True),   # p = inf at alpha 0
        "theory.memory.impulse_lag": Case(dict(alpha=0.5, T=64)),
        "theory.memory.airy_phase_rate": Case(dict(x=-2.0), kinds={"x": "realarray"}),
        "theory.memory.airy_shift_scale": Case(dict(alpha=0.5, T=64, samples_per_period=8.0)),
        "theory.memory.memory_function": Case(dict(kind="exp", alpha=0.5, T=64, work_dps=30)),
        "theory.memory.mixed_memory_function": Case(dict(kind_a="exp", kind_b="impulse", lam=0.5, alpha=0.5, T=64)),
        "theory.memory.lag_weights": Case(dict(T=64)),
        "theory.memory.expected_linear_relmse": Case(dict(rhohat=RHO * 0.9, rho=RHO, T=None), kinds={"T": "int?"}),
        # theory.prony
        "theory.prony.exp_sum": Case(dict(poles=np.array([0.5, 0.9]), coeffs=np.array([1.0, 2.0]), T=16),
                                     kinds={"poles": "any", "coeffs": "any"}),      # complex allowed
        "theory.prony.vandermonde": Case(dict(poles=np.array([0.5, 0.9]), T=16), kinds={"poles": "any"}),
        "theory.prony.vandermonde_condition": Case(dict(poles=np.array([0.5, 0.9]), T=16, normalize=True,
                                                        method="float", dps=None),
                                                   kinds={"dps": "int?", "poles": "any"},
                                                   allow_inf=True),     # repeated poles: singular, cond = inf
        "theory.prony.prony": Case(dict(h=RHO, K=2, method="float", dps=None), kinds={"dps": "int?"}),
        "theory.prony.matrix_pencil": Case(dict(h=RHO, K=2, L=None), kinds={"L": "int?"}),
        "theory.prony.best_mterm_fit": Case(dict(rho=RHO, m=1, weights="lag", poles="complex", skip=False, method="float",
                                                 dps=None, starts=None, max_nfev=None),
                                            kinds={"dps": "int?", "max_nfev": "int?", "starts": "any",
                                                   "weights": "any"}),
        "theory.prony.gauss_newton_condition": Case(dict(fit=_fit(), weights="lag"), kinds={"weights": "any",
                                                                                           "fit": "object"}),
        "theory.prony.mterm_scan": Case(dict(rho=RHO, m_max=2, tol=None), kinds={"tol": "real?"}),
        "theory.prony.select_order": Case(dict(rho=RHO, tol=1e-3, m_max=2), kinds={"m_max": "int?"}),
        # theory.regimes
        "theory.regimes.critical_curve": Case(dict(c=2.0, dps=None), kinds={"c": "realarray", "dps": "int?"},
                                                allow_inf=True),
        "theory.regimes.critical_S_curve": Case(dict(c=2.0, dps=None), kinds={"c": "realarray", "dps": "int?"},
                                                  allow_inf=True),
        "theory.regimes.critical_correction": Case(dict(c=2.0), kinds={"c": "realarray"}, allow_inf=True),
        "theory.regimes.Q_critical_form": Case(dict(n=1024, k=32, corrected=True), kinds=_NK_ARRAY, allow_inf=True),
        "theory.regimes.S_critical_form": Case(dict(n=1024, t=32, log=False), allow_inf=True),
        "theory.regimes.S_subcritical_deviation": Case(dict(n=1024, t=32)),
        "theory.regimes.S_supercritical_form": Case(dict(n=1024, t=32, log=False), raises=OVF),
        "theory.regimes.S_geometric_form": Case(dict(n=1024, t=64, log=False), raises=OVF),
        "theory.regimes.regime": Case(dict(n=1024, t=32, c_sub=0.5, c_super=3.0), kinds=_NT_ARRAY),
        "theory.regimes.breakdown_depth": Case(dict(n=1024, tol=1e-3, quantity="S"), kinds={"n": "intarray"}),
        "theory.regimes.feedforward_mean": Case(dict(n=8, L=3, method="float")),
        "theory.regimes.feedforward_second_moment": Case(dict(n=8, L=3, field="complex", method="float"),
                                                         raises=OVF),
        # theory.signal_energy
        "theory.signal_energy.Q": Case(dict(n=8, k=3, method="float", dps=None), kinds={**_NK_ARRAY, "dps": "int?"},
                                       raises=OVF),
        "theory.signal_energy.S": Case(dict(n=8, t=3, method="float", dps=None), kinds={**_NT_ARRAY, "dps": "int?"},
                                       raises=OVF),
        # the other precision paths of the energies (each accepted call is checked by fuzz_oracle)
        "theory.signal_energy.Q#mp": Case(dict(n=8, k=3, method="mp", dps=30), kinds={"dps": "int?"}),
        "theory.signal_energy.Q#exact": Case(dict(n=8, k=3, method="exact", dps=None), kinds={"dps": "int?"}),
        "theory.signal_energy.Q#ball": Case(dict(n=8, k=3, method="ball", dps=30), kinds={"dps": "int?"}),
        "theory.signal_energy.S#mp": Case(dict(n=8, t=3, method="mp", dps=30), kinds={"dps": "int?"}),
        "theory.signal_energy.S#exact": Case(dict(n=8, t=3, method="exact", dps=None), kinds={"dps": "int?"}),
        "theory.signal_energy.S#ball": Case(dict(n=8, t=3, method="ball", dps=30), kinds={"dps": "int?"}),
        "theory.signal_energy.Q_all": Case(dict(n=8, k=3), allow_inf=True),
        "theory.signal_energy.Q_all#mp": Case(dict(n=8, k=3, method="mp", dps=30), kinds={"dps": "int?"}),
        "theory.signal_energy.log_Q": Case(dict(n=8, k=3), kinds=_NK_ARRAY),
        "theory.signal_energy.log_Q#mp": Case(dict(n=8, k=3, method="mp", dps=30), kinds={"dps": "int?"}),
        "theory.signal_energy.log_S": Case(dict(n=8, t=3), kinds=_NT_ARRAY),
        "theory.signal_energy.log_S#mp": Case(dict(n=8, t=3, method="mp", dps=30), kinds={"dps": "int?"}),
        "theory.signal_energy.trace_moment": Case(dict(n=8, k=3)),
        "theory.signal_energy.S_ball_is_direct": Case(dict(n=100, t=50, dps=20)),
        "theory.signal_energy.hultman_row": Case(dict(k=5)),
        "theory.signal_energy.stirling1_row": Case(dict(m=5)),
        "theory.signal_energy.Q_series": Case(dict(k=5)),
        "theory.signal_energy.S_series": Case(dict(t=5)),
        "theory.signal_energy.trace_moment_symbolic": Case(dict(k=5, n=None), kinds={"n": "symbolic"}),
        "theory.signal_energy.Q_symbolic": Case(dict(k=5, n=None), kinds={"n": "symbolic"}),
        "theory.signal_energy.S_symbolic": Case(dict(t=5, n=None), kinds={"n": "symbolic"}),
        "theory.signal_energy.generating_function": Case(dict(u=None, n=None), kinds={"u": "symbolic",
                                                                                    "n": "symbolic"}),
        # theory.tauberian
        "theory.tauberian.envelope_from_spectrum": Case(dict(lags=lags, tau=np.array([1.0, 5.0]), weights=None),
                                                        kinds={"weights": "realarray?", "tau": "any"}),  # inf allowed
        "theory.tauberian.envelope_from_density": Case(dict(lags=lags, density=_density, support=(1.0, math.inf),
                                                            method="float", dps=None), kinds={"dps": "int?", "support": "any",
                                                                              "density": "callable"}),
        "theory.tauberian.pareto_envelope": Case(dict(lags=lags, beta=0.5, tau_min=1.0, method="float", dps=None),
                                                 kinds={"dps": "int?"}),
        "theory.tauberian.pareto_envelope#mp": Case(dict(lags=5.0, beta=0.5, tau_min=1.0, method="mp", dps=30)),
        "theory.tauberian.tauberian_asymptote": Case(dict(lags=lags, A=1.0, beta=0.5)),
        "theory.tauberian.learnability_kappa": Case(dict(a=2.0)),
        "theory.tauberian.samples_to_detect": Case(dict(f=0.1, a=2.0, c=1.0), kinds={"f": "realarray"},
                                                   allow_inf=True),
        "theory.tauberian.horizon_exponential": Case(dict(N=1000.0, tau=5.0, a=2.0, c=1.0), kinds={"N": "realarray"}),
        "theory.tauberian.horizon_power": Case(dict(N=1000.0, beta=0.5, a=2.0, A=1.0, c=1.0), kinds={"N": "realarray"}),
        "theory.tauberian.horizon": Case(dict(N=np.array([10.0, 1000.0]), lags=lags, f=0.9 ** lags, a=2.0, c=1.0),
                                         allow_inf=True),       # documented: -inf when no lag qualifies
        # numerics.anticollapse.estimators
        "numerics.anticollapse.estimators.tail_beta": Case(dict(tau=tau, window=(0.75, 0.995), n_boot=50, seed=0, level=0.9),
                                              kinds={"window": "any", "seed": "seed"}),
        "numerics.anticollapse.estimators.hill_beta": Case(dict(tau=tau, n_tail=None), kinds={"n_tail": "int?"}),
        "numerics.anticollapse.estimators.envelope_fit": Case(dict(lags=lags, f=lags ** -0.7, level=0.9, runs_alpha=0.05,
                                                      window=None), kinds={"window": "any"}),
        "numerics.anticollapse.estimators.spectrum_envelope_fit": Case(dict(tau=tau[:50], lags=lags, weights=None, n_boot=20,
                                                               seed=0, level=0.9, runs_alpha=0.05),
                                                          kinds={"weights": "realarray?", "seed": "seed",
                                                                 "tau": "any"}),    # documented: inf allowed
        "numerics.anticollapse.estimators.phase_rule": Case(dict(ci=(0.5, 0.8), window_ok=True), kinds={"ci": "any"}),
        "numerics.stats.z_for_false_alarm": Case(dict(p=1e-6, m=3)),
        "numerics.stats.agreement": Case(dict(estimate=np.array([1.0, 2.0]), se=np.array([0.1, 0.1]),
                                              exact=np.array([1.0, 2.1]), z=4.5)),
        "numerics.stats.paired": Case(dict(d=np.array([0.5, 0.2, -0.1, 0.7, np.inf]), level=0.01), allow_inf=True,
                                        allow_nan=True),   # documented: no difference left -> median NaN
        "numerics.stats.mwu": Case(dict(x=np.array([1.0, 2.0, 3.0]), y=np.array([0.5, 0.7]))),
        "numerics.stats.bootstrap": Case(dict(cells={"a": [1.0, 2.0, 3.0], "b": [0.5, 0.6]}, stat=_spread, level=0.01,
                                              B=50, seed=0), kinds={"cells": "any", "stat": "callable"}),
        "numerics.stats.bootstrap_replicates": Case(dict(cells={"a": [1.0, 2.0, 3.0], "b": [0.5, 0.6]}, B=50, seed=0,
                                                         center="median"), kinds={"cells": "any"}),
        "numerics.stats.percentile_interval": Case(dict(stat=_spread, point={"a": 2.0, "b": 0.55},
                                                        reps=[{"a": 1.0, "b": 0.5}, {"a": 3.0, "b": 0.6}], level=0.01),
                                                   kinds={"stat": "callable", "point": "any", "reps": "any"}),
        "numerics.stats.order_statistic_rank": Case(dict(m=15, level=0.01)),
        "numerics.stats.runs_test": Case(dict(residuals=np.array([1.0, -1, 2, -2, 1, 1, -1, -3]), zero_tol=0.0)),
        "numerics.anticollapse.estimators.lognormal_comparison": Case(dict(tau=tau, q_min=0.75, significance=0.05)),
        # numerics.signal_propagation.ginibre
        "numerics.signal_propagation.ginibre.sample_ginibre": Case(dict(n=3, count=2, field="complex", seed=0, normalised=True),
                                                kinds={"seed": "seed"}),
        "numerics.signal_propagation.ginibre.estimate_Q": Case(dict(n=3, k=2, samples=16, field="complex", seed=0,
                                                 estimator="trace", chunk=None, progress=False, init=None),
                                            kinds={"seed": "seed", "chunk": "int?", "progress": "bool?", "init": "any"}),
        "numerics.signal_propagation.ginibre.estimate_S": Case(dict(n=3, t=2, samples=16, field="real", seed=0, chunk=None,
                                                 progress=False, init="uniform"),
                                            kinds={"seed": "seed", "chunk": "int?", "progress": "bool?", "init": "any"}),
        "numerics.signal_propagation.ginibre.estimate_feedforward": Case(dict(n=3, L=2, samples=16, field="complex", seed=0, chunk=None,
                                                           progress=False),
                                                      kinds={"seed": "seed", "chunk": "int?", "progress": "bool?"}),
        "numerics.signal_propagation.ginibre.block_rng": Case(dict(seed=1, block=2), kinds={"seed": "seed"}),
        # numerics.anticollapse.levy_sampling
        "numerics.anticollapse.levy_sampling.symmetric_stable": Case(dict(alpha=1.5, size=4, seed=0),
                                                        kinds={"size": "size", "seed": "seed"}),
        "numerics.anticollapse.levy_sampling.cts_increments": Case(dict(dt=0.02, size=4, seed=0, **LEVY),
                                                      kinds={"size": "size", "seed": "seed"}),
        "numerics.anticollapse.levy_sampling.cts_increments_cp": Case(dict(dt=0.02, size=4, eps=0.1, seed=0, **LEVY),
                                                         kinds={"size": "size", "seed": "seed"}, names=_CP_NAMES),
        "numerics.anticollapse.levy_sampling.cts_log_cf": Case(dict(u=1.0, dt=0.02, **LEVY), kinds={"u": "realarray"},
                                                  allow_inf=True),   # -inf once dt psi(u) passes float64 (|cf| -> 0)
        "numerics.anticollapse.levy_sampling.cts_cumulant": Case(dict(order=2, dt=0.02, **LEVY)),
        "numerics.anticollapse.levy_sampling.cp_small_jump_cumulant": Case(dict(order=2, dt=0.02, eps=0.1, **LEVY)),
        "numerics.anticollapse.levy_sampling.big_jump_rate": Case(dict(eps=0.1, **LEVY)),
        "numerics.anticollapse.levy_sampling.small_jump_variance": Case(dict(eps=0.1, **LEVY)),
        "numerics.anticollapse.levy_sampling.stream_states": Case(dict(seed=1, n=3), kinds={"seed": "seed"}),
        "numerics.anticollapse.levy_sampling.cts_params": Case(dict(dt=0.02, **LEVY)),
        "numerics.anticollapse.levy_sampling.cp_params": Case(dict(dt=0.02, eps=0.1, **LEVY), names=_CP_NAMES),
        # numerics.anticollapse.sde
        "numerics.anticollapse.sde.SDEConfig": Case(dict(params=_levy_params(eta_J=0.05), w=0.1, zeta_0=0.0, dt=0.02,
                                            drift="saturating", jumps="cp", eps=0.1), kinds={"params": "object"}),
        "numerics.anticollapse.sde.simulate": Case(dict(cfg=_cfg(eta_J=0.05), n_particles=3, burn_in=5, n_samples=2, thin=1,
                                           seed=0, zeta_init=None, progress=False),
                                      kinds={"cfg": "object", "seed": "seed", "zeta_init": "realarray?", "progress": "bool?"}),
        "numerics.anticollapse.sde.simulate_numpy": Case(dict(cfg=_cfg(eta_J=0.05), n_particles=3, burn_in=5, n_samples=2,
                                                 thin=1, seed=0, zeta_init=None),
                                            kinds={"cfg": "object", "seed": "seed", "zeta_init": "realarray?"}),
        "numerics.anticollapse.sde.drift": Case(dict(cfg=_cfg(), zeta=0.5), kinds={"cfg": "object", "zeta": "realarray"}),
        # a fast tail (beta* = kappa / eta_G = 10: a burn-in of 106 steps) with a drift narrow against 1/beta*
        "numerics.anticollapse.sde_tail.beta_from_sde": Case(
            dict(params=_levy_params(eta_G=0.1, eta_J=0.0), particles=400, seed=0, dt=0.05, w=0.01, eps=0.1,
                 burn_in=None, window=(0.75, 0.995), n_boot=20, boot_seed=None, level=0.9, progress=False),
            kinds={"params": "object", "burn_in": "int?", "boot_seed": "int?", "progress": "bool?", "window": "any"}),
        "numerics.anticollapse.sde_tail.stationary_snapshot": Case(
            dict(params=_levy_params(eta_G=0.1, eta_J=0.0), particles=50, seed=0, dt=0.05, w=0.01, eps=0.1,
                 drift="saturating", burn_in=None, progress=False),
            kinds={"params": "object", "burn_in": "int?", "progress": "bool?"}),
        "numerics.anticollapse.sde_tail.beta_eps": Case(dict(params=_levy_params(eta_J=0.05), eps=0.1),
                                                        kinds={"params": "object"}),
        # numerics.memory_functions.targets
        "numerics.memory_functions.targets.linear_target": Case(dict(x=np.ones((2, 8)), rho=RHO[:8], workers=None),
                                               kinds={"workers": "int?"}),
        "numerics.memory_functions.targets.linear_target_direct": Case(dict(x=np.ones((2, 8)), rho=RHO[:8])),
        "numerics.memory_functions.targets.nonlinear_target": Case(dict(x=np.ones((2, 8)), rho=RHO[:8], sigma1=np.tanh,
                                                       sigma2=np.tanh, workers=None),
                                                  kinds={"workers": "int?", "sigma1": "callable",
                                                         "sigma2": "callable"}),
        "numerics.memory_functions.targets.make_dataset": Case(dict(rho=RHO[:8], n_seq=3, T=None, nonlinear=False, seed=0, chunk=1024,
                                                   inputs="normal"),
                                              kinds={"T": "int?", "seed": "seed", "chunk": "int?"}),
        "numerics.memory_functions.targets.relative_mse": Case(dict(yhat=np.array([1.0, 2.0]), y=np.array([1.5, 2.0]))),
        # numerics.signal_propagation.wick
        "numerics.signal_propagation.wick.wick_polynomial": Case(dict(k=3, field="complex", progress=False), kinds={"progress": "bool?"}),
        "numerics.signal_propagation.wick.wick_polynomial_reference": Case(dict(k=3, field="complex")),
        "numerics.signal_propagation.wick.count_pairings": Case(dict(k=3, field="complex", progress=False), kinds={"progress": "bool?"}),
        # numerics.signal_propagation.real_wick (items from real_work_items(3): the kernel's input is validated row by row)
        "numerics.signal_propagation.real_wick.real_wick_polynomial": Case(dict(k=3, executor=None), kinds={"executor": "object?"}),
        "numerics.signal_propagation.real_wick.real_work_items": Case(dict(k=3)),
        "numerics.signal_propagation.real_wick.real_counts": Case(dict(k=3, items=_real_items(3), memo=None),
                                               kinds={"items": "intarray", "memo": "bool?"}),
        "numerics.signal_propagation.wick.polynomial_string": Case(dict(coeffs=[0, 1, 0, 1], var="n"),
                                                kinds={"coeffs": "intarray", "var": "text"}),
        **_optional_baselines(),
        **torch_baselines(Case),
        # numerics.plotting
        "numerics.plotting.pyplot": Case(dict()),
        "numerics.plotting.subplots": Case(dict(nrows=1, ncols=2)),
        "numerics.plotting.panels": Case(dict(ax=None, nrows=1, ncols=1), kinds={"ax": "object"}),
        "numerics.plotting.finish": Case(dict(fig=_fig(), path=None), kinds={"fig": "object", "path": "path?"},
                                         raises=(OSError,)),
        "numerics.plotting.save_figure": Case(dict(fig=_fig(), path=os.path.join(_tmpdir(), "fig.png")),
                                              kinds={"fig": "object", "path": "path"}, raises=(OSError,)),
    }
    _documented_c_default(cases)
    for case in cases.values():     # every dps: None means the ambient mpmath.mp.dps (theory._args.as_dps)
        if "dps" in case.kwargs:
            case.kinds.setdefault("dps", "int?")
    return cases


def _documented_c_default(cases: dict) -> None:
    """theory.levy: ``C=None`` means "not given" (default 1, documented: "``C`` default 1"), so None is a valid
    value of C wherever the signature's default is None."""
    for key, case in cases.items():
        if key.startswith("theory.levy.") and "C" in case.kwargs:
            param = inspect.signature(_resolve(key)).parameters.get("C")
            if param is not None and param.default is None:
                case.kinds.setdefault("C", "real?")


def _nonlinear_baselines() -> dict:
    """theory.nonlinear and its Monte Carlo (numerics.signal_propagation.nonlinear_mc, nonlinear_breakdown)."""
    from numerics.signal_propagation.nonlinear_breakdown import Breakdown
    from theory.nonlinear import Recurrence
    over = (OverflowError,)        # documented: q_t outside float64's normal range (use method="mp")
    draws = 1 + 0.01 * np.arange(6.0) ** 2 + 0.01 * _rng().standard_normal((40, 6))
    est = [Breakdown(3, 2.5 * k, 2.0, 3.0, 2.5 * k + 0.1 * _rng().standard_normal(20), 0.0, 9) for k in (1, 2, 3)]
    return {
        "theory.nonlinear.Recurrence": Case(dict(phi="tanh", sigma=1.0, driven=False), keeps_type=True),
        "theory.nonlinear.gaussian_energy": Case(dict(v=1.0, phi="tanh", method="float", dps=None),
                                                 kinds={"dps": "int?"}),
        "theory.nonlinear.gaussian_energy#mp": Case(dict(v=1.0, phi="tanh", method="mp", dps=20)),
        "theory.nonlinear.mean_field_energy": Case(dict(t=5, phi="tanh", sigma=1.0, driven=False, method="float",
                                                        dps=None), kinds={"dps": "int?"}, raises=over),
        "theory.nonlinear.mean_field_energy#mp": Case(dict(t=3, phi="tanh", sigma=1.0, driven=False, method="mp",
                                                           dps=20)),
        "theory.nonlinear.mean_field_profile": Case(dict(t=5, phi="relu", sigma=1.2, driven=True, method="float",
                                                         dps=None), kinds={"dps": "int?"}, raises=over),
        "theory.nonlinear.mean_field_profile#mp": Case(dict(t=3, phi="tanh", sigma=1.0, driven=True, method="mp",
                                                            dps=20)),
        "theory.nonlinear.first_correction_profile": Case(dict(t=5, phi="tanh", sigma=1.0, driven=False), raises=over),
        "theory.nonlinear.identity_energy": Case(dict(n=16, t=4, sigma=0.9, driven=True), raises=over),
        "theory.relu_tying.relu_tying_b": Case(dict(t=2, sigma=1.4, driven=True, method="float", dps=None),
                                               kinds={"dps": "int?"}),
        "theory.relu_tying.relu_tying_b#mp": Case(dict(t=3, sigma=1.4, driven=False, method="mp", dps=20)),
        "numerics.signal_propagation.nonlinear_mc.nonlinear_energies_mc": Case(
            dict(n=8, t=3, samples=8, recurrences=[Recurrence("tanh", 1.0), Recurrence("relu", 1.4, True)], probes=2,
                 seed=0, progress=False, keep_draws=False), kinds={"recurrences": "any", "seed": "seed",
                                                                   "progress": "bool?"}),
        "numerics.signal_propagation.nonlinear_mc.nonlinear_energy_mc": Case(
            dict(n=8, t=3, samples=8, phi="tanh", sigma=1.0, driven=False, probes=2, seed=0, progress=False,
                 keep_draws=False), kinds={"seed": "seed", "progress": "bool?"}),
        "numerics.signal_propagation.tied_correction.tied_correction_profile": Case(
            dict(t=3, samples=64, phi="relu", sigma=1.4, driven=False, seed=0), kinds={"seed": "seed"}),
        "numerics.signal_propagation.nonlinear_breakdown.crossing_depth": Case(
            dict(dev=np.array([0.0, 0.02, 0.08]), tol=0.05)),
        "numerics.signal_propagation.nonlinear_breakdown.bootstrap_means": Case(
            dict(draws=draws, replicates=5, seed=0), kinds={"draws": "any", "seed": "seed"}),
        "numerics.signal_propagation.nonlinear_breakdown.breakdown_with_interval": Case(
            dict(draws=draws, q=np.ones(6), tol=0.1, replicates=20, seed=0, level=0.95),
            kinds={"draws": "any", "seed": "seed"}),
        "numerics.signal_propagation.nonlinear_breakdown.fit_exponent": Case(
            dict(n=np.array([32.0, 128.0, 512.0]), t=np.array([3.0, 6.0, 12.0]), fit_weights=None),
            kinds={"fit_weights": "any"}),
        "numerics.signal_propagation.nonlinear_breakdown.fit_offset_exponent": Case(
            dict(n=np.array([32.0, 128.0, 512.0, 2048.0]), t=np.array([3.0, 6.0, 12.0, 25.0]), sd=None),
            kinds={"sd": "any"}),
        "numerics.signal_propagation.nonlinear_breakdown.exponent_with_interval": Case(
            dict(ns=[64, 256, 1024], estimates=est, level=0.95), kinds={"ns": "any", "estimates": "any"}),
    }


def _optional_baselines() -> dict:
    """Baselines of modules that may not exist in every checkout (added on main while this table was
    written): included only where the module imports, so the table works before and after a merge."""
    out = {}
    if _present("theory.horizon"):
        out.update({
            "theory.horizon.log_energies": Case(dict(n=4, k=3)),
            # documented: inf past float64 (large sigma or depth)
            "theory.horizon.gain_curve": Case(dict(n=4, t=2, sigma=1.0, quantity="S"), allow_inf=True),
            "theory.horizon.scale_from_energies": Case(
                dict(energies=[1, 1, Fraction(17, 16), Fraction(21, 16)], tol=0.2, quantity="Q", method="float",
                     dps=None, n=None, field="complex", source="given energies"),
                kinds={"energies": "any", "dps": "int?", "n": "int?", "source": "text"}),
            "theory.horizon.sigma_for_horizon": Case(dict(n=64, t=10, tol=0.05, quantity="Q", field="complex",
                                                          method="float", dps=None, init=None),
                                                     kinds={"dps": "int?", "init": "any"}),
            "theory.horizon.sigma_for_horizon#init": Case(dict(n=64, t=10, tol=0.05, quantity="Q", field="complex",
                                                               method="float", dps=None, init="uniform"),
                                                          kinds={"dps": "int?", "init": "any"}),
            "theory.horizon.depth_for_scale": Case(dict(n=64, sigma=1.0, tol=0.05, quantity="Q", method="float",
                                                        max_t=None, field="complex", init=None),
                                                   kinds={"max_t": "int?", "init": "any"}),
            "theory.horizon.depth_for_scale#init": Case(dict(n=64, sigma=1.0, tol=0.05, quantity="Q", method="float",
                                                             max_t=None, field="complex", init="uniform"),
                                                        kinds={"max_t": "int?", "init": "any"}),
            "theory.horizon.max_horizon": Case(dict(n=64, tol=0.05, quantity="Q", init=None), kinds={"init": "any"}),
            "theory.horizon.max_horizon#init": Case(dict(n=16, tol=0.3, quantity="Q", init="rademacher"),
                                                    kinds={"init": "any"}),
            "theory.horizon.glorot_table": Case(dict(ns=[64], tol=0.1, quantity="Q", init=None),
                                                kinds={"ns": "intarray", "init": "any"}),
        })
    if _present("numerics.signal_propagation.real_wick_pfaffian"):
        out.update({
            "numerics.signal_propagation.real_wick_pfaffian.real_wick_rows": Case(dict(k=3, backend="numba")),
            "numerics.signal_propagation.real_wick_pfaffian.pfaffian_real_wick_polynomial": Case(dict(k=3)),
            "numerics.signal_propagation.real_wick_pfaffian.pfaffian_values": Case(dict(k=3, backend="numba")),
            "numerics.signal_propagation.real_wick_pfaffian.value_bound": Case(dict(k=3, m=2)),
            "numerics.signal_propagation.real_wick_pfaffian.interpolate_row": Case(dict(k=1, values=[4, 16]), kinds={"values": "any"}),
            "numerics.signal_propagation.loop_equations.loop_equation_polynomial": Case(dict(k=3)),
            "numerics.signal_propagation.loop_equations.word_moment": Case(dict(words="0011"), kinds={"words": "any"}),
            "numerics.signal_propagation.quaternion_ginibre.quaternion_moments": Case(dict(m=1, k=2, samples=64, seed=0),
                                                                   kinds={"seed": "seed"}),
            "numerics.signal_propagation.real_regimes.ratio_along_ray": Case(dict(c=1.0, k=4), kinds={"k": "int?"}),
            "numerics.signal_propagation.real_regimes.real_correction": Case(dict(c=1.0, points=10, degree=5)),
            "numerics.signal_propagation.real_regimes.real_limit": Case(dict(c=1.0, points=10, degree=5)),
            "numerics.signal_propagation.real_regimes.series_correction": Case(dict(c=1.0)),
            "numerics.signal_propagation.real_regimes.regimes_data": Case(dict(rays=[1.0]), kinds={"rays": "realarray"}),
            "theory.real_rows.real_row": Case(dict(k=3)),
            "theory.real_rows.real_Q": Case(dict(n=4, k=2)),
            "theory.real_rows.real_energies": Case(dict(n=4, k=2)),
            "theory.real_rows.real_rows_max_k": Case(dict()),
            "theory.real_rows.verification_rows": Case(dict()),
            "theory.real_expansion.coefficient_shape": Case(dict(m=3)),
            "theory.real_expansion.fit_coefficient": Case(dict(m=2, rows={k: (0,) * (k + 1) + (1,) for k in range(6)},
                                                               ks=None), kinds={"rows": "any", "ks": "any"}),
            "theory.real_expansion.coefficient": Case(dict(m=3)),
            "theory.real_expansion.coefficient_record": Case(dict(m=3)),
            "theory.real_expansion.coefficient_value": Case(dict(m=3, k=5)),
            "theory.real_expansion.partial_sum": Case(dict(m=2)),
            "theory.real_expansion.QR": Case(dict(n=10**6, k=100, method="float", dps=None),
                                             kinds={"n": "intarray", "k": "intarray", "dps": "int?"}),
            "theory.real_expansion.SR": Case(dict(n=10**6, t=100, method="float", dps=None),
                                             kinds={"n": "intarray", "t": "intarray", "dps": "int?"}),
            "theory.real_expansion.max_depth": Case(dict(n=1000, quantity="Q")),
            "theory.real_expansion.scaling_series": Case(dict(j=1)),
            "theory.real_expansion.scaling_function": Case(dict(j=1, c=1.0), kinds={"c": "realarray"}),
            "theory.real_expansion.real_energies_any": Case(dict(n=10**6, k=70, method="float", dps=None),
                                                            kinds={"dps": "int?"}),
            "theory.real_expansion.truncated_expansion": Case(dict(n=3600, t=60, quantity="Q", m_top=15, base=None),
                                                              kinds={"n": "intarray", "t": "intarray", "base": "int?"}),
            "theory.real_expansion.real_breakdown_depth": Case(dict(n=10**4, tol=0.05)),
            "theory.real_expansion.breakdown_law": Case(dict(tol=0.05)),
            "numerics.signal_propagation.real_energy_mc.real_energy_mc": Case(dict(n=8, t=3, samples=16, probes=2, seed=0,
                                                                progress=False), kinds={"progress": "bool?"}),
        })
    if _present("numerics.signal_propagation.structured_mc"):
        out.update(_structured_baselines())
    if _present("theory.nonlinear"):
        out.update(_nonlinear_baselines())
    if _present("numerics.signal_propagation.law_rows"):
        out.update(_init_law_baselines())
    if _present("numerics.signal_propagation.horizon_mc"):
        out.update({
            "numerics.signal_propagation.horizon_mc.real_energies": Case(dict(n=2, k=2)),
            "numerics.signal_propagation.horizon_mc.mc_energies": Case(dict(n=4, k=2, samples=64, field="real", seed=0, batches=4),
                                                    kinds={"seed": "seed"}),
            "numerics.signal_propagation.horizon_mc.sigma_for_horizon": Case(dict(n=16, t=6, tol=0.05, field="real"),
                                                          kinds={"field": "choice"}),
            "numerics.signal_propagation.horizon_mc.depth_with_se": Case(dict(n=4, sigma=1.0, tol=0.3, field="real")),
            "numerics.signal_propagation.horizon_mc.simulate_energies": Case(dict(n=8, sigma=0.9, t=3, samples=64, seed=1),
                                                          kinds={"seed": "seed"}),
        })
    if _present("numerics.memory_functions.memory_report"):
        mprof = importlib.import_module("numerics.memory_functions.memory_report")
        exp_rho = 0.8 ** np.arange(64)
        cells = [mprof.BenchCell("lstm", "exp", 0.5, 0.2, ""), mprof.BenchCell("s4d", "exp", 0.5, 0.01, "")]
        bench = os.path.join(_tmpdir(), "results.json")
        with open(bench, "w") as fh:
            fh.write('{"results": [{"name": "x", "data": {"medians": [{"model": "tcn", "kind": "poly", '
                     '"alpha": 0.5, "median_relmse": 0.01}]}}]}')
        out.update({
            "numerics.memory_functions.memory_report.mismatch": Case(dict(rho=[1.0, 0.5, 0.25], phi=[1.0, 0.4, 0.2])),
            "numerics.memory_functions.memory_report.nearest_families": Case(dict(rho=exp_rho, kinds=("exp", "poly")),
                                                             kinds={"kinds": "any"}),
            "numerics.memory_functions.memory_report.load_benchmark": Case(dict(path=bench), kinds={"path": "path?"},
                                                           raises=(OSError,)),
            "numerics.memory_functions.memory_report.best_on_cell": Case(dict(cells=cells, kind="exp", alpha=0.45),
                                                         kinds={"cells": "any"}),
            "numerics.memory_functions.memory_report.memory_report": Case(
                dict(rho=exp_rho, T=None, prony_tol=1e-3, m_max=2, prony=True, results="/nonexistent.json",
                     far_threshold=0.1), kinds={"T": "int?", "m_max": "int?", "results": "any"}),
            "numerics.memory_functions.memory_report.as_memory_function": Case(dict(rho=exp_rho[:8], T=None), kinds={"T": "int?"}),
        })
    return out


def _init_law_baselines() -> dict:
    """theory.init_laws and its numerics (iid weights of any symmetric law)."""
    law = {"law": "any"}
    return {
        "theory.init_laws.laws.gaussian": Case(dict()),
        "theory.init_laws.laws.uniform": Case(dict()),
        "theory.init_laws.laws.rademacher": Case(dict()),
        "theory.init_laws.laws.sparse": Case(dict(p=0.05), kinds={"p": "any"}),
        "theory.init_laws.laws.student_t": Case(dict(nu=6), kinds={"nu": "any"}),
        "theory.init_laws.laws.from_moments": Case(dict(moments=(3, 15)), kinds={"moments": "any"},
                                                   names={"moments": ("m4", "m6", "from_moments")}),
        "theory.init_laws.laws.as_law": Case(dict(value="sparse:0.05", name="init"),
                                             kinds={"value": "any", "name": "text"}, names={"value": ("init",)}),
        "theory.init_laws.rows.law_rows_max_k": Case(dict()),
        "theory.init_laws.rows.shape_terms": Case(dict(k=3)),
        "theory.init_laws.rows.law_row": Case(dict(k=3, law="uniform", basis="moments"), kinds=law),
        "theory.init_laws.rows.law_P": Case(dict(n=4, k=3, law="uniform"), kinds=law),
        "theory.init_laws.rows.cumulant_terms": Case(dict(k=3)),
        "theory.init_laws.rows.terms_in_cumulants": Case(dict(terms=((1, (2,), 1), (3, (1, 1), 1)), jmin=0),
                                                         kinds={"terms": "any"}),
        "theory.init_laws.structure.top_rows": Case(dict()),
        "theory.init_laws.structure.coefficient": Case(dict(m=3, mu=(2,)), kinds={"mu": "any"}),
        "theory.init_laws.structure.coefficient_record": Case(dict(m=3, mu=(2,)), kinds={"mu": "any"}),
        "theory.init_laws.structure.coefficient_value": Case(dict(m=3, mu=(2,), k=7), kinds={"mu": "any"}),
        "theory.init_laws.structure.monomials": Case(dict(m=3)),
        "theory.init_laws.structure.orders": Case(dict()),
        "theory.init_laws.structure.kappa4_series": Case(dict()),
        "theory.init_laws.structure.kappa4_curve": Case(dict(c=1.0), kinds={"c": "realarray"}),
        "theory.init_laws.energy.exact_depth": Case(dict(law="uniform"), kinds=law),
        "theory.init_laws.energy.Q_law": Case(dict(n=10**4, k=20, law="uniform", method="float", dps=None),
                                              kinds={"law": "any", "dps": "int?"}),
        "theory.init_laws.energy.Q_law#mp": Case(dict(n=10**4, k=20, law="uniform", method="mp", dps=30), kinds=law),
        "theory.init_laws.energy.S_law": Case(dict(n=10**4, t=20, law="uniform", method="float", dps=None),
                                              kinds={"law": "any", "dps": "int?"}),
        "theory.init_laws.energy.law_max_depth": Case(dict(n=1000, law="uniform", quantity="Q"), kinds=law),
        "theory.init_laws.energy.law_energies_any": Case(dict(n=1000, t=20, law="uniform"), kinds=law),
        "theory.init_laws.energy.truncated_law_expansion": Case(dict(n=400, t=12, law="uniform", quantity="S",
                                                                     base=None), kinds={"law": "any", "base": "int?"},
                                                                raises=(OverflowError,)),
        "theory.real_expansion.fit_quasi": Case(dict(points={0: 0, 1: 0, 2: 1}, deg_a=2, deg_b=-1),
                                                kinds={"points": "any", "deg_b": "any"}),
        "theory.real_expansion.quasi_value": Case(dict(A=(Fraction(1), Fraction(2)), B=(Fraction(1),), k=3),
                                                  kinds={"A": "any", "B": "any"}),
        "theory.real_expansion.quasi_partial_sum": Case(dict(A=(Fraction(0), Fraction(1)), B=()),
                                                        kinds={"A": "any", "B": "any"}),
        "numerics.signal_propagation.law_rows.shape_counts": Case(dict(k=5, top=None, executor=None, log_file=None,
                                                                       chunks=8),
                                                                  kinds={"top": "int?", "executor": "any",
                                                                         "log_file": "path?"}),
        "numerics.signal_propagation.law_rows.prefix_items": Case(dict(k=5, depth=3, top=None), kinds={"top": "int?"}),
        "numerics.signal_propagation.law_cumulants.cumulant_counts": Case(dict(k=4)),
        "numerics.signal_propagation.law_cumulants.slot_entries": Case(dict(k=3)),
        "numerics.signal_propagation.law_sampling.sample_entries": Case(
            dict(law="uniform", shape=(3, 3), rng=np.random.default_rng(0)), kinds={"law": "any", "shape": "any",
                                                                                     "rng": "object"}),
        "numerics.signal_propagation.law_sampling.has_sampler": Case(dict(law="uniform"), kinds=law),
        # the package re-exports these (the same objects)
        "theory.init_laws.as_law": Case(dict(value="uniform", name="init"), kinds={"value": "any", "name": "text"},
                                        names={"value": ("init",)}),
        "theory.init_laws.law_row": Case(dict(k=3, law="uniform", basis="moments"), kinds=law),
        "theory.init_laws.Q_law": Case(dict(n=10**4, k=20, law="uniform", method="float", dps=None),
                                       kinds={"law": "any", "dps": "int?"}),
        "theory.init_laws.S_law": Case(dict(n=10**4, t=20, law="uniform", method="float", dps=None),
                                       kinds={"law": "any", "dps": "int?"}),
    }


def _structured_baselines() -> dict:
    """theory.structured_init and its numerics (the structured initialisations)."""
    from theory.structured_init import IdentityNoiseInit, RingInit

    ring = RingInit(0.5, 0.99)
    law = {"init": "any", "dps": "int?"}
    return {
        "theory.structured_init.Q_structured": Case(dict(n=8, k=5, init=ring, method="float", dps=None), kinds=law),
        "theory.structured_init.S_structured": Case(dict(n=8, t=5, init=ring, method="float", dps=None), kinds=law),
        "theory.structured_init.structured_variance": Case(dict(n=8, t=5, init=ring, quantity="S", method="float",
                                                                dps=None), kinds=law),
        "theory.structured_init.haar_moments": Case(dict(n=4, field="real")),
        "theory.structured_init.identity_noise_expansion": Case(dict(k=3, init=IdentityNoiseInit(1, 0.5, "real")),
                                                                kinds={"init": "any"}),
        "theory.structured_init.as_init": Case(dict(init="ring:r_min=0.5"), kinds={"init": "any"}),
        "theory.structured_init.OrthogonalInit": Case(dict(field="real")),
        "theory.structured_init.RingInit": Case(dict(r_min=0.5, r_max=0.99, theta_max=1.0, gamma_norm=False),
                                                keeps_type=True),
        "theory.structured_init.RotationBlocksInit": Case(dict(r_min=0.5, r_max=0.99, theta_max=1.0,
                                                               gamma_norm=False), keeps_type=True),
        "theory.structured_init.IdentityNoiseInit": Case(dict(alpha=1.0, beta=0.5, field="complex"), keeps_type=True),
        "numerics.signal_propagation.haar.sample_haar": Case(dict(n=4, count=3, field="real", seed=0),
                                                             kinds={"seed": "seed"}),
        "numerics.signal_propagation.haar.haar_statistics": Case(dict(n=4, samples=16, field="real", seed=0,
                                                                      sampler="qr"), kinds={"seed": "seed"}),
        "numerics.signal_propagation.haar.haar_rounding": Case(dict(n=4, k=3, count=2, field="real", seed=0),
                                                               kinds={"seed": "seed"}),
        "numerics.signal_propagation.haar.householder_defect_bound": Case(dict(n=4)),
        "numerics.signal_propagation.identity_noise.mixed_words": Case(dict(k=3)),
        "numerics.signal_propagation.identity_noise.identity_noise_real_energies": Case(
            dict(n=4, k=3, alpha=1.0, beta=0.5)),
        "numerics.signal_propagation.loop_equations.word_moments": Case(dict(words_list=["0011", "00"]),
                                                                        kinds={"words_list": "any"}),
        "numerics.signal_propagation.structured_mc.sample_init": Case(dict(n=4, count=3, init=ring, seed=0),
                                                                      kinds={"init": "any", "seed": "seed"}),
        "numerics.signal_propagation.structured_mc.estimate_structured": Case(
            dict(n=4, t=3, samples=8, init=ring, seed=0, progress=False),
            kinds={"init": "any", "seed": "seed", "progress": "bool?"}),
    }


def _spread(med: dict) -> float:
    """A statistic of per-cell medians for the bootstrap baseline: max - min."""
    return max(med.values()) - min(med.values())


def _present(modname: str) -> bool:
    """Whether this checkout has the module (an installed copy elsewhere on sys.path does not count)."""
    package, _, sub = modname.rpartition(".")
    pkg = importlib.import_module(package)
    return any(os.path.exists(os.path.join(p, sub + ".py")) for p in pkg.__path__)


_NK_ARRAY = {"n": "intarray", "k": "intarray"}
# the compound Poisson sampler refuses too many big jumps per step with "raise eps or lower dt": a joint
# condition on the Levy parameters, reported in terms of the two knobs that fix it
_CP_NAMES = {k: ("eps", "dt") for k in ("eta_J", "alpha", "lam", "C")}
_NT_ARRAY = {"n": "intarray", "t": "intarray"}


def _density(x):
    import mpmath
    return mpmath.exp(-x) if isinstance(x, mpmath.mpf) else np.exp(-x)     # the float and the mp path


def _tmpdir():
    import tempfile
    d = os.path.join(tempfile.gettempdir(), f"seqtheory-fuzz-{os.getpid()}")
    os.makedirs(d, exist_ok=True)
    return d


# ------------------------------------------------------------------------------------------------------
# kinds: which replacement values a parameter must reject
# ------------------------------------------------------------------------------------------------------
def kind_of(case: Case, param: str) -> str:
    if param in case.kinds:
        return case.kinds[param]
    v = case.kwargs[param]
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, numbers.Integral):
        return "int"
    if isinstance(v, numbers.Real):
        return "real"
    if isinstance(v, str):
        return "choice"
    if isinstance(v, np.ndarray):
        return "realarray"
    return "any"


def _is_int(v) -> bool:
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, (numbers.Integral, np.integer)):
        return True
    if isinstance(v, np.ndarray):
        return v.ndim == 0 and v.dtype.kind in "iu"
    return _index_only(v)


def _index_only(v) -> bool:
    """An int-like known through ``__index__`` only (documented: the integer checkers take it)."""
    if isinstance(v, (float, complex, str, bytes, np.generic, np.ndarray)) or not hasattr(type(v), "__index__"):
        return False
    try:
        operator.index(v)
    except TypeError:
        return False
    return True


def _is_real(v) -> bool:
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, np.ndarray):
        ok = v.ndim == 0 and v.dtype.kind in "iuf"
        return ok and bool(np.isfinite(v))
    if isinstance(v, decimal.Decimal) or _index_only(v):      # a real number too (exact, or an int)
        return _index_only(v) or v.is_finite()
    if isinstance(v, numbers.Integral) and not isinstance(v, np.integer):
        return abs(v) <= sys.float_info.max        # an int past float64's range is no real parameter's value
    return isinstance(v, (numbers.Real, np.integer, np.floating)) and math.isfinite(float(v))


def _is_pos_inf(v) -> bool:
    if isinstance(v, np.ndarray):
        return v.ndim == 0 and v.dtype.kind == "f" and bool(v == np.inf)
    return isinstance(v, (float, np.floating)) and v == math.inf


def _as_array(v):
    """``v`` as a numpy array, or None for values no array parameter takes (bools, strings, None)."""
    if isinstance(v, (bool, np.bool_, str, bytes)) or v is None:
        return None
    try:
        arr = np.asarray(v)
    except Exception:
        return None
    # an array past the toolkit's size limits (a broadcast view of 10**12 elements) is never a valid argument,
    # and testing its elements here would need its memory
    return None if arr.size > HUGE_ARRAY else arr


# no array argument may have more elements than this (theory._args.MAX_ELEMENTS is far below it)
HUGE_ARRAY = 2**31


def _real_array_ok(v) -> bool:
    arr = _as_array(v)
    if arr is None:
        return False
    if arr.dtype.kind == "O":         # Python ints beyond int64 are real numbers too
        return all(_is_real(x) for x in arr.ravel())
    return arr.dtype.kind in "iuf" and bool(np.all(np.isfinite(arr)))


def _int_array_ok(v) -> bool:
    arr = _as_array(v)
    if arr is None:
        return False
    return arr.size == 0 or arr.dtype.kind in "iu" or (arr.dtype.kind == "O" and all(_is_int(x) for x in arr.ravel()))


def may_accept(kind: str, v: Any) -> bool:
    """Whether a parameter of this kind may accept ``v`` (if not, accepting it is a silent error)."""
    if kind.endswith("?"):
        return v is None or may_accept(kind[:-1], v)
    if kind in ("any", "object", "text", "symbolic"):
        return True
    if kind == "bool":
        return isinstance(v, (bool, np.bool_))
    if kind == "int":
        return _is_int(v)
    if kind == "intarray":
        return _is_int(v) or _int_array_ok(v)
    if kind == "real":
        return _is_real(v)
    if kind == "realinf":        # documented: +inf is a value ("no threshold", "a non-decaying unit")
        return _is_real(v) or _is_pos_inf(v)
    if kind == "realarray":
        return _real_array_ok(v)
    if kind == "choice":
        return False            # the fuzz strings are never valid choices; non-strings never are
    if kind == "seed":
        return _is_int(v) or isinstance(v, (np.random.Generator, np.random.SeedSequence))
    if kind == "size":
        return _is_int(v) or (isinstance(v, (tuple, list)) and all(_is_int(x) for x in v))
    if kind == "callable":
        return callable(v)
    if kind == "path":
        return isinstance(v, (str, os.PathLike))
    raise KeyError(kind)


# ------------------------------------------------------------------------------------------------------
# checking a result
# ------------------------------------------------------------------------------------------------------
def finite(x, allow_inf=False) -> bool:
    import mpmath
    import sympy

    if x is None or isinstance(x, (str, bool, np.bool_, Fraction, np.random.Generator, os.PathLike)):
        return True
    if isinstance(x, numbers.Integral):
        return True
    if isinstance(x, (float, complex, np.floating, np.complexfloating)):
        return bool(np.isfinite(x) or (allow_inf and not np.isnan(x)))
    if isinstance(x, (mpmath.mpf, mpmath.mpc)):
        return bool(mpmath.isfinite(x) or (allow_inf and not mpmath.isnan(x)))
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "fc":
            return bool(np.all(np.isfinite(x)) or (allow_inf and not np.any(np.isnan(x))))
        if x.dtype.kind == "O":
            return all(finite(e, allow_inf) for e in x.ravel())
        return True
    if isinstance(x, sympy.Basic):
        return not x.has(sympy.zoo, sympy.oo, -sympy.oo, sympy.nan)
    if isinstance(x, (list, tuple)):
        return all(finite(e, allow_inf) for e in x)
    if isinstance(x, dict):
        return all(finite(e, allow_inf) for e in x.values())
    if dataclasses.is_dataclass(x):
        # fits carry diagnostic fields (condition numbers, bootstrap draws) that may be inf by design;
        # the primary fields are checked
        return all(finite(getattr(x, f.name), True) for f in dataclasses.fields(x))
    return True     # arb balls, figures, paths: no finiteness notion here


def same(a, b) -> bool:
    """Whether two results are identical (arrays bitwise, floats exactly, dataclasses field by field)."""
    if isinstance(a, np.random.Generator) and isinstance(b, np.random.Generator):
        return a.bit_generator.state == b.bit_generator.state
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray) and a.dtype == object:
        return a.shape == b.shape and all(same(x, y) for x, y in zip(a.flat, b.flat))
    if hasattr(a, "named_parameters") and hasattr(a, "state_dict"):
        return repr(a) == repr(b)       # torch modules: same architecture (the initial weights are random)
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if type(a).__name__ == "arb":                          # a ball equals only itself: compare its two ends
        return a.mid().man_exp() == b.mid().man_exp() and a.rad().man_exp() == b.rad().man_exp()
    if type(a).__module__.startswith("matplotlib."):      # a new figure per call: the same if laid out alike
        return repr(a) == repr(b)
    try:
        return bool(a == b)
    except Exception:
        return repr(a) == repr(b)


def same_except(a, b, volatile: tuple = ()) -> bool:
    """:func:`same` on two results, leaving out the ``volatile`` fields of a dataclass result (or the volatile
    keys of a dict result, or of each dict in a list result: a run record's seconds)."""
    if volatile and dataclasses.is_dataclass(a) and type(a) is type(b):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
                   if f.name not in volatile)
    if volatile and isinstance(a, dict) and isinstance(b, dict):
        return same({k: v for k, v in a.items() if k not in volatile}, {k: v for k, v in b.items() if k not in volatile})
    if volatile and isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_except(x, y, volatile) for x, y in zip(a, b))
    return same(a, b)


def equivalent(v, base) -> bool:
    """``v`` is the baseline value in another numeric type (np.uint64(30) for 30): same result expected."""
    if isinstance(v, (bool, np.bool_)) or isinstance(base, (bool, np.bool_)) or v is base:
        return False
    if not isinstance(base, numbers.Real) or isinstance(v, (str, bytes, complex)):
        return False
    if isinstance(v, np.ndarray) and v.ndim != 0:
        return False
    if not isinstance(v, (numbers.Real, np.integer, np.floating, np.ndarray)):
        return False
    try:
        return type(v) is not type(base) and float(v) == float(base) and np.asarray(v).dtype.kind in "iuf" and \
            (not isinstance(base, numbers.Integral) or np.asarray(v).dtype.kind in "iu")
    except Exception:
        return False


# ------------------------------------------------------------------------------------------------------
# the worker side
# ------------------------------------------------------------------------------------------------------
_STATE: dict = {}


VARIANT = "#"   # "module.function#mp": a second baseline of one function (its other precision path)


def base_qual(key: str) -> str:
    """The function a baseline key names (``theory.levy.Phi#mp`` -> ``theory.levy.Phi``)."""
    return key.split(VARIANT, 1)[0]


def _call(fn, kwargs: dict):
    """``fn(**kwargs)``, with the positional-only parameters (``beta`` of ``theory.levy.Phi``) passed by
    position: the baseline tables name every parameter, the signature decides how it is passed."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return fn(**kwargs)
    kw = dict(kwargs)
    args = [kw.pop(n) for n, p in sig.parameters.items() if p.kind is p.POSITIONAL_ONLY and n in kw]
    for n, p in sig.parameters.items():          # *stages of Sequential: the table gives them as a tuple
        if p.kind is p.VAR_POSITIONAL and n in kw:
            v = kw.pop(n)
            args += list(v) if isinstance(v, (list, tuple)) else [v]
    return fn(*args, **kw)


def _resolve(qual):
    mod, name = base_qual(qual).rsplit(".", 1)
    return getattr(importlib.import_module(mod), name)


def _global_state():
    import mpmath
    return mpmath.mp.prec, tuple(sorted(np.geterr().items()))


def run_case(qual: str, param: str | None, value: Any) -> tuple[str, str]:
    """Run one case in this process; returns (outcome, detail)."""
    if "cases" not in _STATE:
        _STATE["cases"] = baselines()
        _STATE["base"] = {}
    case = _STATE["cases"][qual]
    fn = _resolve(qual)
    if qual not in _STATE["base"]:
        _STATE["base"][qual] = _call(fn, case.kwargs)     # must succeed: a failing baseline is a table error
    base = _STATE["base"][qual]
    if param is None:
        if not (case.allow_nan or finite(base, case.allow_inf)):
            return "silent", "baseline"
        return _oracle(qual, case.kwargs, base, "baseline")
    if param == MANY:                     # several arguments replaced at once (valid values, for the oracle)
        return _run_many(fn, case, qual, value)
    kwargs = dict(case.kwargs)
    kwargs[param] = value
    before = _global_state()
    returned, res = _attempt(fn, kwargs, case, (param,))
    after = _global_state()
    if not returned:
        return res
    if after != before:
        return "silent", f"global state changed: {before} -> {after}"
    kind = kind_of(case, param)
    if not may_accept(kind, value):
        return "silent", f"accepted {param}={value!r:.80} (kind {kind}) -> {res!r:.80}"
    if not case.allow_nan and not finite(res, case.allow_inf):
        return "silent", f"non-finite result {res!r:.120}"
    if case.comparable and equivalent(value, case.kwargs[param]) and \
            not (res == base if case.keeps_type else same_except(res, base, case.volatile)):
        return "silent", f"{param}={value!r} (== baseline {case.kwargs[param]!r}) gave {res!r:.80} != {base!r:.80}"
    return _oracle(qual, kwargs, res, "")


def _attempt(fn, kwargs: dict, case: Case, params: tuple) -> tuple[bool, Any]:
    """``(True, result)`` of the call, or ``(False, (outcome, detail))`` for an exception: clean if it is a
    TypeError/ValueError naming one of ``params`` (or a documented ArithmeticError), else unnamed / crash."""
    try:
        return True, _call(fn, kwargs)
    except (TypeError, ValueError) as exc:
        msg = str(exc)
        ok = any(n in msg for p in params for n in (p,) + tuple(case.names.get(p, ())))
        return False, (("clean" if ok else "unnamed"), f"{type(exc).__name__}: {msg[:200]}")
    except case.raises as exc:
        return False, ("clean", f"documented {type(exc).__name__}")
    except Exception as exc:
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return False, ("crash", f"{type(exc).__name__}: {str(exc)[:200]} at {where.filename}:{where.lineno}")


MANY = "*"    # run_case(qual, MANY, {param: value, ...}): replace several arguments of the baseline call


def _run_many(fn, case: Case, qual: str, values: dict) -> tuple[str, str]:
    """A call with several arguments replaced (fuzz_oracle's valid draws): a clean error naming one of them,
    or a finite result that the oracle then checks."""
    kwargs = {**case.kwargs, **values}
    returned, res = _attempt(fn, kwargs, case, tuple(values))
    if not returned:
        return res
    if not case.allow_nan and not finite(res, case.allow_inf):
        return "silent", f"non-finite result {res!r:.120}"
    return _oracle(qual, kwargs, res, "accepted, not checked")


ORACLE_TAG = "oracle: "     # the detail of a clean call that was checked against an independent reference


def _oracle(qual: str, kwargs: dict, res, detail: str) -> tuple[str, str]:
    """The outside oracle (tests/fuzz_oracle.py) on an accepted call: "silent" on a wrong value."""
    import fuzz_oracle

    verdict = fuzz_oracle.check(qual, kwargs, res)
    if verdict is None:
        return "clean", detail
    ok, what = verdict
    return ("clean", ORACLE_TAG + what) if ok else ("silent", f"wrong value against the reference: {what}")


def _worker_main(conn):
    # quiet workers: warnings are not outcomes
    import warnings
    warnings.simplefilter("ignore")
    os.environ.setdefault("MPLBACKEND", "Agg")
    # fuzzed paths ("bogus", "") are relative: write them in a scratch directory, never in the checkout
    sys.path[:] = [os.path.abspath(p) if p in ("", ".") else p for p in sys.path]
    os.chdir(_tmpdir())
    from fuzz_values import CORRUPT_FILE, EMPTY_FILE
    open(EMPTY_FILE, "wb").close()                       # the fuzzed file names exist: empty, and not a .npy
    with open(CORRUPT_FILE, "wb") as fh:
        fh.write(b"\x93NUMPY\x01\x00garbage")
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        try:
            out = run_case(*msg)
        except Exception as exc:   # a baseline that fails
            out = ("error", f"baseline failed: {type(exc).__name__}: {exc}")
        conn.send(out)


class Runner:
    """A worker process that runs cases one at a time; killed and restarted after a timeout."""

    def __init__(self, timeout: float = TIMEOUT_S):
        self.timeout = timeout
        self.proc = None
        self.seen: set[str] = set()

    def _start(self):
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        self.proc.start()
        self.seen = set()

    def run(self, qual: str, param: str | None, value: Any) -> tuple[str, str]:
        out = self._run(qual, param, value, self.timeout)
        if out[0] != "hang" or param is None:
            return out
        again = self._run(qual, param, value, self.timeout * RERUN_FACTOR)
        if again[0] == "clean":
            return "slow", f"over {self.timeout} s, clean within {self.timeout * RERUN_FACTOR} s on rerun"
        return again

    def _run(self, qual: str, param: str | None, value: Any, timeout: float) -> tuple[str, str]:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        if qual not in self.seen:                 # warm-up: imports, numba compilation, the baseline
            self.conn.send((qual, None, None))
            if not self.conn.poll(600):
                self.close()
                return "hang", "baseline did not finish in 600 s"
            out = self.conn.recv()
            if out[0] != "clean" or param is None:
                return out
            self.seen.add(qual)
        try:
            self.conn.send((qual, param, value))
        except Exception as exc:                  # an unpicklable value: a harness error
            return "error", f"cannot send {value!r}: {exc}"
        if self.conn.poll(timeout):
            try:
                return self.conn.recv()
            except EOFError:
                pass
            self.close()
            return "crash", "worker died (segfault or abort)"
        if not self.proc.is_alive():
            self.close()
            return "crash", "worker died (segfault or abort)"
        self.close()
        return "hang", f"no answer within {timeout} s"

    def close(self):
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join()
            import shutil
            import tempfile
            shutil.rmtree(os.path.join(tempfile.gettempdir(), f"seqtheory-fuzz-{self.proc.pid}"), ignore_errors=True)
            self.proc = None


def param_names(qual: str) -> list[str]:
    """The parameters to fuzz: those of the baseline call (it names every parameter of the signature)."""
    return list(_param_table()[qual])


_PARAMS: dict = {}


def _param_table():
    if not _PARAMS:
        # the baseline table is built in this process only to read its keys and values
        for qual, case in baselines().items():
            _PARAMS[qual] = case.kwargs
    return _PARAMS


def BASELINE_QUALS() -> list[str]:
    return list(_param_table())


def baseline_value(qual: str, param: str):
    return _param_table()[qual][param]


if __name__ == "__main__":   # pragma: no cover
    print(len(discover()), file=sys.stderr)
