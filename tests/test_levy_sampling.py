"""numerics.anticollapse.levy_sampling: stable and CTS samplers against characteristic functions and cumulants.

References are independent of the code under test: scipy quadrature of the Levy-measure integrals, the
standard stable characteristic function, a pure-Python xoroshiro128++; Monte Carlo comparisons are
``|estimate - exact| <= z se`` with se from the same sample and z from numerics.stats (Bonferroni).
"""

import math

import numpy as np
import pytest
from scipy.integrate import quad

import numerics.anticollapse.levy_sampling as ls

from numerics.anticollapse.levy_sampling import (big_jump_rate, cp_small_jump_cumulant, cts_cumulant, cts_increments,
                                    cts_increments_cp, cts_log_cf, small_jump_variance, stream_states,
                                    symmetric_stable)
from numerics.stats import agreement, z_for_false_alarm

U = np.array([0.3, 1.0, 2.5])


# --- independent references ------------------------------------------------------------------------
def _nu_integral(g, *, eta_J, alpha, lam, C=1.0, lo=0.0, hi=math.inf):
    """2 int_lo^hi g(y) eta_J C exp(-lam y) y^(-1-alpha) dy by adaptive quadrature (both signs)."""
    f = lambda y: g(y) * eta_J * C * math.exp(-lam * y) * y ** (-1.0 - alpha)
    pts = [p for p in (1e-6, 1e-3, 1.0) if lo < p < hi]
    edges = [lo, *pts, hi]
    return 2.0 * sum(quad(f, a, b, limit=400, epsabs=1e-13, epsrel=1e-11)[0] for a, b in zip(edges[:-1], edges[1:]))


@pytest.mark.parametrize("alpha", [0.3, 1.0, 1.0 + 1e-12, 1.5, 1.9])
def test_log_cf_and_cumulants_match_quadrature(alpha):
    kw = dict(eta_J=0.7, alpha=alpha, lam=1.7, C=1.3)
    for u in U:
        ref = _nu_integral(lambda y: -2.0 * math.sin(0.5 * u * y) ** 2, **kw)
        assert abs(float(cts_log_cf(u, 0.5, **kw)) - 0.5 * ref) <= 1e-8 * abs(ref)
    for n in (2, 4, 6):
        ref = _nu_integral(lambda y: y ** n, **kw)
        assert abs(cts_cumulant(n, 0.5, **kw) - 0.5 * ref) <= 1e-9 * ref
    assert cts_cumulant(5, 0.5, **kw) == 0.0


@pytest.mark.parametrize("eps", [1e-12, -1e-12])
def test_log_cf_is_continuous_through_alpha_one(eps):
    # next to the Gamma(-a) pole the closed form must stay accurate: a Gamma(-a) [Re p^a - lam^a] evaluation
    # loses ~1e-3 relative accuracy at a = 1 + 1e-12. The a = 1 limit (x log x form, no pole) differs from
    # the value at 1 + eps by O(eps) only.
    kw = dict(eta_J=0.7, lam=1.7, C=1.3)
    u = np.array([0.01, 0.3, 1.0, 2.5, 40.0])
    p = kw["lam"] - 1j * u
    at_one = 0.5 * 2.0 * kw["eta_J"] * kw["C"] * ((p * np.log(p)).real - kw["lam"] * math.log(kw["lam"]))
    got = cts_log_cf(u, 0.5, alpha=1.0 + eps, **kw)
    assert np.all(np.abs(got - at_one) <= 1e-9 * np.abs(at_one))


@pytest.mark.parametrize("alpha", [0.5, 1.0, 1.5])
def test_jump_split_matches_quadrature(alpha):
    kw = dict(eta_J=1.1, alpha=alpha, lam=2.0, C=0.8)
    eps = 0.2
    assert abs(big_jump_rate(eps, **kw) - _nu_integral(lambda y: 1.0, lo=eps, **kw)) <= 1e-9 * big_jump_rate(eps, **kw)
    ref = _nu_integral(lambda y: y * y, hi=eps, **kw)
    assert abs(small_jump_variance(eps, **kw) - ref) <= 1e-9 * ref
    ref4 = _nu_integral(lambda y: y ** 4, lo=eps, **kw)
    assert abs(cp_small_jump_cumulant(4, 1.0, eps, **kw) - ref4) <= 1e-9 * ref4


# --- random streams ---------------------------------------------------------------------------------
def _xoroshiro128pp(s0, s1, n):
    """Reference xoroshiro128++ (Blackman & Vigna), plain Python integers."""
    M = (1 << 64) - 1
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
    out = []
    for _ in range(n):
        out.append((rotl((s0 + s1) & M, 17) + s0) & M)
        s1 ^= s0
        s0 = rotl(s0, 49) ^ s1 ^ ((s1 << 21) & M)
        s1 = rotl(s1, 28)
    return out


