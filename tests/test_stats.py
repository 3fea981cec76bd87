"""numerics.stats: the Bonferroni critical value and the agreement rule (against scipy's normal tail), the runs
tests (against brute-force enumeration of sign orderings) and the optimal 1-d clustering (against every split)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats
from scipy.stats import norm

from numerics.stats import Z_MIN, agreement, kmeans_1d, runs_test, runs_test_normal, z_for_false_alarm
import tiny_inputs as tiny


@pytest.mark.parametrize("p, m", [(1e-6, 1), (1e-6, 2), (1e-6, 10), (1e-6, 1000), (1e-9, 7), (1e-3, 50)])
def test_bonferroni_family_rate(p, m):
    """m two-sided comparisons at z: the union bound m * 2 * P(N > z) equals the family rate p (above the
    floor), computed from the normal survival function (not the quantile the code inverts; 1 - p/(2m) rounds
    to float64 before the inversion, so the agreement is to a relative 1e-6)."""
    z = z_for_false_alarm(p=p, m=m)
    family = m * 2 * norm.sf(z)
    if z > Z_MIN:
        assert abs(family - p) <= 1e-6 * p
    else:
        assert z == Z_MIN and family <= p


def test_bonferroni_grows_with_the_number_of_comparisons():
    zs = [z_for_false_alarm(p=1e-6, m=m) for m in (1, 2, 4, 8, 1000)]
    assert all(a < b for a, b in zip(zs, zs[1:]))
    # doubling m halves the per-comparison tail: 2 P(N > z_2m) = (1/2) 2 P(N > z_m)
    assert abs(norm.sf(z_for_false_alarm(1e-6, 20)) / norm.sf(z_for_false_alarm(1e-6, 10)) - 0.5) < 1e-6


@pytest.mark.parametrize("p, m", [(0.0, 1), (1.0, 1), (1e-6, 0)])
def test_bad_arguments(p, m):
    with pytest.raises(ValueError, match="p|m"):
        z_for_false_alarm(p=p, m=m)


def test_agreement_rule():
    a = agreement(np.array([1.0, 2.0]), np.array([0.1, 0.1]), np.array([1.0, 2.44]), z=4.5)
    assert a.ok and abs(a.max_abs_z - 4.4) < 1e-9
    assert not agreement(np.array([1.0]), np.array([0.1]), np.array([1.5]), z=4.5).ok


def test_agreement_on_a_monte_carlo_row_with_an_exact_first_element():
    """A Monte Carlo row of Q_{n,k}: k = 0 is ||I||_F^2 / n = 1 in every draw, so its se is exactly 0 (issue 44);
    that element agrees exactly, the others within z se of the closed form."""
    from numerics.signal_propagation.ginibre import estimate_Q
    from theory.signal_energy import Q

    est = estimate_Q(6, 4, 400, seed=3)
    exact = [float(Q(6, k, method="exact")) for k in range(5)]
    assert est.se[0] == 0.0 and est.mean[0] == 1.0 and np.all(est.se[1:] > 0)
    a = agreement(est.mean, est.se, exact, z=z_for_false_alarm(m=5))
    assert a.ok and a.zscores[0] == 0.0 and np.all(np.isfinite(a.zscores))
    # an exact element that differs from the exact value disagrees (infinitely many standard errors off)
    b = agreement([1.0, 1.0], [0.0, 0.1], [1.5, 1.0], z=4.5)
    assert not b.ok and b.zscores[0] == -np.inf and b.max_abs_z == np.inf


@pytest.mark.parametrize("est,se,word", [
    ([1.0, 1.0, 1.0], [0.1, 0.1, -0.1], r"se\[2\] = -0.1"),
    ([1.0, 1.0, 1.0], [0.1, float("nan"), 0.1], r"se\[1\] = nan"),
    ([1.0, float("inf"), 1.0], [0.1, 0.1, 0.1], r"estimate\[1\] = inf"),
])
def test_agreement_names_the_bad_element(est, se, word):
    with pytest.raises(ValueError, match=word):
        agreement(est, se, [1.0, 1.0, 1.0], z=4.5)


def test_runs_test_matches_brute_force_enumeration():
    n1, n2 = 4, 5
    counts = {}
    for pos in itertools.combinations(range(n1 + n2), n1):
        s = np.full(n1 + n2, -1)
        s[list(pos)] = 1
        R = 1 + int(np.count_nonzero(s[1:] != s[:-1]))
        counts.setdefault(R, []).append(s)
    total = math.comb(n1 + n2, n1)
    for R, seqs in counts.items():
        lower = sum(len(v) for r, v in counts.items() if r <= R) / total
        upper = sum(len(v) for r, v in counts.items() if r >= R) / total
        assert abs(runs_test(seqs[0]) - min(1.0, 2 * min(lower, upper))) < 1e-15


def test_runs_test_edge_cases():
    assert runs_test([1.0, 2.0, 3.0]) == 1.0
    assert runs_test([1e-12, -1e-12, 1.0, 1.0], zero_tol=1e-9) == 1.0


def test_runs_test_normal_matches_the_exact_moments():
    n1, n2 = 5, 4
    runs = []
    for pos in itertools.combinations(range(n1 + n2), n1):
        s = np.full(n1 + n2, -1.0)
        s[list(pos)] = 1.0
        runs.append(1 + int(np.count_nonzero(s[1:] != s[:-1])))
    mean, var = np.mean(runs), np.var(runs)                         # exact moments by enumeration
    x = np.array([1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0])
    r, z, p = runs_test_normal(x)
    assert r == 6 and abs(z - (6 - mean) / math.sqrt(var)) < 1e-12
    assert abs(p - 2 * stats.norm.sf(abs(z))) < 1e-15
    assert all(math.isnan(v) for v in runs_test_normal([1.0] * 6 + [-1.0]))   # fewer than 8 ...
    assert math.isnan(runs_test_normal(np.ones(9))[2])                         # ... or one sign: no p
    assert runs_test_normal(np.full(9, 1e-11) * (-1) ** np.arange(9)) == (1.0, 0.0, 1.0)   # exact fit


def _brute_kmeans(x, k):
    """Every split of the sorted sample into k contiguous non-empty groups (the optimum is contiguous in 1-d)."""
    x = np.sort(x)
    best = np.inf
    for cuts in itertools.combinations(range(1, x.size), k - 1):
        groups = np.split(x, cuts)
        best = min(best, sum(float(((g - g.mean()) ** 2).sum()) for g in groups))
    return best


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False), min_size=4, max_size=9), st.integers(1, 3))
def test_kmeans_1d_is_optimal(xs, k):
    x = np.array(xs)
    w, lab = kmeans_1d(x, k)
    assert abs(w - _brute_kmeans(x, k)) <= 1e-9 * (1 + abs(w))
    xs_sorted = np.sort(x)                   # the labels describe a partition with that cost
    cost = sum(float(((xs_sorted[lab == c] - xs_sorted[lab == c].mean()) ** 2).sum()) for c in np.unique(lab))
    assert abs(cost - w) <= 1e-9 * (1 + abs(w))


def test_kmeans_1d_bad_input():
    with pytest.raises(ValueError, match="k"):
        kmeans_1d([1.0, 2.0], 0)


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics import stats as numerics_stats

    return [
        (lambda: numerics_stats.kmeans_1d(np.float64(np.nan), 3), ValueError, "x"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


@pytest.mark.parametrize("scale", [1e-300, 1e-160, 1e150])
def test_kmeans_1d_is_scale_free(scale):
    """At 1e160 the squares overflowed: nan and wrong clusters (issue 33)."""
    x = np.array([1.0, 1.1, 5.0, 5.2, 9.0, 9.05])
    w, lab = kmeans_1d(x, 3)
    ws, labs = kmeans_1d(x * scale, 3)
    assert labs.tolist() == lab.tolist() == [0, 0, 1, 1, 2, 2]
    assert abs(ws - w * scale * scale) <= 1e-12 * w * scale * scale


def test_kmeans_1d_offset_does_not_cancel():
    x = np.array([0.0, 1e-8, 1.0, 1.0 + 1e-8])
    assert kmeans_1d(1e8 + x, 2)[1].tolist() == [0, 0, 1, 1]


def test_kmeans_1d_overflowing_sum_of_squares_is_an_error():
    with pytest.raises(ValueError, match="x spans too large a range"):
        kmeans_1d(np.array([1.0, 1.1, 5.0, 9.0]) * 1e160, 2)


@pytest.mark.parametrize("m", [10**9, 10**12, 10**18])
def test_z_for_false_alarm_finite_for_many_comparisons(m):
    """1 - p/(2m) rounded to 1 and gave z = inf at m = 1e12 (issue 33 fuzz): the tail probability is kept."""
    z = z_for_false_alarm(1e-6, m)
    assert math.isfinite(z) and abs(norm.sf(z) / (1e-6 / (2 * m)) - 1) < 1e-9



def test_paired_without_any_difference_says_no_information():
    """paired([]): the documented no-information record (the fuzz's NaN finding is documented, not a defect)."""
    from numerics.stats import paired
    for d in ([], [float("nan")]):
        r = paired(d)
        assert (r.n, r.p_greater, r.p_less, r.lo, r.hi) == (0, 1.0, 1.0, -math.inf, math.inf) and math.isnan(r.median)


def test_paired_interval_at_a_level_equal_to_a_binomial_tail():
    """The order statistic x_(j) is in the interval iff P(Bin(m, 1/2) <= j - 1) <= level, equality included: at
    level 2^-6 and 6 differences the extremes are the interval (one more point of the rule's own edge)."""
    from numerics.stats import paired

    d = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    r = paired(d, level=2.0**-6)                        # P(Bin(6, 1/2) <= 0) = 1/64 = level
    assert (r.lo, r.hi) == (0.1, 0.6)
    r = paired(d, level=math.nextafter(2.0**-6, 0))      # just below: no order statistic qualifies
    assert (r.lo, r.hi) == (-math.inf, math.inf)


def test_bootstrap_interval_is_at_the_asked_level():
    """One cell of 5 seeds [0, 1, 1, 1, 1]: a resample's median is 0 iff 3 or more of its 5 draws are the 0, with
    probability p0 = P(Bin(5, 1/5) >= 3) = 0.0579. At level p0 / 1.5 the lower end is 0 (the mass below is
    p0 > level); a rule at twice the level would read 1 (2 level > p0). 10^4 resamples: both margins are p0/3,
    8 standard errors of an empirical tail mass."""
    from numerics.stats import bootstrap

    p0 = float(stats.binom.sf(2, 5, 0.2))
    level = p0 / 1.5
    est, lo, hi = bootstrap({"a": [0.0, 1.0, 1.0, 1.0, 1.0]}, lambda med: med["a"], level, B=10**4)
    assert (est, lo, hi) == (1.0, 0.0, 1.0)


@pytest.mark.parametrize("vals,q,upper,want", [
    ([1.0, 2.0, math.inf, math.inf, math.inf], 0.99, True, math.inf),      # between two infinities: inf, not NaN
    ([1.0, 2.0, math.inf, math.inf, math.inf], 0.5, False, math.inf),
    ([1.0, 2.0, 3.0, math.inf], 2 / 3, True, 3.0),                         # at an order statistic exactly: it
    ([1.0, 2.0, math.inf], 0.75, True, math.inf),                          # finite to inf: inf (numpy: NaN)
    ([1.0, 2.0, math.inf], 0.75, False, math.inf),
    ([1.0, 2.0, math.inf], 0.6, False, math.inf),                          # numpy's own answer, kept
    ([-math.inf, 1.0, 2.0], 0.25, True, -math.inf),                        # numpy's own answer, kept
    ([-math.inf, -math.inf, 1.0, 2.0], 0.01, False, -math.inf),
    ([-math.inf, math.inf], 0.5, True, math.inf),                          # -inf to inf: the outer one
    ([-math.inf, math.inf], 0.5, False, -math.inf),
])
def test_interval_quantile_next_to_an_infinity(vals, q, upper, want):
    """numpy's linear quantile returns NaN next to an infinity (inf - inf, or inf * 0 at an exact order statistic);
    percentile_interval's ends take the extended-arithmetic interpolation there (numpy's answer where it has one)."""
    from numerics.stats import _quantile
    with np.errstate(invalid="ignore"):
        assert math.isnan(np.quantile(np.array(vals), q)) or want == np.quantile(np.array(vals), q)
    assert _quantile(np.array(vals), q, upper=upper) == want


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=30), st.floats(0.001, 0.999))
@settings(max_examples=200, deadline=None)
def test_interval_quantile_is_numpys_on_finite_values(vals, q):
    from numerics.stats import _quantile
    for upper in (False, True):
        assert _quantile(np.array(vals), q, upper=upper) == float(np.quantile(np.array(vals), q))


