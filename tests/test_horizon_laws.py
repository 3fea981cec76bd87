"""The horizon tool with an initialisation law: init= (theory.horizon, numerics.signal_propagation.horizon_mc) and
``seqtheory horizon ... --init`` (seqtheory.cli.horizon).

References: exact rationals on the law's rows (the deviation at sigma of every depth, computed here from
theory.init_laws.rows.law_P, not from the solver), the Gaussian path (init="gaussian" is the real field), Monte Carlo
of the scaled recurrence (simulate_energies with init=, z-test), and the one-line refusals.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import numerics.signal_propagation.horizon_mc as hmc
from numerics.stats import z_for_false_alarm
from seqtheory.cli.horizon import main
from theory import horizon as th
from theory.init_laws.rows import law_P


def exact_dev(n, t, sigma, quantity, law):
    """max_j |p_j(sigma) - 1| from the exact rows (floats from exact energies)."""
    s2 = Fraction(sigma) ** 2
    acc, dev = Fraction(0), 0.0
    for j in range(t + 1):
        q = law_P(n, j, law) / Fraction(n) ** (j + 1)
        term = s2**j * q
        acc += term
        p = term if quantity == "Q" else acc / (j + 1)
        dev = max(dev, abs(float(p) - 1))
    return dev


@pytest.mark.parametrize("law", ["uniform", "rademacher", "sparse:0.05", "moments:2,7,30,150"])
@pytest.mark.parametrize("quantity", ["Q", "S"])
def test_sigma_on_the_rows_is_the_minimax_of_the_exact_deviation(law, quantity):
    n, t, tol = 12, 6 if law.startswith("moments") else 8, 0.3
    t = min(t, 5) if law.startswith("moments") else t
    r = th.sigma_for_horizon(n, t, tol, quantity=quantity, init=law)
    assert r.init is not None and r.field == "real"
    dev = exact_dev(n, t, r.sigma, quantity, law)
    assert abs(dev - r.deviation) < 1e-9
    for s in (r.sigma * 0.995, r.sigma * 1.005):               # a minimum: moving sigma makes it worse
        assert exact_dev(n, t, s, quantity, law) >= dev - 1e-12


def test_gaussian_init_is_the_real_field():
    a = th.sigma_for_horizon(256, 30, 0.05, quantity="Q", init="gaussian")
    b = th.sigma_for_horizon(256, 30, 0.05, quantity="Q", field="real")
    assert abs(a.sigma - b.sigma) < 1e-12
    assert th.depth_for_scale(256, 1.0, 0.05, quantity="Q", init="gaussian") == th.depth_for_scale(
        256, 1.0, 0.05, quantity="Q", field="real")


def test_depth_on_the_rows_is_the_first_exact_violation():
    for law in ("uniform", "rademacher", "sparse:0.3"):
        for n in (4, 9, 16):
            d = th.depth_for_scale(n, 1.0, 0.2, quantity="Q", init=law)
            assert exact_dev(n, d, 1.0, "Q", law) <= 0.2 < exact_dev(n, d + 1, 1.0, "Q", law)
            assert hmc.depth_with_se(n, 1.0, 0.2, quantity="Q", init=law)["depth"] == d


def test_student_6_energy_is_infinite_from_depth_3():
    with pytest.raises(ValueError, match=r"^init=student:6: the mean energy .* infinite from depth 3 on") as info:
        th.sigma_for_horizon(1024, 5, 0.05, init="student:6")
    assert "\n" not in str(info.value)
    assert th.sigma_for_horizon(1024, 2, 0.05, init="student:6").feasible
    assert th.depth_for_scale(1024, 1.0, 0.05, quantity="Q", init="student:6") == 2
    d = hmc.depth_with_se(1024, 1.0, 0.05, quantity="Q", init="student:6", method="mc")
    assert d["depth"] == 2 and "infinite from depth 3" in d["note"]
    assert th.max_horizon(1024, 0.05, quantity="Q", init="student:6")[0] == 2


def test_refusals_name_the_argument():
    with pytest.raises(ValueError, match="takes method='float' only"):
        th.sigma_for_horizon(64, 5, 0.1, init="uniform", method="mp")
    with pytest.raises(ValueError, match="init must be a law"):
        th.sigma_for_horizon(64, 5, 0.1, init="cauchy")
    with pytest.raises(ValueError, match=r"^init=sparse:0.05: its energies at n=200 are served to depth"):
        th.sigma_for_horizon(200, 40, 0.1, quantity="Q", init="sparse:0.05")
    with pytest.raises(ValueError, match="method='float' only"):
        th.depth_for_scale(64, 1.0, 0.1, init="uniform", method="exact")


def test_mc_sigma_beyond_the_rows_and_the_simulator():
    r = hmc.sigma_for_horizon(48, 14, 0.2, quantity="Q", init="rademacher", method="mc", samples=256, batches=8, seed=3)
    assert r.method == "mc" and r.init == "rademacher" and "Monte Carlo beyond" in r.source and r.se
    # the scaled recurrence with iid Rademacher weights: E p_2 = sigma^4 Q_{n,2} = sigma^4 exactly
    mean, se = hmc.simulate_energies(16, 0.9, 3, 400, quantity="Q", init="rademacher", seed=5)
    assert abs(mean[2] - 0.9**4) <= z_for_false_alarm() * se[2]
    mean, se = hmc.simulate_energies(16, 1.0, 3, 400, quantity="S", init="uniform", seed=6)
    exact = float(sum(law_P(16, k, "uniform") / Fraction(16) ** (k + 1) for k in range(3)) / 3)
    assert abs(mean[2] - exact) <= z_for_false_alarm() * se[2]


# --------------------------------------------------------------------------------------------------
# the command line
# --------------------------------------------------------------------------------------------------
def test_cli_init_is_the_api_answer(capsys):
    assert main(["sigma", "--n", "12", "--t", "7", "--tol", "0.3", "--quantity", "Q", "--init", "uniform", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    r = th.sigma_for_horizon(12, 7, 0.3, quantity="Q", init="uniform")
    assert out["sigma"] == r.sigma and out["init"] == "uniform" and out["field"] == "real"
    assert main(["depth", "--n", "9", "--sigma", "1", "--tol", "0.2", "--quantity", "Q", "--init", "rademacher",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["depth"] == th.depth_for_scale(9, 1.0, 0.2, quantity="Q", init="rademacher") == out["depth_glorot"]
    assert main(["sigma", "--n", "12", "--t", "7", "--tol", "0.3", "--quantity", "Q", "--init", "sparse:0.3"]) == 1
    out = capsys.readouterr().out                        # infeasible: exit 1, and what to change
    assert out.startswith("No weight scale keeps") and "(iid sparse:0.3 weights)" in out and "raise --tol" in out


def test_cli_table_init(capsys):
    assert main(["table", "--n", "16", "--tol", "0.3", "--quantity", "Q", "--init", "rademacher", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == th.glorot_table([16], 0.3, quantity="Q", init="rademacher")


def test_cli_student_6_is_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        main(["sigma", "--n", "1024", "--t", "20", "--tol", "0.05", "--init", "student:6"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1
    assert "--init student:6: the mean energy E||W^j x||^2 is infinite from depth 3 on" in err
    assert main(["depth", "--n", "1024", "--sigma", "1", "--tol", "0.05", "--init", "student:6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("depth t = 2:") and "infinite from depth 3 on for student:6" in out


def test_cli_bad_init(capsys):
    with pytest.raises(SystemExit) as e:
        main(["sigma", "--n", "64", "--t", "5", "--tol", "0.1", "--init", "sparse:2"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--init" in err and "p must be in (0, 1]" in err and err.count("\n") == 1
