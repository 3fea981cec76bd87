"""Tests of theory.nonlinear (the mean field of nonlinear recurrences, its first correction) and of
numerics.signal_propagation.nonlinear_mc / nonlinear_breakdown (the finite-width Monte Carlo and its analysis).

References independent of the code under test: exact rational arithmetic (the relu and identity closed forms),
mpmath's tanh-sinh quadrature written here at two precisions, scipy's adaptive quadrature, a Monte Carlo of
the one-dimensional integral, finite differences, the exact real-weight rows (the identity recurrence), the
exact depth-1 energy of the free recurrence (a chi-square mixture), and subprocesses with different BLAS
thread counts.
"""

from __future__ import annotations

import hashlib
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from numerics.signal_propagation.nonlinear_breakdown import (breakdown_with_interval, crossing_depth,
                                                             exponent_with_interval, fit_exponent,
                                                             fit_offset_exponent)
from numerics.signal_propagation.nonlinear_mc import nonlinear_energies_mc, nonlinear_energy_mc
from numerics.stats import z_for_false_alarm
from theory import nonlinear as nl
from theory.real_rows import real_Q

ROOT = Path(__file__).resolve().parents[1]
SQ2 = math.sqrt(2.0)


# --------------------------------------------------------------------------------------------------
# independent references
# --------------------------------------------------------------------------------------------------
def tanh_energy_reference(v, dps: int):
    """E tanh(sqrt(v) xi)^2 by mpmath.quad over the whole line with the normal density (tanh-sinh)."""
    with mpmath.workdps(dps + 10):
        v = mpmath.mpf(v)
        s = mpmath.sqrt(v)
        out = mpmath.quad(lambda x: mpmath.tanh(s * x) ** 2 * mpmath.npdf(x), [-mpmath.inf, -1, 0, 1, mpmath.inf])
    with mpmath.workdps(dps):
        return +out


def tanh_energy_scipy(v: float) -> float:
    return 2.0 * integrate.quad(lambda x: math.tanh(math.sqrt(v) * x) ** 2 * math.exp(-x * x / 2) / math.sqrt(2 * math.pi),
                                0.0, math.inf, epsabs=0, epsrel=1e-13, limit=200)[0]


def closed_form(t: int, phi: str, sigma: Fraction, driven: bool) -> Fraction:
    """relu / identity mean field by the recursion in exact rationals."""
    half = Fraction(1, 2) if phi == "relu" else Fraction(1)
    q = Fraction(0) if driven else Fraction(1)
    for k in range(t + 1):
        if k > 0 or driven:
            q = half * (sigma * sigma * q + (1 if driven else 0))
    return q


# --------------------------------------------------------------------------------------------------
# the mean field: closed forms
# --------------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(t=st.integers(0, 300), num=st.integers(32, 120), phi=st.sampled_from(["relu", "identity"]),
       driven=st.booleans())
def test_closed_forms_equal_exact_rationals(t, num, phi, driven):
    sigma = Fraction(num, 64)                         # a dyadic rational: the float sigma is exact
    exact = closed_form(t, phi, sigma, driven)
    f = nl.mean_field_energy(t, phi, float(sigma), driven=driven)
    assert abs(Fraction(f) - exact) <= exact * Fraction(1, 2**52)                  # one rounding
    prof = nl.mean_field_profile(t, phi, float(sigma), driven=driven)
    L = abs(math.log(float(sigma) ** 2 * (0.5 if phi == "relu" else 1.0)))
    assert abs(Fraction(float(prof[-1])) - exact) <= exact * Fraction(2.3e-16 * (2 + (t + 1) * L))
    m = nl.mean_field_energy(t, phi, float(sigma), driven=driven, method="mp", dps=40)
    with mpmath.workdps(60):
        assert abs(m - mpmath.mpf(exact.numerator) / exact.denominator) <= abs(m) * mpmath.mpf(10) ** -39


def test_criticality_values():
    assert nl.mean_field_profile(5, "identity", 1.0).tolist() == [1.0] * 6
    assert nl.mean_field_profile(4, "identity", 1.0, driven=True).tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert nl.mean_field_profile(0, "relu", SQ2, driven=True).tolist() == [0.5]
    with mpmath.workdps(50):
        s = mpmath.sqrt(2)                             # an mpf sigma keeps its digits on the mp path
        q = nl.mean_field_energy(100, "relu", s, method="mp", dps=40)
        assert abs(q - 1) < mpmath.mpf(10) ** -38