def test_percentile_interval_of_a_statistic_infinite_on_some_replicates():
    """A risk that is infinite on most replicates (the model cannot fit one mixture): the interval is [1, inf],
    never NaN (its upper end was NaN before 2026-12-06)."""
    from numerics.stats import percentile_interval
    reps = [{"a": 1.0}] * 3 + [{"a": math.inf}] * 7
    est, lo, hi = percentile_interval(lambda med: med["a"], {"a": math.inf}, reps, 0.1)
    assert (est, lo, hi) == (math.inf, 1.0, math.inf)


# --- issue 43: silently wrong statistics of the outside fuzz (each failed before the fix) ----------------------
def test_mwu_refuses_none_and_drops_nan():
    """mwu(None, y) was nan: numpy reads None as NaN. NaN marks a missing value (dropped, as in paired)."""
    from numerics.stats import mwu
    with pytest.raises(TypeError, match="^x must be"):
        mwu(None, [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="^y must be"):
        mwu([1.0, 2.0], [1.0, None])
    x, y = [3.0, 4.0, 5.0, 6.0], [1.0, 2.0, 3.5]
    assert mwu(x + [math.nan], y) == mwu(x, y) == stats.mannwhitneyu(x, y, alternative="greater").pvalue
    with pytest.raises(ValueError, match="at least one value"):
        mwu([math.nan], y)


def test_runs_test_refuses_no_residuals():
    """runs_test([]) returned p = 1.0 as if a fit had been tested; one residual is the documented no-information 1.0."""
    with pytest.raises(ValueError, match=r"^residuals must hold at least 1 value, got 0"):
        runs_test(np.array([]))
    assert runs_test([0.5]) == 1.0


def test_paired_takes_a_sequence_not_a_scalar():
    """paired(nan) / paired(inf): a scalar read as a sample of one (the empty sample stays documented)."""
    from numerics.stats import paired
    for bad in (math.nan, math.inf, np.array(0.5)):
        with pytest.raises(TypeError, match=r"^d must be a sequence"):
            paired(bad)
    assert paired([math.inf] * 3).n == 3
