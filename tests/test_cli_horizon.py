"""``seqtheory horizon`` (seqtheory.cli.horizon): its JSON is the library's answer (theory.horizon for complex
weights, numerics.signal_propagation.horizon_mc for real ones), and bad input is one line, exit status 2."""

from __future__ import annotations

import json
import re

import pytest

import numerics.signal_propagation.horizon_mc as hmc
from seqtheory.cli.horizon import main
from theory.horizon import depth_for_scale, sigma_for_horizon
from test_horizon import exact_dev   # the exact rational reference
from theory.real_rows import real_energies
from theory.regimes import breakdown_depth


def test_cli_json(capsys):
    assert main(["sigma", "--quantity", "Q", "--n", "1024", "--t", "40", "--tol", "0.05", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    r = sigma_for_horizon(1024, 40, 0.05, quantity="Q")
    assert out["sigma"] == r.sigma and out["feasible"] is True and out["se"] == {}
    assert main(["depth", "--quantity", "Q", "--n", "1000", "--sigma", "1.0", "--tol", "0.03", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["depth"] == breakdown_depth(1000, 0.03, quantity="Q") - 1 == out["depth_glorot"]
    assert main(["table", "--n", "256", "1024", "--tol", "0.05", "--quantity", "S", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["n"] for r in rows] == [256, 1024]
    assert main(["sigma", "--quantity", "Q", "--n", "64", "--t", "8", "--tol", "0.05", "--method", "mp", "--dps", "30"]) == 0
    assert "sigma = 0." in capsys.readouterr().out
    assert main(["sigma", "--quantity", "Q", "--n", "16", "--t", "5", "--tol", "0.1", "--field", "real", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["field"] == "real"


def test_cli_bad_input(capsys):
    with pytest.raises(SystemExit) as e:
        main(["sigma", "--quantity", "Q", "--n", "16", "--t", "5", "--tol", "2"])
    assert e.value.code == 2 and "tol" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["sigma", "--quantity", "Q", "--n", "16", "--t", "5", "--tol", "0.1", "--field", "quaternion"])
    assert e.value.code == 2 and "--field" in capsys.readouterr().err


def test_cli_real_depth(capsys):
    assert main(["depth", "--quantity", "Q", "--n", "64", "--sigma", "1.0", "--tol", "0.05", "--field", "real", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["depth"] == hmc.depth_with_se(64, 1.0, 0.05, field="real", quantity="Q")["depth"] == out["depth_glorot"]


def test_theory_cli_real_sigma_is_the_api_answer(capsys):
    r = sigma_for_horizon(12, 7, 0.1, field="real", quantity="Q")
    assert main(["sigma", "--quantity", "Q", "--n", "12", "--t", "7", "--tol", "0.1", "--field", "real", "--json"]) == (0 if r.feasible else 1)
    out = json.loads(capsys.readouterr().out)
    assert out["sigma"] == r.sigma and abs(exact_dev(12, 7, r.sigma, "Q", real_energies(12, 7)) - out["deviation"]) < 1e-12


def test_cli_real_sigma_past_the_expansion_is_one_line_naming_the_domain(capsys):
    with pytest.raises(SystemExit) as e:
        main(["sigma", "--quantity", "Q", "--n", "16", "--t", "200", "--tol", "0.1", "--field", "real"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and err.startswith("seqtheory horizon: error:")
    assert "--t must be <= 60 at --n 16" in err and "c = 50" in err, err


def test_cli_real_depth_beyond_the_rows_uses_the_expansion(capsys):
    # sigma = 0.99 violates tol before depth 60 at n = 1e6; Glorot's depth comes from the large-n expansion
    assert main(["depth", "--quantity", "Q", "--n", "1000000", "--sigma", "0.99", "--tol", "0.3", "--field", "real", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["depth"] == depth_for_scale(10**6, 0.99, 0.3, field="real", method="exact", quantity="Q")
    assert out["depth_glorot"] == depth_for_scale(10**6, 1.0, 0.3, field="real", quantity="Q") > 60 > out["depth"]


def test_an_infeasible_target_answers_first_and_says_what_to_change(capsys):
    # issue 30: a raw field dump with exit 0 and no hint; now the answer first, what to change, exit status 1
    assert main(["sigma", "--quantity", "Q", "--n", "4096", "--t", "100", "--tol", "0.02"]) == 1
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    r = sigma_for_horizon(4096, 100, 0.02, quantity="Q")
    assert not r.feasible and first.startswith("No weight scale keeps Q within tol = 0.02")
    from theory.horizon import max_horizon

    t_max = max_horizon(4096, 0.02, quantity="Q")[0]
    least = float(re.search(r"raise --tol to at least ([\d.e-]+),", out).group(1))
    assert r.deviation <= least < r.deviation * (1 + 1e-5)            # rounded up: that tol is feasible
    assert sigma_for_horizon(4096, 100, least, quantity="Q").feasible and f"shorten --t to at most {t_max}" in out
    assert "= None" not in out and "se = {}" not in out
    assert sigma_for_horizon(4096, t_max, 0.02, quantity="Q").feasible and not sigma_for_horizon(4096, t_max + 1, 0.02, quantity="Q").feasible


def test_a_feasible_answer_is_a_sentence_with_the_scale_first(capsys):
    assert main(["sigma", "--quantity", "Q", "--n", "1024", "--t", "40", "--tol", "0.05"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"sigma = {sigma_for_horizon(1024, 40, 0.05, quantity='Q').sigma:.6g} keeps Q within tol = 0.05 of 1 up to depth t = 40 at width n = 1024 (complex weights)."
    assert main(["depth", "--quantity", "Q", "--n", "1000", "--sigma", "1.0", "--tol", "0.03"]) == 0
    assert capsys.readouterr().out.startswith(f"depth t = {breakdown_depth(1000, 0.03, quantity='Q') - 1}: ")


def test_the_method_echo_is_what_ran(capsys, monkeypatch):
    # mc within the exact rows' reach: no Monte Carlo runs, and the answer says so (was: silently ignored)
    monkeypatch.setattr(hmc, "mc_energies", lambda *a, **k: pytest.fail("no Monte Carlo is needed at t <= 60"))
    assert main(["sigma", "--quantity", "Q", "--n", "64", "--t", "14", "--tol", "0.2", "--field", "real", "--method", "mc",
                 "--json"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "exact" and "no Monte Carlo needed" in out["source"]
    # complex weights by Monte Carlo: echoed as mc (was: method = float)
    monkeypatch.undo()
    assert hmc.sigma_for_horizon(4, 3, 0.3, method="mc", samples=64, batches=4, quantity="Q").method == "mc"


def test_one_name_one_meaning():
    import seqtheory
    from theory.horizon import depth_for_scale as theory_depth

    assert seqtheory.depth_for_scale is theory_depth and isinstance(seqtheory.depth_for_scale(4, 1.0, 0.3, quantity="Q"), int)
    assert not hasattr(hmc, "depth_for_scale")          # the dict-returning one has its own name
    assert isinstance(seqtheory.depth_with_se(4, 1.0, 0.3, field="real", quantity="Q"), dict)
    assert "horizon" not in seqtheory.__all__ and seqtheory.tauberian_horizon.__module__ == "theory.tauberian"


def test_the_default_quantity_is_S_as_in_the_api_vocabulary(capsys):
    # issue 44: quantity defaults to "S" everywhere (the command line passes it explicitly to the library)
    assert main(["sigma", "--n", "1024", "--t", "40", "--tol", "0.05", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["quantity"] == "S" and out["sigma"] == sigma_for_horizon(1024, 40, 0.05, quantity="S").sigma


def test_an_infeasible_target_never_advises_a_tol_of_1_or_more(capsys):
    # issue 44: "raise --tol to at least 1" although tol must be below 1
    r = sigma_for_horizon(4, 100, 0.05, quantity="Q")
    assert not r.feasible and r.deviation >= 1 - 1e-12
    assert main(["sigma", "--quantity", "Q", "--n", "4", "--t", "100", "--tol", "0.05"]) == 1
    out = capsys.readouterr().out
    assert "--tol" not in out and "shorten --t to at most" in out
    r = sigma_for_horizon(4096, 100, 0.02, quantity="Q")       # just inside: a deviation below 1 is advice
    assert r.deviation < 1 and not r.feasible
    assert main(["sigma", "--quantity", "Q", "--n", "4096", "--t", "100", "--tol", "0.02"]) == 1
    assert "raise --tol to at least" in capsys.readouterr().out


@pytest.mark.parametrize("field,method,ok", [("complex", "float", True), ("complex", "exact", True),
                                              ("complex", "mc", False), ("real", "float", True),
                                              ("real", "exact", True), ("real", "mc", True)])
def test_depth_runs_the_method_it_is_given(field, method, ok, capsys):
    """Every --method that `horizon depth --help` offers runs for the field it names and is refused, naming
    both flags, for the other (was: --method mc offered, then 'invalid choice'; real weights ignored it)."""
    argv = ["depth", "--n", "16", "--sigma", "1.0", "--tol", "0.2", "--field", field, "--method", method, "--json"]
    if not ok:
        with pytest.raises(SystemExit) as e:
            main(argv)
        err = capsys.readouterr().err
        assert e.value.code == 2 and "--method mc" in err and "--field real" in err, err
        return
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    expect = (depth_for_scale(16, 1.0, 0.2, quantity="S", field=field, method="float" if method == "mc" else method)
              if method != "mc" else hmc.depth_with_se(16, 1.0, 0.2, quantity="S", field=field, method="mc")["depth"])
    assert out["depth"] == expect and out["field"] == field