# --------------------------------------------------------------------------------------------------
# the mean field: tanh
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("v", [1e-200, 1e-30, 1e-12])
def test_tanh_energy_at_tiny_variance_against_its_series(v):
    # tanh(y)^2 = y^2 - 2y^4/3 + 17y^6/45 - 62y^8/315 + ...: V(v) = v - 2v^2 + 17v^3/3 - O(21 v^4)
    with mpmath.workdps(60):
        series = mpmath.mpf(v) * (1 - 2 * mpmath.mpf(v) + mpmath.mpf(17) / 3 * mpmath.mpf(v) ** 2)
        assert abs(nl.gaussian_energy(v, "tanh", method="mp", dps=40) - series) <= 21 * mpmath.mpf(v) ** 4 + \
            series * mpmath.mpf(10) ** -39
    assert abs(nl.gaussian_energy(v, "tanh") - v) <= 1e-15 * v + 2 * v * v
    assert nl.gaussian_energy(0.0, "tanh") == 0.0 and nl.gaussian_energy(0.0, "tanh", method="mp", dps=20) == 0


@pytest.mark.parametrize("v", [1e-9, 0.01, 0.37, 1.0, 1.44, 2.0, 5.5, 30.0, 1e3, 1e6])
def test_tanh_energy_against_quadrature_at_two_precisions(v):
    ref30, ref50 = tanh_energy_reference(v, 30), tanh_energy_reference(v, 50)
    with mpmath.workdps(60):
        assert abs(ref30 - ref50) <= abs(ref50) * mpmath.mpf(10) ** -29          # the reference itself
        got = nl.gaussian_energy(v, "tanh", method="mp", dps=30)
        assert abs(got - ref50) <= abs(ref50) * mpmath.mpf(10) ** -29
        got50 = nl.gaussian_energy(v, "tanh", method="mp", dps=50)
        assert abs(got50 - ref50) <= abs(ref50) * mpmath.mpf(10) ** -48
    f = nl.gaussian_energy(v, "tanh")
    assert abs(f - float(ref50)) <= 1e-15 * float(ref50)
    if 1e-3 <= v <= 1e4:
        assert abs(f - tanh_energy_scipy(v)) <= 1e-12 * f                          # a third route


@pytest.mark.parametrize("v", [0.25, 1.0, 4.0])
def test_tanh_energy_against_monte_carlo_of_the_integral(v):
    xi = np.random.default_rng(11).standard_normal(2_000_000)
    x = np.tanh(math.sqrt(v) * xi) ** 2
    se = x.std(ddof=1) / math.sqrt(x.size)
    assert abs(x.mean() - nl.gaussian_energy(v, "tanh")) <= z_for_false_alarm(m=3) * se


@pytest.mark.parametrize("sigma,driven", [(1.0, False), (0.9, False), (1.2, False), (1.0, True), (1.2, True)])
def test_tanh_recursion_against_independent_recursion(sigma, driven):
    T = 12
    ref, q = [], mpmath.mpf(0 if driven else 1)
    for k in range(T + 1):
        if k > 0 or driven:
            with mpmath.workdps(40):
                v = mpmath.mpf(sigma) ** 2 * q + (1 if driven else 0)
            q = tanh_energy_reference(v, 30)
        ref.append(q)
    f = nl.mean_field_profile(T, "tanh", sigma, driven=driven)
    m = nl.mean_field_profile(T, "tanh", sigma, driven=driven, method="mp", dps=25)
    for k in range(T + 1):
        assert abs(f[k] - float(ref[k])) <= (k + 1) * 1e-15 * float(ref[k])
        with mpmath.workdps(40):
            assert abs(m[k] - ref[k]) <= abs(ref[k]) * mpmath.mpf(10) ** -24
    assert nl.mean_field_energy(T, "tanh", sigma, driven=driven) == f[-1]


