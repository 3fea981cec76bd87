"""The whole first finite-width correction of tied-weight recurrences (numerics.signal_propagation.tied_correction):
zero where it is known to be (the identity's exact rows, relu at depth 1, free relu at depth 2), tanh's against
the independent-step term, the mean field it expands around, the influence function's zero mean, relu's
homogeneity in sigma, its second-order term against an independent finite-difference reference written here
without the series arithmetic, tanh's quadrature (Price's derivatives against finite differences), bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.signal_propagation import tied_correction as tc
from numerics.stats import z_for_false_alarm
from theory.nonlinear import mean_field_profile

import script_module

SQ2 = math.sqrt(2.0)


@pytest.mark.parametrize("phi, sigma, driven, zero_depths", [
    ("identity", 1.0, False, range(1, 7)),      # Q^R_{n,k} = 1 + O(n^-2) on every exact row
    ("identity", 0.9, True, range(1, 7)),
    ("relu", SQ2, False, (1, 2)),               # E K_1 = sigma^2 E K_0 / 2 exactly; tying enters at O(n^-2) at 2
    ("relu", SQ2, True, (1,)),                  # E K_1 = (sigma^2 E K_0 + 1) / 2 exactly
])
def test_zero_where_the_first_correction_is_known_to_vanish(phi, sigma, driven, zero_depths):
    r = tc.tied_correction_profile(6, 1 << 17, phi=phi, sigma=sigma, driven=driven, seed=3)
    z = z_for_false_alarm(m=len(zero_depths))
    assert r.b[0] == 0.0 and r.se[0] == 0.0
    for t in zero_depths:
        assert abs(r.b[t]) <= z * r.se[t], (t, r.b[t], r.se[t])
    # the first-order term has mean zero (an influence function): a diagnostic of the same run
    zi = z_for_false_alarm(m=6)
    assert np.all(np.abs(r.influence_mean[1:]) <= zi * r.influence_se[1:])


def test_relu_tying_enters_at_first_order_from_depth_3_free_and_depth_2_driven():
    z = z_for_false_alarm(m=4)
    free = tc.tied_correction_profile(4, 1 << 17, phi="relu", sigma=SQ2, seed=4)
    driven = tc.tied_correction_profile(4, 1 << 17, phi="relu", sigma=SQ2, driven=True, seed=5)
    assert free.b[3] - z * free.se[3] > 0.5 and free.b[4] > free.b[3]
    assert driven.b[2] - z * driven.se[2] > 0.3


@pytest.mark.parametrize("phi, sigma, driven", [("relu", SQ2, False), ("relu", 1.7, True), ("identity", 0.9, True)])
def test_it_expands_around_the_mean_field(phi, sigma, driven):
    r = tc.tied_correction_profile(5, 64, phi=phi, sigma=sigma, driven=driven, seed=0)
    np.testing.assert_allclose(r.q, mean_field_profile(5, phi, sigma, driven=driven), rtol=1e-12)
    np.testing.assert_allclose(r.energy(100), r.q * (1 + r.b / 100), rtol=0)


@settings(max_examples=10, deadline=None)
@given(sigma=st.floats(0.3, 5.0))
def test_free_relu_and_identity_corrections_do_not_depend_on_sigma(sigma):
    # proved: phi(sigma x) = sigma phi(x) for relu and the identity, so the deviation K_t / q_t - 1 of the free
    # recurrence is the same function of the draws at every sigma
    for phi, ref in (("relu", SQ2), ("identity", 1.0)):
        a = tc.tied_correction_profile(4, 512, phi=phi, sigma=sigma, seed=9)
        b = tc.tied_correction_profile(4, 512, phi=phi, sigma=ref, seed=9)
        np.testing.assert_allclose(a.b, b.b, rtol=1e-9, atol=1e-12)


def _energy_under_contamination(t, phi, sigma, driven, z, e):
    """K_t under ``(1 - e) P + e delta_z``, in plain floats: every overlap an expectation under the mixture, the
    population part by the arc-cosine kernel (relu), the covariance (identity) or the value of tanh's quadrature
    alone (no derivatives), the recursion by explicit projections (an independent reference for the series
    arithmetic and the chain rule of the module)."""
    D = z.size
    f = {"relu": lambda u: max(u, 0.0), "tanh": math.tanh, "identity": lambda u: u}[phi]
    act = "lin" if phi == "identity" else phi

    def pop(r1, a1, r2, a2, same):
        c = float(a1 @ a2)
        if "tanh" in (r1, r2):
            return tc._pair_moments(r1, r2, float(a1 @ a1), float(a2 @ a2), c)[0]
        if r1 != "relu" and r2 != "relu":
            return c
        if r1 != r2 or same:
            return c / 2
        s = math.sqrt(float(a1 @ a1) * float(a2 @ a2))
        rho = c / s
        return s * (math.sqrt(1 - rho * rho) + (math.pi - math.acos(rho)) * rho) / (2 * math.pi)

    first = act if driven else "lin"
    hs = [(first, np.eye(D)[0])]
    val = [f(z[0]) if first != "lin" else z[0]]
    M = np.zeros((t + 1, t + 1))
    M[0, 0] = (1 - e) * pop(first, hs[0][1], first, hs[0][1], True) + e * val[0] ** 2
    ws = []
    for k in range(1, t + 1):
        m = k - 1
        coef = np.zeros(D)
        proj = 0.0
        if m > 0:
            beta = np.linalg.solve(M[:m, :m], M[:m, m])
            proj = float(beta @ M[:m, m])
            coef = sum(beta[j] * ws[j] for j in range(m))
        coef = coef.copy()
        coef[k] += sigma * math.sqrt(M[m, m] - proj)
        ws.append(coef)
        g = coef.copy()
        if driven:
            g[t + k] += 1.0
        hs.append((act, g))
        val.append(f(float(g @ z)))
        for j in range(k + 1):
            M[j, k] = M[k, j] = (1 - e) * pop(hs[j][0], hs[j][1], act, g, j == k) + e * val[j] * val[k]
    return np.diag(M)


@pytest.mark.parametrize("phi, driven", [("relu", False), ("relu", True), ("identity", False), ("tanh", False),
                                         ("tanh", True)])
def test_the_second_order_term_matches_finite_differences(phi, driven):
    t, sigma = 4, 1.3 if phi != "tanh" else 0.9
    rng = np.random.default_rng(17)
    D = 1 + t + (t if driven else 0)
    z = rng.standard_normal((D, 6))
    T1, T2, q = tc._second_order(t, phi, sigma, driven, z)
    h = 1e-4
    for i in range(z.shape[1]):
        plus, zero, minus = (_energy_under_contamination(t, phi, sigma, driven, z[:, i], e) for e in (h, 0.0, -h))
        np.testing.assert_allclose(zero, q, rtol=1e-12)
        np.testing.assert_allclose(T1[:, i], (plus - minus) / (2 * h), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(T2[:, i], (plus - 2 * zero + minus) / (2 * h * h), rtol=1e-4, atol=1e-5)


def test_the_same_seed_gives_the_same_numbers_and_chunks_join():
    relu = dict(phi="relu", sigma=SQ2)
    a = tc.tied_correction_profile(3, tc.CHUNK + 5, seed=2, **relu)
    b = tc.tied_correction_profile(3, tc.CHUNK + 5, seed=2, **relu)
    assert np.array_equal(a.b, b.b) and np.array_equal(a.se, b.se) and a.samples == tc.CHUNK + 5
    assert not np.array_equal(a.b, tc.tied_correction_profile(3, tc.CHUNK + 5, seed=3, **relu).b)


@pytest.mark.parametrize("kwargs, exc, name", [
    (dict(t=0), ValueError, "t"), (dict(t=tc.MAX_T + 1), ValueError, "t"), (dict(t=2.5), TypeError, "t"),
    (dict(samples=0), ValueError, "samples"), (dict(samples=tc.MAX_SAMPLES + 1), ValueError, "samples"),
    (dict(phi="tanh", sigma=4.01), ValueError, "sigma"), (dict(phi="erf"), ValueError, "phi"),
    (dict(sigma=0.0), ValueError, "sigma"),
    (dict(sigma=math.nan), ValueError, "sigma"), (dict(driven="yes"), TypeError, "driven"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(t=3, samples=10**9), ValueError, "samples"),          # the outside fuzz's: refused by the budget
])
def test_bad_input_is_named(kwargs, exc, name):
    args = dict(t=2, samples=8, phi="relu", sigma=SQ2) | kwargs
    with pytest.raises(exc, match=name):
        tc.tied_correction_profile(args.pop("t"), args.pop("samples"), **args)
    with pytest.raises(ValueError, match="n"):
        tc.tied_correction_profile(2, 8, phi="relu", sigma=SQ2).energy(0)


def test_the_results_page_holds_the_committed_table():
    bench = script_module.load("benchmarks/nonlinear/tied_correction.py")
    doc = json.loads(bench.OUT.read_text(encoding="utf-8"))
    page = (bench.ROOT / "docs" / "results" / "nonlinear-recurrences.md").read_text(encoding="utf-8")
    assert bench.table(doc) in page
    assert doc["samples"] == bench.SAMPLES and set(doc["cases"]) == {bench.case_key(r) for r, _ in bench.CASES}
    # the comparison columns are the committed Monte Carlo fits, and the exact zeros hold in the committed run
    measured = {(r["case"], r["t"]): r for r in json.loads(bench.MEASURED.read_text())["first_correction"]}
    z = z_for_false_alarm(m=11 + 24)
    for key, case in doc["cases"].items():
        for row in case["rows"]:
            m = measured[(key, row["t"])]
            assert (row["fit"], row["fit_se"]) == (m["b"], m["b_se"])
            if key.startswith("tanh"):                  # the independent-step term: the whole term with tying
                assert abs(row["b"] - row["c"]) <= z * row["se"], (key, row)
            elif key.startswith("identity") or row["t"] == 1 or (key == "relu sigma^2=2 free" and row["t"] == 2):
                assert abs(row["b"]) <= z * row["se"], (key, row)


@pytest.mark.parametrize("sigma, driven", [(1.0, False), (0.9, False), (1.0, True)])
def test_tanh_tying_adds_nothing_at_first_order(sigma, driven):
    # theory.nonlinear derives c_t assuming tying enters tanh (odd) at O(n^-2) only; the whole term must equal it
    from theory.nonlinear import first_correction_profile

    r = tc.tied_correction_profile(6, 1 << 15, phi="tanh", sigma=sigma, driven=driven, seed=31)
    c = first_correction_profile(6, "tanh", sigma, driven=driven)
    z = z_for_false_alarm(m=6)
    assert np.all(np.abs(r.b[1:] - c[1:]) <= z * r.se[1:]), (r.b, c, r.se)
    np.testing.assert_allclose(r.q, mean_field_profile(6, "tanh", sigma, driven=driven), rtol=1e-13)


@pytest.mark.parametrize("acts, point", [(("tanh", "tanh"), (0.7, 1.3, 0.4)), (("lin", "tanh"), (1.0, 0.8, -0.3)),
                                         (("tanh", "tanh"), (2.0, 2.0, 1.999)), (("tanh", "tanh"), (9.0, 16.0, 5.0))])
def test_the_tanh_overlaps_derivatives_are_prices(acts, point):
    # the gradient and Hessian from Price's theorem against central differences of the value itself
    p0, grad, hess = tc._pair_moments(*acts, *point)
    h = 1e-4
    for i in range(3):
        e = np.eye(3)[i] * h
        up, dn = tc._pair_moments(*acts, *(np.add(point, e)))[0], tc._pair_moments(*acts, *(np.subtract(point, e)))[0]
        assert math.isclose(grad[i], (up - dn) / (2 * h), rel_tol=1e-6, abs_tol=1e-9)
        gu, gd = tc._pair_moments(*acts, *(np.add(point, e)))[1], tc._pair_moments(*acts, *(np.subtract(point, e)))[1]
        for k in range(3):
            assert math.isclose(hess[i][k], (gu[k] - gd[k]) / (2 * h), rel_tol=1e-5, abs_tol=1e-8)
    if acts == ("lin", "tanh"):         # Stein: E[u tanh(v)] = Cov E[tanh'(v)], and d/dCov is E[tanh'(v)]
        assert math.isclose(p0, point[2] * grad[2], rel_tol=1e-12)


@pytest.mark.parametrize("acts", [("tanh", "tanh"), ("lin", "tanh")])
def test_the_tanh_overlap_series_is_the_chain_rule(acts):
    # coefficient vectors that move with the contamination (a0 + a1 e + a2 e^2) and overlap at the population
    # (rho != 0, unlike the recurrence's odd case): the series against finite differences of the value alone
    rng = np.random.default_rng(4)
    A = [rng.standard_normal((3, 3)) * (1.0, 0.3, 0.2)[i] for i in range(3)]   # [order][vector][coordinate]
    B = [rng.standard_normal((3, 3)) * (1.0, 0.3, 0.2)[i] for i in range(3)]
    jets = lambda C: [tc._Jet(C[0][0][j], C[1][0][j], C[2][0][j]) for j in range(3)]  # noqa: E731
    series = tc._smooth_pair(acts[0], jets(A), acts[1], jets(B))

    def value(e):
        a = A[0][0] + e * A[1][0] + e * e * A[2][0]
        b = B[0][0] + e * B[1][0] + e * e * B[2][0]
        return tc._pair_moments(acts[0], acts[1], float(a @ a), float(b @ b), float(a @ b))[0]

    h = 1e-3
    assert math.isclose(series.a, value(0.0), rel_tol=1e-14)
    assert math.isclose(float(series.b), (value(h) - value(-h)) / (2 * h), rel_tol=1e-6, abs_tol=1e-9)
    assert math.isclose(float(series.c), (value(h) - 2 * value(0.0) + value(-h)) / (2 * h * h), rel_tol=1e-5,
                        abs_tol=1e-8)


def test_the_first_order_breakdown_depth():
    bench = script_module.load("benchmarks/nonlinear/tied_correction.py")
    b = np.array([0.0, 0.0, 0.5, 1.6, 1.61, 4.0])
    # strictly above tol n: 1.6 / 32 = 0.05 is inside the band, 1.61 / 32 just outside
    assert bench.first_order_depth(b, 32, 0.05) == 4 and bench.first_order_depth(b, 31, 0.05) == 3
    assert bench.first_order_depth(b, 1000, 0.05) is None and bench.first_order_depth(-b, 32, 0.05) == 4
    # the crossing interpolates |b_t| / n linearly: at n = 40, tol 0.05 the level 2.0 lies between 1.61 and 4.0
    assert math.isclose(bench.first_order_crossing(b, 40, 0.05), 4 + (2.0 - 1.61) / (4.0 - 1.61), rel_tol=1e-15)
    assert bench.first_order_crossing(b, 1000, 0.05) is None
    ns = [32, 64, 128, 256]
    assert math.isclose(bench.loglog_slope(ns, [2.0 * n ** 0.4 for n in ns]), 0.4, rel_tol=1e-12)
    assert bench.loglog_slope(ns, [1.0, None, None, 3.0]) is None


def test_the_results_page_holds_the_breakdown_prediction():
    bench = script_module.load("benchmarks/nonlinear/tied_correction.py")
    doc = json.loads(bench.OUT.read_text(encoding="utf-8"))
    page = (bench.ROOT / "docs" / "results" / "nonlinear-recurrences.md").read_text(encoding="utf-8")
    assert bench.breakdown_table(doc) in page
    measured = {c["case"]: c for c in json.loads(bench.MEASURED.read_text())["cases"]}
    assert set(doc["breakdown"]) == {bench.case_key(r) for r, _ in bench.DEEP_CASES}
    for key, case in doc["breakdown"].items():
        b, se = np.array(case["b"]), np.array(case["se"])
        assert len(b) == bench.DEEP_T + 1
        for row in case["rows"]:
            m = measured[key]["widths"][str(row["n"])][f"tol={row['tol']}"]
            assert (row["measured"], row["lo"], row["hi"]) == (m["t_star"], m["lo"], m["hi"])
            limit = row["tol"] * row["n"]       # recomputed here: the first depth whose |b_t| exceeds tol n

            def first(x):
                hits = [t for t in range(1, len(x)) if abs(x[t]) > limit]
                return hits[0] if hits else None

            assert row["predicted"] == first(b)
            assert row["measured_crossing"] == m["t_cross"]
            if row["predicted"] is not None:
                t = row["predicted"]
                assert t - 1 < row["crossing"] <= t and math.isclose(
                    np.interp(row["crossing"], [t - 1, t], [abs(b[t - 1]), abs(b[t])]), limit, rel_tol=1e-12)
            assert row["predicted_range"] == [first(b + bench.Z_PREDICTION * se), first(b - bench.Z_PREDICTION * se)]
        for tol in bench.TOLS:
            pts = [(r["n"], r["crossing"]) for r in case["rows"] if r["tol"] == tol and r["crossing"] is not None]
            slope = np.polyfit(np.log([n for n, _ in pts]), np.log([c for _, c in pts]), 1)[0]
            assert math.isclose(case["gamma_first_order"][str(tol)], slope, rel_tol=1e-9)


def test_the_work_budget_just_inside_and_just_outside(monkeypatch):
    # a budget shrunk to 100 samples at t = 2 (30 * 27 flop-equivalents a sample, 1e6 for the one chunk)
    monkeypatch.setattr(tc, "MAX_WORK", 100 * 30.0 * 27 + 1e6)
    assert tc.tied_correction_profile(2, 100, phi="relu", sigma=SQ2).samples == 100
    with pytest.raises(ValueError, match=r"samples .*=101 is too large"):
        tc.tied_correction_profile(2, 101, phi="relu", sigma=SQ2)


def test_a_seed_of_any_integer_type_is_the_same_seed():
    a = tc.tied_correction_profile(2, 64, phi="relu", sigma=SQ2, seed=np.uint64(5))
    b = tc.tied_correction_profile(2, 64, phi="relu", sigma=SQ2, seed=5)
    assert a.seed == 5 and type(a.seed) is int and np.array_equal(a.b, b.b) and np.array_equal(a.se, b.se)
