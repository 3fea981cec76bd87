"""Tests of the argument checkers in theory._args and of the array / seed conventions built on them."""

from __future__ import annotations

import doctest
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import theory._args as args
from theory._args import (MAX_DPS, MAX_LENGTH, as_bool, as_choice, as_dps, as_int, as_int_array, as_length,
                          as_probability, as_real, as_seed, as_seed_sequence)


def test_doctests():
    assert doctest.testmod(args, raise_on_error=False).failed == 0


@pytest.mark.parametrize("bad,exc", [(True, TypeError), (np.bool_(False), TypeError), (1.0, TypeError),
                                     ("3", TypeError), (None, TypeError), (-1, ValueError), (1 + 0j, TypeError)])
def test_as_int_rejects(bad, exc):
    with pytest.raises(exc, match="width"):
        as_int("width", bad)


def test_as_int_accepts_numpy_and_keeps_value():
    assert as_int("n", np.uint64(30)) == 30 and type(as_int("n", np.uint64(30))) is int
    assert as_int("n", np.int8(-3), minimum=None) == -3


def test_dps_bounds():
    assert as_dps(args.DEFAULT_DPS) == 30 and as_dps(np.uint64(30)) == 30
    for bad, exc in ((MAX_DPS + 1, ValueError), (4, ValueError), (True, TypeError), (float("inf"), TypeError),
                     (30.0, TypeError)):
        with pytest.raises(exc, match="dps"):
            as_dps(bad)


def test_length_bound():
    assert as_length("T", MAX_LENGTH) == MAX_LENGTH
    with pytest.raises(ValueError, match="T must be an integer <= "):
        as_length("T", MAX_LENGTH + 1)


def test_probability_and_real():
    assert as_probability("p", 0) == 0.0 and as_probability("p", np.float32(0.5)) == 0.5
    for bad, exc in ((1.5, ValueError), (-0.1, ValueError), (float("nan"), ValueError), ("0.5", TypeError),
                     (True, TypeError)):
        with pytest.raises(exc, match="p"):
            as_probability("p", bad)
    with pytest.raises(ValueError, match="p must be > 0"):
        as_probability("p", 0.0, open_min=True)
    with pytest.raises(ValueError, match="x must be finite"):
        as_real("x", float("-inf"))


def test_bool_and_choice():
    assert as_bool("flag", np.bool_(True)) is True
    for bad in (0, 1, "yes", None, 0.0):
        with pytest.raises(TypeError, match="flag"):
            as_bool("flag", bad)
    with pytest.raises(ValueError, match="kind must be one of"):
        as_choice("kind", "bogus", ("a", "b"))
    with pytest.raises(TypeError, match="kind"):
        as_choice("kind", 1, ("a", "b"))


def test_seed_conventions():
    a = as_seed(7).standard_normal(3)
    assert np.array_equal(a, np.random.default_rng(7).standard_normal(3))
    assert np.array_equal(a, as_seed(np.random.SeedSequence(7)).standard_normal(3))
    g = np.random.default_rng(1)
    assert as_seed(g) is g                                        # used as is: its state advances
    assert as_seed_sequence(5).entropy == 5
    ss = np.random.SeedSequence(9)
    assert as_seed_sequence(ss) is ss
    g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
    assert as_seed_sequence(g1).entropy == as_seed_sequence(g2).entropy      # drawn from the generator
    for bad, exc in ((True, TypeError), (-1, ValueError), (1.0, TypeError), ("1", TypeError), (None, TypeError)):
        with pytest.raises(exc, match="seed"):
            as_seed(bad)
        with pytest.raises(exc, match="seed"):
            as_seed_sequence(bad)


def test_int_array():
    out = as_int_array("n", [[1, 2], [3, 4]])
    assert out.dtype == np.int64 and out.shape == (2, 2)
    assert as_int_array("n", np.uint8(5)).ndim == 0
    for bad, exc in (([1.0], TypeError), (True, TypeError), ("1", TypeError), ([1, -1], ValueError),
                     ([2**64], ValueError), (10**30, ValueError)):
        with pytest.raises(exc, match="n"):
            as_int_array("n", bad, minimum=0)