def test_tanh_critical_decay_and_fixed_points():
    q = nl.mean_field_profile(20000, "tanh", 1.0)
    assert np.all(np.diff(q) < 0) and abs(q[-1] * 2 * 20000 - 1) < 0.01             # q_t ~ 1/(2t)
    qd = nl.mean_field_profile(200, "tanh", 1.2, driven=True)
    assert abs(qd[-1] - tanh_energy_scipy(1.44 * qd[-1] + 1)) < 1e-14             # a fixed point
    qc = nl.mean_field_profile(3000, "tanh", 1.2)[-1]                               # chaotic: q* > 0
    assert qc > 0.1 and abs(qc - tanh_energy_scipy(1.44 * qc)) < 1e-14


# --------------------------------------------------------------------------------------------------
# the first correction
# --------------------------------------------------------------------------------------------------
def _v_derivatives(v: float) -> tuple[float, float]:
    """V'(v), V''(v) of tanh by central differences of the 50-digit reference."""
    with mpmath.workdps(60):
        h = mpmath.mpf("1e-12")
        a, b, c = (tanh_energy_reference(mpmath.mpf(v) + d, 50) for d in (-h, 0, h))
        return float((c - a) / (2 * h)), float((c - 2 * b + a) / h**2)


def test_first_correction_depth_one_and_two_by_hand():
    sigma = 1.1
    s2 = sigma**2
    q = [1.0, tanh_energy_scipy(s2)]
    q.append(tanh_energy_scipy(s2 * q[1]))
    d1a, d2a = _v_derivatives(s2)
    c = nl.first_correction_profile(2, "tanh", sigma)
    assert abs(c[1] - s2 * s2 * d2a / q[1]) < 1e-9                                 # e_1 = sigma^4 V'' s_0 / 2, s_0 = 2
    U = 2.0 * integrate.quad(lambda x: math.tanh(sigma * x) ** 4 * stats.norm.pdf(x), 0, math.inf, epsrel=1e-13)[0]
    s1 = s2 * s2 * d1a**2 * 2 + U - q[1] ** 2
    d1b, d2b = _v_derivatives(s2 * q[1])
    e2 = s2 * d1b * (s2 * s2 * d2a) + 0.5 * s2 * s2 * d2b * s1
    assert abs(c[2] - e2 / q[2]) < 1e-8


def _depth_one_exact(n: int, sigma: float) -> float:
    """E ||h_1||^2 / n = E V(sigma^2 K_0), K_0 ~ chi^2_n / n (free recurrence; exact at every n)."""
    return integrate.quad(lambda x: tanh_energy_scipy(sigma**2 * x) * stats.gamma.pdf(x, n / 2, scale=2 / n),
                          0, 10, epsabs=0, epsrel=1e-12, limit=200, points=[1.0])[0]


def test_first_correction_is_the_limit_of_the_exact_depth_one_energy():
    q1 = nl.mean_field_energy(1, "tanh", 1.0)
    c1 = nl.first_correction_profile(1, "tanh", 1.0)[1]
    f = {n: n * (_depth_one_exact(n, 1.0) / q1 - 1) for n in (2000, 4000)}
    richardson = 2 * f[4000] - f[2000]               # removes the O(1/n) term of n (E/q - 1)
    assert abs(richardson - c1) < 1e-4


def test_depth_one_monte_carlo_equals_the_exact_mixture():
    n = 48
    r = nonlinear_energy_mc(n, 1, 3000, phi="tanh", sigma=1.0, probes=16, seed=4)
    assert abs(r.mean[1] - _depth_one_exact(n, 1.0)) <= z_for_false_alarm() * r.se[1]
    d = nonlinear_energy_mc(n, 0, 2000, phi="tanh", driven=True, probes=8, seed=5)     # h_0 = tanh(x_0)
    assert abs(d.mean[0] - nl.gaussian_energy(1.0, "tanh")) <= z_for_false_alarm() * d.se[0]


def test_first_correction_identity_zero_and_relu_refused():
    assert nl.first_correction_profile(5, "identity", 0.7, driven=True).tolist() == [0.0] * 6
    with pytest.raises(ValueError, match="phi"):
        nl.first_correction_profile(5, "relu", SQ2)