def test_xoroshiro_matches_reference():
    st = stream_states(7, 3)
    ref = _xoroshiro128pp(int(st[1, 0]), int(st[1, 1]), 20)
    view = st[1].copy()
    got = [int(ls._next_u64(view)) for _ in range(20)]
    assert got == ref
    u = np.array([ls._u01(view) for _ in range(1000)])
    assert np.all((u > 0) & (u < 1))


def test_stream_states_are_per_index():
    a, b = stream_states(11, 10), stream_states(11, 4)
    assert np.array_equal(a[:4], b)
    assert not np.array_equal(stream_states(12, 4), b)
    assert len({tuple(r) for r in a}) == 10
    assert stream_states(np.random.SeedSequence(11), 4).tolist() == b.tolist()


# --- symmetric stable -------------------------------------------------------------------------------
def _cf_agreement(x, u, exact, z):
    c = np.cos(np.outer(u, x))
    return agreement(c.mean(axis=1), c.std(axis=1, ddof=1) / math.sqrt(x.size), exact, z=z)


def test_symmetric_stable_characteristic_function():
    alphas = (0.5, 1.0, 1.5, 2.0)
    z = z_for_false_alarm(m=len(alphas) * U.size + 1)
    rng = np.random.default_rng(2024)
    for a in alphas:
        x = symmetric_stable(a, 100_000, rng=rng)
        assert x.dtype == np.float64 and x.shape == (100_000,)
        ag = _cf_agreement(x, U, np.exp(-U ** a), z)
        assert ag.ok, (a, ag.zscores)
    x = symmetric_stable(2.0, 100_000, rng=rng)      # alpha = 2: N(0, 2)
    assert agreement(np.mean(x * x), np.std(x * x, ddof=1) / math.sqrt(x.size), 2.0, z=z).ok
    assert symmetric_stable(1.2, (3, 4), rng=rng).shape == (3, 4)


def test_symmetric_stable_is_reproducible():
    a = symmetric_stable(1.5, 50, rng=np.random.default_rng(5))
    b = symmetric_stable(1.5, 50, rng=np.random.default_rng(5))
    assert np.array_equal(a, b)


# --- CTS samplers -----------------------------------------------------------------------------------
def _moment_checks(x, k2, k4, log_cf, z):
    """E X^2 = kappa_2, E X^4 = kappa_4 + 3 kappa_2^2, E cos(uX) = exp(log cf): se from the sample."""
    est = [np.mean(x * x), np.mean(x ** 4)]
    se = [np.std(x * x, ddof=1) / math.sqrt(x.size), np.std(x ** 4, ddof=1) / math.sqrt(x.size)]
    c = np.cos(np.outer(U, x))
    est += list(c.mean(axis=1))
    se += list(c.std(axis=1, ddof=1) / math.sqrt(x.size))
    exact = [k2, k4 + 3 * k2 * k2, *np.exp(log_cf)]
    return agreement(est, se, exact, z=z)


# (alpha, dt): sizes picked so that the rejection sampler stays cheap (a few proposals per draw)
EXACT_CASES = [(0.5, 1.0), (0.8, 0.3), (1.0, 0.2), (1.5, 0.05), (1.8, 0.01)]


@pytest.mark.parametrize("alpha,dt", EXACT_CASES)
def test_exact_cts_matches_cf_and_cumulants(alpha, dt):
    kw = dict(eta_J=1.2, alpha=alpha, lam=2.0, C=1.0)
    x = cts_increments(dt, 60_000, rng=np.random.default_rng(int(alpha * 100)), **kw)
    z = z_for_false_alarm(m=len(EXACT_CASES) * (2 + U.size))
    ag = _moment_checks(x, cts_cumulant(2, dt, **kw), cts_cumulant(4, dt, **kw), cts_log_cf(U, dt, **kw), z)
    assert ag.ok, ag.zscores


@pytest.mark.parametrize("alpha", [0.5, 1.0, 1.5])
def test_compound_poisson_matches_its_cumulants(alpha):
    kw = dict(eta_J=1.2, alpha=alpha, lam=2.0, C=1.0)
    dt, eps = 0.5, 0.2
    x = cts_increments_cp(dt, 100_000, eps=eps, rng=np.random.default_rng(9 + int(10 * alpha)), **kw)
    # CF of the approximation, by quadrature: Gaussian small jumps + exact big-jump compound Poisson
    s2 = small_jump_variance(eps, **kw)
    log_cf = [dt * (-0.5 * s2 * u * u + _nu_integral(lambda y: -2.0 * math.sin(0.5 * u * y) ** 2, lo=eps, **kw)) for u in U]
    z = z_for_false_alarm(m=3 * (2 + U.size))
    ag = _moment_checks(x, cts_cumulant(2, dt, **kw), cp_small_jump_cumulant(4, dt, eps, **kw), log_cf, z)
    assert ag.ok, ag.zscores