# --- the conventions built on the helpers -----------------------------------------------------------
def test_float_paths_broadcast_like_numpy():
    from theory.regimes import Q_critical_form, breakdown_depth, regime
    from theory.signal_energy import Q, S, log_Q, log_S

    n = np.array([[16], [64], [256]])
    k = np.array([0, 4, 9])
    for fn in (Q, S, log_Q, log_S, Q_critical_form):
        out = fn(n, k)
        assert out.shape == (3, 3) and out.dtype == np.float64
        # same bits, except Q and S, whose array paths are vectorised (theory.signal_energy._vector): same accuracy
        tol = 1e-14 if fn in (Q, S) else 0.0
        assert all(abs(out[i, j] - fn(int(n[i, 0]), int(k[j]))) <= tol * out[i, j] for i in range(3) for j in range(3))
        assert isinstance(fn(16, 4), float) and isinstance(fn(np.int64(16), 4), float)
        assert fn(np.array(16), 4) == fn(16, 4)                          # 0-d in: a scalar out
    assert regime(n.ravel(), 8).tolist() == [regime(int(v), 8) for v in n.ravel()]
    assert breakdown_depth([100, 400], 0.1).tolist() == [breakdown_depth(100, 0.1), breakdown_depth(400, 0.1)]
    with pytest.raises(TypeError, match="n"):
        Q(np.array([16.0, 64.0]), 4)
    with pytest.raises(ValueError, match="k"):
        Q(np.array([16, 64]), np.array([1, -1]))


def test_one_seed_argument():
    from numerics.signal_propagation.ginibre import estimate_Q, sample_ginibre
    from numerics.anticollapse.levy_sampling import symmetric_stable

    assert np.array_equal(symmetric_stable(1.5, 4, seed=3), symmetric_stable(1.5, 4, rng=np.random.default_rng(3)))
    assert np.array_equal(sample_ginibre(3, 2, seed=4), sample_ginibre(3, 2, seed=np.random.SeedSequence(4)))
    a = estimate_Q(3, 2, 64, seed=np.random.default_rng(5))
    b = estimate_Q(3, 2, 64, seed=np.random.default_rng(5))
    assert np.array_equal(a.mean, b.mean)
    with pytest.raises(TypeError, match="seed"):
        estimate_Q(3, 2, 64, seed=1.5)
    with pytest.raises(TypeError, match="seed or its alias rng"):
        symmetric_stable(1.5, 4, seed=1, rng=np.random.default_rng(1))


def test_estimator_is_not_called_method():
    from numerics.signal_propagation.ginibre import estimate_Q

    assert estimate_Q(3, 2, 64, estimator="probe").method == "probe"
    with pytest.raises(TypeError):
        estimate_Q(3, 2, 64, method="probe")