# --------------------------------------------------------------------------------------------------
# the identity recurrence: Monte Carlo against the exact real-weight energies
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,sigma,driven", [(12, 1.0, False), (12, 1.0, True), (20, 0.9, False), (20, 1.1, True)])
def test_identity_monte_carlo_against_exact_real_energies(n, sigma, driven):
    T = 8
    r = nonlinear_energy_mc(n, T, 3000, phi="identity", sigma=sigma, driven=driven, probes=8, seed=n)
    exact = [sum(Fraction(sigma) ** (2 * k) * real_Q(n, k) for k in range(t + 1)) if driven
             else Fraction(sigma) ** (2 * t) * real_Q(n, t) for t in range(T + 1)]
    z = z_for_false_alarm(m=T + 1)
    for t in range(T + 1):
        assert abs(r.mean[t] - float(exact[t])) <= z * r.se[t], t
        assert abs(nl.identity_energy(n, t, sigma, driven=driven).value - float(exact[t])) <= 1e-13 * float(exact[t])


# --------------------------------------------------------------------------------------------------
# Monte Carlo: reproducibility, thread counts, batching
# --------------------------------------------------------------------------------------------------
def _cases():
    return [nl.Recurrence("tanh", 1.0), nl.Recurrence("relu", SQ2, True), nl.Recurrence("identity", 0.9)]


def test_seeds_reproducible_and_distinct():
    a = nonlinear_energies_mc(24, 5, 20, _cases(), seed=9)
    b = nonlinear_energies_mc(24, 5, 20, _cases(), seed=9)
    c = nonlinear_energies_mc(24, 5, 20, _cases(), seed=10)
    for x, y, w in zip(a, b, c):
        assert np.array_equal(x.mean, y.mean) and np.array_equal(x.se, y.se)
        assert not np.array_equal(x.mean, w.mean)
    ss = np.random.SeedSequence(3)
    first = nonlinear_energy_mc(16, 3, 8, seed=ss).mean
    assert np.array_equal(first, nonlinear_energy_mc(16, 3, 8, seed=ss).mean)      # a SeedSequence is not advanced
    prefix = nonlinear_energy_mc(16, 3, 5, seed=2, keep_draws=True).draws            # draw i has its own streams
    assert np.array_equal(prefix, nonlinear_energy_mc(16, 3, 9, seed=2, keep_draws=True).draws[:5])


def test_each_case_sees_the_same_draws_whatever_else_runs():
    alone = nonlinear_energy_mc(40, 6, 12, phi="relu", sigma=SQ2, driven=True, seed=1)
    batched = nonlinear_energies_mc(40, 6, 12, _cases(), seed=1)[1]
    assert np.allclose(alone.mean, batched.mean, rtol=1e-12, atol=0)


_HASH = """
import hashlib, math, numpy as np
from theory.nonlinear import Recurrence
from numerics.signal_propagation.nonlinear_mc import nonlinear_energies_mc
cases = [Recurrence("tanh", 1.0), Recurrence("relu", math.sqrt(2.0), True), Recurrence("identity", 1.0)]
res = nonlinear_energies_mc(384, 6, 3, cases, probes=16, seed=1)
print(hashlib.sha256(b"".join(r.mean.tobytes() + r.se.tobytes() for r in res)).hexdigest())
"""


def test_bit_identical_for_any_blas_thread_count():
    # n x (cases * probes) = 384 x 48 products: above OpenBLAS's threshold for using several threads
    out = {}
    for threads in ("1", "2"):
        env = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads,
               "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        run = subprocess.run([sys.executable, "-c", _HASH], env=env, cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
        assert run.returncode == 0, run.stderr
        out[threads] = run.stdout.strip()
    assert out["1"] == out["2"] and len(out["1"]) == 64
    here = nonlinear_energies_mc(384, 6, 3, [nl.Recurrence("tanh", 1.0), nl.Recurrence("relu", SQ2, True),
                                             nl.Recurrence("identity", 1.0)], probes=16, seed=1)
    assert hashlib.sha256(b"".join(r.mean.tobytes() + r.se.tobytes() for r in here)).hexdigest() == out["1"]


def test_deviation_is_relative_to_the_mean_field():
    r = nonlinear_energy_mc(32, 30, 4, phi="tanh", sigma=0.5, seed=0)        # q_30 ~ 1e-18: still meaningful
    d, s = r.deviation()
    q = nl.mean_field_profile(30, "tanh", 0.5)
    assert np.allclose(d, r.mean / q - 1, rtol=0, atol=0) and np.all(np.isfinite(d)) and q[-1] < 1e-15