def test_samplers_are_reproducible_and_zero_without_jumps():
    kw = dict(eta_J=1.0, alpha=1.5, lam=2.0)
    a = cts_increments(0.05, 100, rng=np.random.default_rng(3), **kw)
    assert np.array_equal(a, cts_increments(0.05, 100, rng=np.random.default_rng(3), **kw))
    assert np.array_equal(cts_increments(0.1, (2, 3), eta_J=0.0, alpha=0.5, lam=1.0, rng=np.random.default_rng(0)),
                          np.zeros((2, 3)))
    b = cts_increments_cp(0.05, 100, eps=0.1, rng=np.random.default_rng(3), **kw)
    assert np.array_equal(b, cts_increments_cp(0.05, 100, eps=0.1, rng=np.random.default_rng(3), **kw))


# --- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw,exc,word", [
    (dict(alpha=0.0), ValueError, "alpha"), (dict(alpha=2.0), ValueError, "alpha"),
    (dict(alpha=True), TypeError, "alpha"), (dict(lam=0.0), ValueError, "lam"),
    (dict(eta_J=-1.0), ValueError, "eta_J"), (dict(C=0.0), ValueError, "C"),
    (dict(alpha=float("nan")), ValueError, "alpha"),
])
def test_bad_levy_parameters(kw, exc, word):
    args = dict(eta_J=1.0, alpha=1.5, lam=2.0, C=1.0) | kw
    for call in (lambda: cts_increments(0.1, 4, rng=np.random.default_rng(0), **args),
                 lambda: cts_increments_cp(0.1, 4, eps=0.1, rng=np.random.default_rng(0), **args),
                 lambda: cts_log_cf(1.0, 0.1, **args), lambda: cts_cumulant(2, 0.1, **args)):
        with pytest.raises(exc, match=word):
            call()


def test_bad_other_arguments():
    rng = np.random.default_rng(0)
    kw = dict(eta_J=1.0, alpha=1.5, lam=2.0)
    with pytest.raises(ValueError, match="dt"):
        cts_increments(0.0, 4, rng=rng, **kw)
    with pytest.raises(ValueError, match="eps"):
        cts_increments_cp(0.1, 4, eps=0.0, rng=rng, **kw)
    with pytest.raises(ValueError, match="eps"):
        cts_increments_cp(10.0, 4, eps=1e-4, rng=rng, **kw)      # too many jumps per step
    with pytest.raises(ValueError, match="size"):
        cts_increments(0.1, -1, rng=rng, **kw)
    with pytest.raises(TypeError, match="rng"):
        cts_increments(0.1, 4, rng=0, **kw)
    with pytest.raises(TypeError, match="rng"):
        symmetric_stable(1.5, 4, rng=None)
    with pytest.raises(ValueError, match="alpha"):
        symmetric_stable(2.5, 4, rng=rng)
    with pytest.raises(ValueError, match="order"):
        cts_cumulant(0, 1.0, **kw)
    with pytest.raises(ValueError, match="u"):
        cts_log_cf(float("inf"), 1.0, **kw)


@pytest.mark.parametrize("alpha", [1.0, 1.01, 1.5, 1.99])
def test_truncation_shift_meets_its_chernoff_bound(alpha):
    """At the shift x, some s >= lam on a plain grid already gives L(s) - L(lam) - (s - lam) x <= log(1e-18),
    L(s) = c Gamma(-a) s^a (a != 1) or c s log s (a = 1): the neglected tilted mass is below 1e-18."""
    for c, lam in ((1e-3, 3.0), (0.05, 2.0), (1.0, 0.5)):
        x = ls._truncation_shift(alpha, c, lam)
        L = (lambda s: c * s * np.log(s)) if alpha == 1.0 else (lambda s: c * math.gamma(-alpha) * s ** alpha)
        s = lam * np.geomspace(1.0, 1e12, 200_001)
        with np.errstate(over="ignore", invalid="ignore"):
            vals = L(s) - L(lam) - (s - lam) * x
        assert np.nanmin(vals) <= math.log(ls.TRUNCATION_MASS) + 1e-6 and x > 0