def test_numba_boundscheck_switch():
    """SEQTHEORY_NUMBA_BOUNDSCHECK=1 (tests/conftest.py): an out-of-bounds index in a numba kernel raises
    IndexError instead of reading past the array (or segfaulting the test process)."""
    import os
    import subprocess
    import sys

    probe = ("import conftest, numba, numpy as np\n"
             "f = numba.njit(lambda a, i: a[i])\n"
             "try:\n    f(np.zeros(3), 10**6)\nexcept IndexError:\n    print('IndexError')\n")
    env = dict(os.environ, SEQTHEORY_NUMBA_BOUNDSCHECK="1")
    out = subprocess.run([sys.executable, "-c", probe], cwd=os.path.dirname(__file__), env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "IndexError", out.stderr[-2000:]


def _issue14_cases():
    """Reproducers of past defects (hangs, silently accepted values, unnamed parameters): (call, parameter named)."""
    from numerics.signal_propagation.ginibre import block_rng, estimate_Q, sample_ginibre
    from numerics.anticollapse.levy_sampling import cts_increments
    from numerics.anticollapse.sde import SDEConfig, drift, simulate
    from numerics.memory_functions.targets import make_dataset
    from numerics.signal_propagation.wick import polynomial_string
    from theory.complexity import poly_tail_energy
    from theory.levy import characteristic_root, jump_symbol
    from theory.memory import airy_phase_rate, exp_area, memory_function, poly_area
    from theory.prony import best_mterm_fit, vandermonde_condition
    from theory.regimes import Q_critical_form, breakdown_depth
    from theory.signal_energy import Q, Q_symbolic, S_series, hultman_row

    rho = 0.8 ** np.arange(1, 17)
    lv = dict(eta_J=0.05, alpha=1.5)
    return [
        (lambda: exp_area(2.0, 64, method="mp", dps=True), "dps"),
        (lambda: exp_area(2.0, 64, method="mp", dps=float("inf")), "dps"),
        (lambda: poly_tail_energy(1.5, 64, 3, method="mp", dps=True), "dps"),
        (lambda: Q_symbolic(3, n=0), "n"),
        (lambda: Q_symbolic(3, n=float("nan")), "n"),
        (lambda: Q_symbolic(3, n=1 + 2j), "n"),
        (lambda: Q(8, 3, method="mp", dps=10**30), "dps"),
        (lambda: characteristic_root(eta_G=0.1, kappa=1, eta_J=1e300, alpha=1.5, lam=2), "eta_J"),
        (lambda: jump_symbol(1.5, eta_J=0.05, alpha=1.5, lam=1e300), "lam"),
        (lambda: drift(0, [0.0]), "cfg"),
        (lambda: simulate(SDEConfig(), 64, burn_in=10**30), "burn_in"),
        (lambda: best_mterm_fit(rho, 2, max_nfev=10**30), "max_nfev"),
        (lambda: vandermonde_condition(np.array([1e300, 0.5]), 32), "poles"),
        (lambda: hultman_row(10**30), "k"),
        (lambda: S_series(10**6), "t"),
        (lambda: cts_increments(0.02, 10, lam=2.0, seed=1, **{**lv, "eta_J": 1e30}), "eta_J"),
        (lambda: Q(8, 10**30, method="exact"), "k"),
        (lambda: breakdown_depth(10**30, 1e-3), "n"),
        (lambda: estimate_Q(4, 3, 10**30), "samples"),
        (lambda: sample_ginibre(4, 3, normalised="bogus"), "normalised"),
        (lambda: make_dataset(rho, 4, nonlinear=float("nan")), "nonlinear"),
        (lambda: block_rng(True, True), "seed"),
        (lambda: drift(SDEConfig(), float("nan")), "zeta"),
        (lambda: airy_phase_rate(None), "x"),
        (lambda: memory_function("exp", 0.5, 10**30), "T"),
        (lambda: Q_critical_form(1024, 32, corrected=np.ones((2, 2))), "corrected"),
        (lambda: block_rng(-1, 1), "seed"),
        (lambda: polynomial_string(0), "coeffs"),
        (lambda: poly_area(-1.3e10, 64), "p"),
    ], (poly_area, jump_symbol)


def test_issue14_reproducers_are_clean_errors():
    cases, (poly_area, jump_symbol) = _issue14_cases()
    for call, name in cases:
        with pytest.raises((TypeError, ValueError), match=name):
            call()
    # silently wrong before: np.uint64 dps gave another value; numpy ints in the mp path were a TypeError
    assert poly_area(1.5, 64, method="mp", dps=np.uint64(30)) == poly_area(1.5, 64, method="mp", dps=30)
    kw = dict(eta_J=0.05, alpha=1.5, lam=2.0)
    assert jump_symbol(1.5, method="mp", C=np.int64(1), **kw) == jump_symbol(1.5, method="mp", C=1, **kw)


def test_as_same_shape():
    x, y = args.as_same_shape(("x", "y"), [[1, 2]], np.zeros((1, 2), np.float32), ndim=2, shape="(n, T)")
    assert x.dtype == y.dtype == np.float64 and x.shape == y.shape == (1, 2)
    with pytest.raises(ValueError, match=r"x and y must be arrays of the same shape \(n, T\); got \(2,\) and \(2,\)"):
        args.as_same_shape(("x", "y"), [1, 2], [3, 4], ndim=2, shape="(n, T)")
    with pytest.raises(ValueError, match=r"got \(1, 2\) and \(2, 1\)"):
        args.as_same_shape(("x", "y"), np.zeros((1, 2)), np.zeros((2, 1)), ndim=2, shape="(n, T)")


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def test_as_real_array_may_keep_nonfinite():
    from theory._args import as_real_array

    got = as_real_array("x", [1.0, np.nan, np.inf], finite=False)
    assert np.isnan(got[1]) and got[2] == np.inf
    with pytest.raises(ValueError, match="x must be finite"):
        as_real_array("x", [1.0, np.nan])
    with pytest.raises(TypeError, match="x"):
        as_real_array("x", "1.0", finite=False)


# --- issue 33: complex, subnormal, exact reals, seeds -------------------------------------------------------
@pytest.mark.parametrize("value", [np.array([1 + 2j]), [1.0, 2j], 1j, np.complex64(1), np.array([1.0], dtype=complex)])
def test_complex_is_refused_naming_the_parameter(value):
    """numpy dropped the imaginary part with only a ComplexWarning (issue 33)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="rho must be real, got complex"):
            args.as_real_array("rho", value)
        with pytest.raises(TypeError, match="x must be real"):
            args.as_same_shape(("x", "y"), value, value, ndim=1, shape="(T,)")


@pytest.mark.parametrize("value", [5e-324, -1e-310, np.float64(2e-308)])
def test_subnormal_parameters_are_refused(value):
    with pytest.raises(ValueError, match="dt must not be subnormal"):
        args.as_real("dt", value)
    assert args.as_real("dt", 0.0) == 0.0 and args.as_real("dt", 2.2250738585072014e-308) > 0


def test_as_mp_real_takes_exact_values_exactly():
    import decimal
    from fractions import Fraction

    import mpmath
    with mpmath.workdps(50):
        assert args.as_mp_real("tau", Fraction(1, 3)) == mpmath.mpf(1) / 3
        assert args.as_mp_real("tau", decimal.Decimal("0.1")) == mpmath.mpf("0.1")
        assert args.as_mp_real("tau", np.int8(3)) == 3
        assert args.as_mp_real("tau", float("inf"), allow_inf=True) == mpmath.inf
    for bad, exc in [("1", TypeError), (True, TypeError), (1j, TypeError), (float("nan"), ValueError),
                     (float("inf"), ValueError)]:
        with pytest.raises(exc, match="tau"):
            args.as_mp_real("tau", bad)


def test_seed_bound_is_what_torch_accepts():
    assert args.as_seed_int(args.SEED_MAX) == 2**63 - 1
    with pytest.raises(ValueError, match="seed must be an integer <="):
        args.as_seed_int(10**30)


def test_measurement_allows_nan_names_non_numbers():
    assert math.isnan(args.as_measurement("r2", float("nan")))
    with pytest.raises(TypeError, match="r2 must be a real number"):
        args.as_measurement("r2", "bogus")


def test_boolean_arrays_are_not_real_numbers():
    """A bool .npy (or array) was read as 1.0 / 0.0 (issue 33)."""
    with pytest.raises(TypeError, match="c must be real numbers, not booleans"):
        args.as_real_array("c", np.array([True, False]))


# --- issue 43: one checker per kind of argument (each reproducer failed on the code before the fix) -------------
HUGE = np.broadcast_to(1.0, (10**6, 10**6))          # 8 bytes; 7 TiB once copied or tested element by element
HUGE_1D = np.broadcast_to(1.0, (10**12,))


class IndexOnly:
    """An integer known only through ``__index__`` (no arithmetic)."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def test_sizes_are_checked_before_content():
    """Kind 1: an array's size (from its shape) before any finiteness test or copy (a MemoryError of 931 GiB)."""
    flat = np.broadcast_to(np.int64(1), (10**12,))
    for check, value in ((args.as_real_array, HUGE), (args.as_float64, flat), (args.as_int_array, flat),
                         (args.as_real_vector, flat)):
        with pytest.raises(ValueError, match=r"^x is too large: 1000000000000 elements .* the limit is 134217728"):
            check("x", value)
    args.check_size("x", np.broadcast_to(1.0, (args.MAX_ELEMENTS,)))                 # at the limit: accepted
    with pytest.raises(ValueError, match="x is too large"):
        args.check_size("x", np.broadcast_to(1.0, (args.MAX_ELEMENTS + 1,)))


@pytest.mark.parametrize("call,name", [
    (lambda: __import__("theory.prony", fromlist=["prony"]).prony(HUGE, 2), "h"),
    (lambda: __import__("theory.complexity", fromlist=["x"]).tail_energy(HUGE, 3), "rho"),
    (lambda: __import__("numerics.stats", fromlist=["x"]).paired(HUGE_1D), "d"),
    (lambda: __import__("numerics.memory_functions.memory_report", fromlist=["x"]).mismatch(HUGE[0], HUGE_1D),
     "phi"),
])
def test_huge_views_are_refused_by_name_in_the_library(call, name):
    with pytest.raises(ValueError, match=rf"^{name} is too large"):
        call()


def test_numpy_and_index_only_integers_are_converted_once():
    """Kind 2: a numpy integer overflows silently in powers (np.int8(4) ** 3 wraps), an __index__-only object has
    no arithmetic: as_int returns a Python int, and the library uses that value."""
    from numerics.signal_propagation.real_wick import row_identities
    from theory.real_rows import real_row
    from theory.signal_energy import Q_series, Q_symbolic

    assert type(as_int("k", np.int8(4))) is int and type(as_int("k", IndexOnly(4))) is int
    assert row_identities(np.int8(4), real_row(4)) == row_identities(4, real_row(4))
    assert Q_series(IndexOnly(5)) == Q_series(5) == Q_series(np.int8(5))
    assert Q_symbolic(IndexOnly(5)) == Q_symbolic(5)


@pytest.mark.parametrize("value", [10**400, -10**400, Fraction(10**400, 3)])
def test_overflow_is_reported_by_name(value):
    """Kind 3: an exact number past float64 where a float is wanted: "int too large to convert to float" named
    nothing; now a ValueError naming the argument and float64's range."""
    from theory.levy import jump_symbol

    for check in (lambda v: args.as_real("tau", v), lambda v: args.as_measurement("tau", v),
                  lambda v: args.as_real_array("tau", [1.0, v])):
        with pytest.raises(ValueError, match=r"^tau must be (a real number|real numbers) within float64's range"):
            check(value)
    with pytest.raises(ValueError, match=r"^beta must be real numbers within float64's range"):
        jump_symbol(value, eta_J=0.05, alpha=1.5, lam=2.0)


def test_longdouble_is_taken_exactly():
    from theory.memory import exp_area

    import mpmath

    x = np.longdouble(1) / 3
    num, den = x.as_integer_ratio()
    with mpmath.workdps(40):
        assert args.as_mp_real("tau", x) == mpmath.mpf(num) / den          # every bit, not float(x)
    assert exp_area(np.longdouble(2.0), 64) == exp_area(2.0, 64)
    assert exp_area(np.longdouble(2.0), 64, method="mp", dps=30) == exp_area(2.0, 64, method="mp", dps=30)


@pytest.mark.parametrize("bad", [None, [1.0, None], "1.0", [1.0, "2"], [True, 2.0]])
def test_what_numpy_would_read_as_a_number_is_refused(bad):
    """None -> NaN, "1.0" -> 1.0, True -> 1.0 in numpy: refused by name (mwu(None, y) was nan)."""
    with pytest.raises(TypeError, match="^x must be"):
        args.as_float64("x", bad)


def test_sequences_refuse_scalars_and_short_input():
    assert args.as_real_vector("lags", np.array([1.0, 2.0])).shape == (2,)
    with pytest.raises(TypeError, match=r"^lags must be a sequence \(1-d array\)"):
        args.as_real_vector("lags", np.array(2.0))
    with pytest.raises(ValueError, match="^lags must be a 1-d sequence"):
        args.as_real_vector("lags", np.ones((2, 2)))
    with pytest.raises(ValueError, match="^lags must hold at least 3 values, got 2"):
        args.as_real_vector("lags", [1.0, 2.0], min_size=3)
    with pytest.raises(ValueError, match="^lags must be > 0.0"):
        args.as_real_vector("lags", [1.0, 0.0], minimum=0.0, open_min=True)
    assert args.as_real_vector("lags", [1.0, 0.0], minimum=0.0).tolist() == [1.0, 0.0]      # >= 0: just inside


def test_short_int_keeps_messages_one_line():
    assert args.short_int(10**29) == str(10**29) and args.short_int(10**400) == "1.000e+400"
    assert args.short_int(-3 * 10**40) == "-3.000e+40"