# --------------------------------------------------------------------------------------------------
# the breakdown analysis
# --------------------------------------------------------------------------------------------------
def test_crossing_depth_thresholds():
    dev = [0.0, 0.01, 0.05, 0.3]
    assert crossing_depth(dev, 0.05) == (3, 2.0)                  # 0.05 is inside the band (<= tol)
    assert crossing_depth(dev, 0.0499999) == (2, pytest.approx(1.9999975))
    assert crossing_depth([0.0, np.nan], 0.1) == (1, 1.0)         # an overflowed profile has left the band
    assert crossing_depth([0.2], 0.1) == (0, 0.0)


def test_breakdown_interval_covers_a_known_crossing():
    rng = np.random.default_rng(3)
    t = np.arange(30)
    truth = 0.002 * t**2                                           # crosses 0.5 between 15 (0.45) and 16 (0.512)
    D = 1 + truth + 0.05 * rng.standard_normal((500, 30))
    b = breakdown_with_interval(D, np.ones(30), 0.5, replicates=300, seed=1, level=0.95)
    assert b.lo <= 16 <= b.hi and b.censored == 0.0
    never = breakdown_with_interval(D[:, :10], np.ones(10), 0.5, replicates=50, seed=1, level=0.95)
    assert never.t_star is None and never.hi == math.inf and never.censored == 1.0


def test_exponent_fits():
    n = np.array([32, 128, 512, 2048], float)
    assert fit_exponent(n, 3 * n**0.25)[0] == pytest.approx(0.25, abs=1e-12)
    g, A, d = fit_offset_exponent(n, 2 * n**0.5 - 3)
    assert (g, A, d) == (pytest.approx(0.5, abs=1e-6), pytest.approx(2, abs=1e-5), pytest.approx(-3, abs=1e-4))
    from numerics.signal_propagation.nonlinear_breakdown import Breakdown
    est = [Breakdown(None, None, 0, math.inf, np.full(5, math.inf), 1.0, 10)] + [
        Breakdown(int(x) + 1, float(x), 0, 0, np.full(5, x), 0.0, 99) for x in (2 * n[1:] ** 0.5)]
    r = exponent_with_interval(n.astype(int).tolist(), est, level=0.95)
    assert r["censored_widths"] == [32] and r["gamma"] == pytest.approx(0.5) and r["offset"] is not None


# --------------------------------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs,exc,name", [
    (dict(t=3, phi="sigmoid", sigma=1.0), ValueError, "phi"),
    (dict(t=3, phi="tanh", sigma=0.0), ValueError, "sigma"),
    (dict(t=3, phi="tanh", sigma=-1.0), ValueError, "sigma"),
    (dict(t=3, phi="tanh", sigma=nl.MAX_SIGMA * (1 + 1e-12)), ValueError, "sigma"),
    (dict(t=-1, phi="tanh", sigma=1.0), ValueError, "t"),
    (dict(t=3.0, phi="tanh", sigma=1.0), TypeError, "t"),
    (dict(t=nl.MAX_T + 1, phi="relu", sigma=1.0), ValueError, "t"),
    (dict(t=nl.MAX_T_MP + 1, phi="tanh", sigma=1.0, method="mp"), ValueError, "t"),
    (dict(t=3, phi="tanh", sigma="1"), TypeError, "sigma"),
    (dict(t=3, phi="tanh", sigma=1.0, driven=1), TypeError, "driven"),
    (dict(t=3, phi="tanh", sigma=1.0, method="exact"), ValueError, "method"),
    (dict(t=3, phi="tanh", sigma=1.0, dps=20), ValueError, "dps"),
    (dict(t=3, phi=None, sigma=1.0), TypeError, "phi"),
])
def test_bad_input_names_the_argument(kwargs, exc, name):
    for fn in (nl.mean_field_energy, nl.mean_field_profile):
        with pytest.raises(exc, match=name):
            fn(**kwargs)


def test_bounds_just_inside():
    assert nl.mean_field_energy(3, "tanh", nl.MAX_SIGMA) > 0.9
    assert nl.mean_field_profile(nl.MAX_T, "relu", SQ2).size == nl.MAX_T + 1
    assert len(nl.mean_field_profile(nl.MAX_T_MP + 1, "relu", 1.0, method="mp", dps=15)) == nl.MAX_T_MP + 2


