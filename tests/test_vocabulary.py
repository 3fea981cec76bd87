"""One vocabulary for the public API (docs/api/vocabulary.md, issue 44): every public signature is read and a
drift fails.

The signatures read: everything in ``seqtheory.__all__`` and every public name of every public module of
``theory`` and ``numerics`` (their ``__all__``; every public ``theory`` module has one), functions and classes
(a dataclass's fields are its constructor's parameters). The rules, each a test below:

* forbidden names: ``kmax``, ``tmax`` and their spellings (a function that returns every depth ``0..d``
  names ``d`` with its quantity's letter); ``weights`` only for the lag or mixture weights of a fit;
* the Gaussian field is ``field`` (a parameter defaulting to "complex" or "real" is named ``field``) with
  default "complex"; ``quantity`` defaults to "S"; ``method`` to "float"; ``dps`` to None; the Monte Carlo
  keywords ``seed`` to 0, ``progress`` and ``executor`` to None;
* one keyword, one default: a name's non-missing defaults agree across every signature, except the
  commented allow-list below (each entry a different meaning under the same name, or a sentinel);
* depth: ``k`` for Q-type functions (the energy of the single power ``W^k``), ``t`` for S-type functions (sums
  over depths ``0..t``) and for quantity-generic ones (those taking ``quantity=``).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re

import pytest

import numerics
import seqtheory
import theory

TORCH_NAMES = ("LSTM", "S4D", "TCN", "Transformer", "rnn_timescales", "as_rnn", "RNNTimescales")
TORCH_MODULES = (".gated", ".models", ".bench", "numerics._torch")      # need the models extra

FORBIDDEN = {"kmax", "tmax", "k_max", "t_max", "K_max", "T_max", "kmin", "tmin", "max_k"}
# ``weights`` means the weights of a fit (lag weights of the exponential-sum fits, mixture weights of a
# spectrum's time scales), never the Gaussian field (that is ``field``)
FIT_WEIGHTS = {"theory.prony.best_mterm_fit", "theory.prony.mterm_scan", "theory.prony.gauss_newton_condition",
               "theory.prony.ExpSumFit", "theory.tauberian.envelope_from_spectrum",
               "numerics.anticollapse.estimators.spectrum_envelope_fit"}
# the keywords of the vocabulary and their one default
VOCABULARY_DEFAULTS = {"field": "complex", "quantity": "S", "method": "float", "dps": None, "seed": 0,
                       "progress": None, "executor": None}
# a parameter defaulting to "complex"/"real" that is not the Gaussian field
NOT_THE_FIELD = {("theory.prony.best_mterm_fit", "poles"): "the pole class of the fit ('complex', 'real', 'pairs')",
                 ("theory.prony.mterm_scan", "poles"): "as best_mterm_fit"}

# The allow-list of "one keyword, one default": (keyword, function) -> why that default differs. Each is a
# sentinel or a different meaning that keeps the name of its own literature.
ALLOWED_DEFAULTS = {
    # ``init``: a weight law of the energies (None: the Gaussian field) vs the S4D layer's diagonal
    # initialisation scheme ("lin": S4D-Lin)
    ("init", "numerics.memory_functions.models.s4d.S4D"): "the S4D diagonal initialisation (torch)",
    # Levy-sampling primitives take the toolkit's seed or its documented alias ``rng=`` (a Generator): None
    # means "given as rng" (one of the two is required)
    ("seed", "numerics.anticollapse.levy_sampling.symmetric_stable"): "seed or rng",
    ("seed", "numerics.anticollapse.levy_sampling.cts_increments"): "seed or rng",
    ("seed", "numerics.anticollapse.levy_sampling.cts_increments_cp"): "seed or rng",
    # ``workers``: processes of a pool (make_executor, default 1) vs scipy.fft threads (None: scipy's own)
    ("workers", "numerics.experiments.executors.make_executor"): "worker processes of the pool",
    ("workers", "numerics.anticollapse.gated.sweep.run_gated_sweep"): "worker processes of the pool (torch)",
    # ``batch``: sequences at a time; the synthetic spectra's calibrated leak stream draws its noise 2 at a time
    # (its random numbers, hence the committed calibration, depend on it)
    ("batch", "numerics.anticollapse.synthetic_spectra.synthetic_leaks"): "the calibration's chunking",
    # ``inputs``: the experiment engine's protocol execute(configs, inputs) (earlier results a job reads) vs
    # the input law of make_dataset ("normal", "rademacher", "uniform")
    ("inputs", "numerics.anticollapse.gated.sweep.execute_train"): "the engine protocol's inputs (torch)",
    # ``skip``: the S4D layer's feed-through D (on by default, the standard S4D) vs an optional fitted skip term
    ("skip", "numerics.memory_functions.models.s4d.S4D"): "the S4D feed-through term (torch)",
    # ``window``: a quantile window of tau (tail_beta) vs a lag window (envelope_fit, None: the whole range)
    ("window", "numerics.anticollapse.estimators.envelope_fit"): "the lag window (None: every lag)",
    # ``weights`` of a fit: the lag-weight scheme "lag" (prony) vs explicit mixture weights (None: uniform)
    ("weights", "theory.tauberian.envelope_from_spectrum"): "mixture weights of the time scales (None: equal)",
    ("weights", "numerics.anticollapse.estimators.spectrum_envelope_fit"): "as envelope_from_spectrum",
    # ``skip``: the fitted skip coefficient of a result (0.0) vs the request to fit one (False)
    ("skip", "theory.prony.ExpSumFit"): "the fitted coefficient D of the skip term",
    # ``tol``: a required tolerance everywhere, but the scan's early stop is optional (None: scan to m_max)
    ("tol", "theory.prony.mterm_scan"): "None: no early stop",
}
# Q-type functions without Q in their name: the energy (or its polynomial) of the single power W^k
Q_TYPE = {"hultman_row", "trace_moment", "trace_moment_symbolic", "real_energies", "real_energies_any",
          "real_row", "log_energies", "mc_energies", "wick_polynomial", "count_pairings", "wick_polynomial_reference",
          "real_wick_polynomial", "real_wick_rows", "pfaffian_real_wick_polynomial", "pfaffian_values",
          "loop_equation_polynomial", "quaternion_moments", "ratio_along_ray", "coefficient_value", "real_counts",
          "real_work_items", "value_bound", "interpolate_row"}
S_WITHOUT_DEPTH = {"critical_S_curve"}          # a function of c = t / sqrt(n): no depth parameter


def _modules(torch: bool) -> list[str]:
    out = []
    for pkg in (theory, numerics):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            if not torch and any(t in info.name for t in TORCH_MODULES):
                continue
            out.append(info.name)
    return sorted(out)


def _signatures(torch: bool) -> dict[str, inspect.Signature]:
    """Qualified name -> signature of every public callable (``__all__``) of the public API."""
    out: dict[str, inspect.Signature] = {}
    seen: set[int] = set()

    def add(qual, obj):
        if id(obj) in seen or not callable(obj) or (inspect.isclass(obj) and issubclass(obj, BaseException)):
            return
        seen.add(id(obj))
        try:
            out[qual] = inspect.signature(obj)
        except (TypeError, ValueError):          # a builtin without a signature
            pass

    for modname in _modules(torch):
        mod = importlib.import_module(modname)
        for name in getattr(mod, "__all__", []):
            add(f"{modname}.{name}", getattr(mod, name))
    for name in seqtheory.__all__:
        if name == "__version__" or (name in TORCH_NAMES and not torch):
            continue
        obj = getattr(seqtheory, name)
        add(f"{getattr(obj, '__module__', 'seqtheory')}.{getattr(obj, '__qualname__', name)}", obj)
    return out


def _params(sig: inspect.Signature):
    return [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _short(qual: str) -> str:
    return qual.rsplit(".", 1)[1]


@pytest.fixture(scope="module")
def sigs():
    return _signatures(torch=False)


def test_every_public_theory_module_declares_its_public_names():
    missing = [m for m in _modules(torch=False) if m.startswith("theory.") and
               not hasattr(importlib.import_module(m), "__all__")]
    assert not missing, f"public theory modules without __all__ (their names would escape this test): {missing}"


def _check_forbidden(sigs):
    bad = []
    for qual, sig in sigs.items():
        names = {p.name for p in _params(sig)}
        bad += [f"{qual}({n})" for n in names & FORBIDDEN]
        if "weights" in names and qual not in FIT_WEIGHTS:
            bad.append(f"{qual}(weights): 'weights' is only a fit's weights; the Gaussian field is 'field'")
        for p in _params(sig):
            if p.default in ("complex", "real") and p.name != "field" and (qual, p.name) not in NOT_THE_FIELD:
                bad.append(f"{qual}({p.name}={p.default!r}): the Gaussian field is named 'field'")
    return bad


def test_no_forbidden_names(sigs):
    assert not _check_forbidden(sigs)


def _check_vocabulary_defaults(sigs):
    bad = []
    for qual, sig in sigs.items():
        for p in _params(sig):
            if p.name in VOCABULARY_DEFAULTS and p.default is not p.empty and (p.name, qual) not in ALLOWED_DEFAULTS:
                if p.default != VOCABULARY_DEFAULTS[p.name] or type(p.default) is not type(VOCABULARY_DEFAULTS[p.name]):
                    bad.append(f"{qual}({p.name}={p.default!r}): the vocabulary's default is "
                               f"{VOCABULARY_DEFAULTS[p.name]!r}")
    return bad


def test_the_vocabulary_keywords_have_their_defaults(sigs):
    assert not _check_vocabulary_defaults(sigs)


def _takes_params_object(sig) -> bool:
    """Functions of theory.levy taking a LevyParams positionally: their keyword None means "from params"."""
    return "params" in sig.parameters and sig.parameters["params"].kind is inspect.Parameter.POSITIONAL_ONLY


def _check_one_default(sigs):
    defaults: dict[str, dict[str, list[str]]] = {}
    for qual, sig in sigs.items():
        for p in _params(sig):
            if p.default is p.empty or (p.name, qual) in ALLOWED_DEFAULTS:
                continue
            if p.default is None and _takes_params_object(sig):
                continue                      # the sentinel "read it from params" (theory.levy)
            defaults.setdefault(p.name, {}).setdefault(repr(p.default), []).append(qual)
    return [f"{name}: {by}" for name, by in defaults.items() if len(by) > 1]


def test_one_keyword_one_default(sigs):
    drifts = _check_one_default(sigs)
    assert not drifts, "a keyword with several defaults:\n" + "\n".join(drifts)


def test_the_allow_list_is_not_stale(sigs):
    """Every allow-listed (keyword, function) exists with a default of its own."""
    for name, qual in ALLOWED_DEFAULTS:
        if "(torch)" in ALLOWED_DEFAULTS[(name, qual)] and qual not in sigs:
            continue                          # read by the torch test
        assert qual in sigs and sigs[qual].parameters[name].default is not inspect.Parameter.empty, (name, qual)


def _check_depth_names(sigs):
    bad = []
    for qual, sig in sigs.items():
        name, params = _short(qual), {p.name for p in _params(sig)}
        q_type = bool(re.search(r"(?:^|_)Q(?:_|$)|^QR$", name)) or name in Q_TYPE
        s_type = bool(re.search(r"(?:^|_)S(?:_|$)|^SR$", name))
        if q_type and ("k" not in params or "t" in params):
            bad.append(f"{qual}{sig}: a Q-type function names its depth k")
        if s_type and name not in S_WITHOUT_DEPTH and ("t" not in params or "k" in params):
            bad.append(f"{qual}{sig}: an S-type function names its depth t")
        if "quantity" in params and "k" in params:
            bad.append(f"{qual}{sig}: a quantity-generic function names its depth t")
    return bad


def test_depth_is_k_for_Q_and_t_for_S(sigs):
    bad = _check_depth_names(sigs)
    assert not bad, "\n".join(bad)


def test_the_rules_catch_a_drift():
    """Each rule fails on a planted drift (the rules are not vacuous)."""
    def sig(f):
        return {f"theory.fake.{f.__name__}": inspect.signature(f)}

    def estimate_Q(n, kmax, samples): ...                               # noqa: N802
    def sigma_for_horizon(n, t, tol, *, weights="complex", quantity="Q"): ...
    def Q_all(n, t): ...                                                # noqa: N802
    def gain(n, k, *, quantity="S"): ...
    assert _check_forbidden(sig(estimate_Q)) and _check_forbidden(sig(sigma_for_horizon))
    assert _check_vocabulary_defaults(sig(sigma_for_horizon))
    assert _check_depth_names(sig(Q_all)) and _check_depth_names(sig(gain))

    def a(x, *, level=0.9): ...
    def b(x, *, level=0.01): ...
    both = {"theory.fake.a": inspect.signature(a), "theory.fake.b": inspect.signature(b)}
    assert _check_one_default(both)


@pytest.mark.torch
def test_the_torch_names_follow_the_vocabulary():
    """The same rules over the PyTorch parts (the models extra) together with the rest."""
    full = _signatures(torch=True)
    assert not _check_forbidden(full)
    assert not _check_vocabulary_defaults(full)
    assert not _check_one_default(full), _check_one_default(full)
    assert not _check_depth_names(full)


def test_dataclass_fields_are_read_too(sigs):
    """A result's fields are its constructor's parameters: HorizonScale.field (not weights) is seen."""
    hs = sigs["theory.horizon.HorizonScale"]
    assert "field" in hs.parameters and "weights" not in hs.parameters
    assert dataclasses.is_dataclass(seqtheory.HorizonScale)