def test_overflow_and_underflow_are_errors_not_lost_values():
    with pytest.raises(OverflowError, match="mp"):
        nl.mean_field_energy(400, "relu", 10.0)
    with pytest.raises(OverflowError, match="mp"):
        nl.mean_field_profile(2000, "tanh", 0.1)
    assert nl.mean_field_energy(400, "relu", 10.0, method="mp", dps=20) > mpmath.mpf("1e500")
    with pytest.raises(ValueError, match="t="):
        nonlinear_energy_mc(8, 400, 2, phi="relu", sigma=100.0)


@pytest.mark.parametrize("kwargs,exc,name", [
    (dict(n=0, t=2, samples=4), ValueError, "n"),
    (dict(n=4, t=-1, samples=4), ValueError, "t"),
    (dict(n=4, t=2, samples=1), ValueError, "samples"),
    (dict(n=4, t=2, samples=4, probes=0), ValueError, "probes"),
    (dict(n=4, t=2, samples=4, phi="gelu"), ValueError, "phi"),
    (dict(n=4, t=2, samples=4, sigma=0), ValueError, "sigma"),
    (dict(n=4, t=2, samples=4, seed=-1), ValueError, "seed"),
    (dict(n=4, t=2, samples=4, progress="yes"), TypeError, "progress"),
    (dict(n=8192, t=10**4, samples=10**6), ValueError, "too large"),
])
def test_monte_carlo_bad_input(kwargs, exc, name):
    with pytest.raises(exc, match=name):
        nonlinear_energy_mc(**kwargs)


def test_monte_carlo_bad_cases():
    with pytest.raises(TypeError, match="recurrences"):
        nonlinear_energies_mc(4, 2, 4, "tanh")
    with pytest.raises(TypeError, match="recurrences"):
        nonlinear_energies_mc(4, 2, 4, [("tanh", 1.0)])
    with pytest.raises(ValueError, match="recurrences"):
        nonlinear_energies_mc(4, 2, 4, [])
    with pytest.raises(ValueError, match="tol"):
        crossing_depth([0.1], 0.0)


# --------------------------------------------------------------------------------------------------
# the validation verdicts (synthetic data: each can fail)
# --------------------------------------------------------------------------------------------------
def test_verdicts_pass_within_z_se_and_fail_beyond():
    from validation.checks import nonlinear as chk
    from validation.registry import FAIL, PASS
    z = z_for_false_alarm(m=2)
    ok = [("a", 16, 1, 1.0 + 0.99 * z * 0.01, 0.01, 1.0, 0.0), ("b", 16, 2, 2.0, 0.01, 2.0, 0.0)]
    assert chk.verdict_identity_exact(ok).verdict == PASS
    bad = [("a", 16, 1, 1.0 + 1.01 * z * 0.01, 0.01, 1.0, 0.0), ok[1]]
    assert chk.verdict_identity_exact(bad).verdict == FAIL
    assert chk.verdict_identity_exact([("a", 16, 1, 1.05, 0.01, 1.0, 0.05)]).verdict == PASS     # the exact error counts
    assert chk.verdict_mean_field([("a", 1024, 1, 0.5, 0.0, 0.5 + 1e-9, 0.0)]).verdict == FAIL   # se 0: exact equality
    assert chk.verdict_mean_field([]).verdict == FAIL
    assert chk.verdict_first_correction([("tanh", 1, -0.43, 0.01, -0.434)]).verdict == PASS
    assert chk.verdict_first_correction([("tanh", 1, 0.0, 0.01, -0.434)]).verdict == FAIL


def test_free_relu_and_identity_deviation_does_not_depend_on_sigma():
    # positive homogeneity: h_t(sigma W_0) = sigma^t h_t(W_0) for relu and the identity, and q_t scales alike
    for phi in ("relu", "identity"):
        a, b = nonlinear_energies_mc(24, 8, 6, [nl.Recurrence(phi, 1.3), nl.Recurrence(phi, 1.5)], seed=8)
        assert np.allclose(a.deviation()[0], b.deviation()[0], rtol=0, atol=1e-12)
    t1, t2 = nonlinear_energies_mc(24, 8, 6, [nl.Recurrence("tanh", 1.3), nl.Recurrence("tanh", 1.5)], seed=8)
    assert not np.allclose(t1.deviation()[0], t2.deviation()[0], rtol=0, atol=1e-6)          # tanh is not homogeneous


class _Started(Exception):
    """Raised by a stand-in draw: the call got past its budget checks."""


def _budget_probe(monkeypatch, **kwargs):
    """Call nonlinear_energy_mc with the first draw replaced by a sentinel: 'started' or the refusal's text, and
    whether the progress bar would show."""
    import numerics.signal_propagation.nonlinear_mc as nmc
    seen = {}

    def fake_tqdm(iterable, **kw):
        seen["bar"] = not kw["disable"]
        return iterable

    def fake_draw(*args):
        raise _Started

    monkeypatch.setattr(nmc, "tqdm", fake_tqdm)
    monkeypatch.setattr(nmc, "_one_draw", fake_draw)
    try:
        nonlinear_energy_mc(**kwargs)
    except _Started:
        return "started", seen["bar"]
    except ValueError as exc:
        return str(exc), None
    raise AssertionError("neither started nor refused")


def test_budget_counts_python_overhead_per_draw_and_step(monkeypatch):
    """At n = 1 the flops are nothing and the overhead is everything: 1e5 flops a draw, 1.5e4 a step, against
    MAX_WORK = 1e14 (the budget before 2026-12-06 counted only the flops and let this run for days)."""
    from numerics.signal_propagation.nonlinear_mc import MAX_WORK
    t = 10**4
    per_draw = 2.0 * t * 1 + 20.0 + 1e5 + 1.5e4 * t          # n = 1, one case, one probe
    inside = int(MAX_WORK // per_draw)
    assert _budget_probe(monkeypatch, n=1, t=t, samples=inside, probes=1)[0] == "started"
    text, _ = _budget_probe(monkeypatch, n=1, t=t, samples=inside + 1, probes=1)
    assert "flops" in text and "1.5e4 cases t" in text


def test_progress_bar_by_default_where_the_overhead_takes_seconds(monkeypatch):
    """n = 8, t = 2: 116 us a draw measured, almost all overhead; 2e10 flops (a few seconds) shows a bar."""
    per_draw = 2.0 * 64 * 8 * 2 + 20.0 * 64 + 1e5 + 1.5e4 * 2     # n = 8, one case, 8 probes, t = 2
    edge = int(2e10 // per_draw)
    assert _budget_probe(monkeypatch, n=8, t=2, samples=edge)[1] is False
    assert _budget_probe(monkeypatch, n=8, t=2, samples=edge + 1)[1] is True
    assert _budget_probe(monkeypatch, n=8, t=2, samples=edge + 1, progress=False)[1] is False


# mpmath's tanh-sinh quadrature slows abruptly past about 160 working digits (the fuzz's dps = 3416 never
# returned): tanh's mp paths cap dps and refuse a profile whose estimated quadrature time exceeds the budget
@pytest.mark.parametrize("call", [
    lambda dps: nl.gaussian_energy(1.0, "tanh", method="mp", dps=dps),
    lambda dps: nl.mean_field_energy(2, "tanh", 1.0, method="mp", dps=dps),
    lambda dps: nl.mean_field_profile(2, "tanh", 1.0, driven=True, method="mp", dps=dps)[-1],
])
def test_tanh_mp_precision_cap_at_its_edge(call):
    assert call(nl.MAX_DPS_TANH) > 0                                       # just inside
    with pytest.raises(ValueError, match=f"dps must be an integer <= {nl.MAX_DPS_TANH}"):
        call(nl.MAX_DPS_TANH + 1)                                           # just outside


def test_relu_and_identity_mp_keep_any_precision():
    assert nl.gaussian_energy(3.0, "relu", method="mp", dps=nl.MAX_DPS_TANH + 500) == 1.5
    assert nl.mean_field_energy(3, "identity", 2.0, method="mp", dps=nl.MAX_DPS_TANH + 500) == 64


def test_tanh_mp_time_budget_at_its_edge():
    dps = 100
    per_step = nl._quadrature_seconds(dps + 5)
    inside = int(nl.MAX_MP_SECONDS // per_step)
    nl._check(inside, "tanh", 1.0, False, "mp", dps)                     # just inside: accepted (not run)
    with pytest.raises(ValueError, match=r"t \(tanh, mp at dps=100\)=.* is too large"):
        nl.mean_field_profile(inside + 1, "tanh", 1.0, method="mp", dps=dps)
    assert nl.MAX_T_MP * nl._quadrature_seconds(nl.DEFAULT_DPS + 5) <= nl.MAX_MP_SECONDS  # the default dps: all depths
