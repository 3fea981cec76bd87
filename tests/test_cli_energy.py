"""``seqtheory energy`` (seqtheory.cli.energy): values against independent references, one-line errors, --json,
integer literals, huge exact results, bounded precision and up-front cost notices."""

from __future__ import annotations

import subprocess
import sys

import mpmath
import pytest

from test_signal_energy import ref_Q, ref_S   # independent product-formula references
from seqtheory.cli.energy import main


def field(out: str, name: str) -> str:
    line = next(l for l in out.splitlines() if l.startswith(name + " = "))
    return line.split(" = ", 1)[1].split()[0]


def test_issue_example_50_digits(capsys):
    assert main(["--n", "1024", "--t", "64", "--dps", "50"]) == 0
    out = capsys.readouterr().out
    q = ref_Q(1024, 64)
    s = ref_S(1024, 64)
    with mpmath.workdps(60):
        for name, exact in (("Q_{n,t}", q), ("S_{n,t}", s)):
            text = field(out, name)
            assert len(text.replace(".", "")) >= 50
            assert abs(mpmath.mpf(text) - mpmath.mpf(exact.numerator) / exact.denominator) <= mpmath.mpf(10) ** -48
    assert field(out, "c") == "t/sqrt(n)" and "= 2.0" in out
    assert "regime = critical" in out


def test_exact_and_float(capsys):
    main(["--n", "4", "--t", "3", "--method", "exact"])
    out = capsys.readouterr().out
    assert field(out, "Q_{n,t}") == "21/16" and field(out, "S_{n,t}") == "35/8"
    main(["--n", "4", "--t", "3"])
    out = capsys.readouterr().out
    assert float(field(out, "Q_{n,t}")) == 1.3125 and "regime = critical" in out


def test_overflow_prints_log(capsys):
    main(["--n", "10", "--t", "2000"])
    out = capsys.readouterr().out
    assert "exp(" in out and "regime = supercritical" in out


@pytest.mark.parametrize("argv,msg", [
    (["--n", "0", "--t", "3"], "--n"),
    (["--n", "4.5", "--t", "3"], "--n"),
    (["--n", "4", "--t", "-1"], "--t"),
    (["--n", "4", "--t", "3", "--dps", "0"], "--dps"),
    (["--n", "4", "--t", "3", "--method", "exact", "--dps", "9"], "--dps"),
    (["--n", "4", "--t", "3", "--method", "fast"], "--method"),
    (["--t", "3"], "--n"),
    ([], "--n"),
])
def test_bad_arguments_exit_2_with_message(argv, msg, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert msg in capsys.readouterr().err


def test_module_entry_point():
    proc = subprocess.run([sys.executable, "-m", "seqtheory", "energy", "--n", "1024", "--t", "8"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "regime = subcritical" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "seqtheory", "energy", "--n", "x", "--t", "8"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--n" in bad.stderr


# --- scripting: --json, integer literals, huge exact results, bounded precision, up-front notices ---------

import json
from decimal import Decimal
from fractions import Fraction

from theory._args import MAX_DPS
from seqtheory.cli._parser import parse_int
from seqtheory.cli.energy import MAX_EXACT_DIGITS
import tiny_inputs as tiny


def test_json_is_one_object_with_every_field(capsys):
    assert main(["--n", "4", "--t", "3", "--method", "exact", "--json"]) == 0
    out = capsys.readouterr().out
    obj = json.loads(out)                                  # the whole output is one JSON object
    assert set(obj) == {"n", "t", "method", "dps", "Q", "S", "Q_infinite_width", "S_infinite_width", "c", "regime"}
    # exact values: {"numerator", "denominator"}, JSON integers (seqtheory.cli._json)
    assert Fraction(obj["Q"]["numerator"], obj["Q"]["denominator"]) == ref_Q(4, 3)
    assert Fraction(obj["S"]["numerator"], obj["S"]["denominator"]) == ref_S(4, 3)
    assert (obj["n"], obj["t"], obj["method"], obj["dps"]) == (4, 3, "exact", None)
    assert (obj["Q_infinite_width"], obj["S_infinite_width"], obj["c"], obj["regime"]) == (1, 4, 1.5, "critical")


def test_json_mp_keeps_every_digit_and_float_overflow_gives_log(capsys):
    main(["--n", "1024", "--t", "64", "--dps", "40", "--json"])
    obj = json.loads(capsys.readouterr().out, parse_float=Decimal)     # an mp value: a number literal
    assert obj["dps"] == 40 and isinstance(obj["Q"], Decimal) and len(obj["Q"].as_tuple().digits) == 40
    exact = ref_Q(1024, 64)
    with mpmath.workdps(50):
        assert abs(mpmath.mpf(str(obj["Q"])) - mpmath.mpf(exact.numerator) / exact.denominator) <= mpmath.mpf(10) ** -38
    main(["--n", "10", "--t", "2000", "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert obj["Q"] is None and obj["log_Q"] > 709 and obj["regime"] == "supercritical"


def test_float_overflow_logs_are_the_logs_of_the_exact_energies(capsys):
    """Past float64 both energies are printed as their natural logs: log Q and log S, each against the exact
    Fraction of Theorem 2.1 (products; S summed term by term) taken at 30 digits."""
    main(["--n", "10", "--t", "400", "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert obj["Q"] is None and obj["S"] is None
    for name, exact in (("log_Q", ref_Q(10, 400)), ("log_S", ref_S(10, 400))):
        with mpmath.workdps(30):
            want = float(mpmath.log(mpmath.mpf(exact.numerator)) - mpmath.log(mpmath.mpf(exact.denominator)))
        assert abs(obj[name] - want) <= 1e-14 * want, name


@pytest.mark.parametrize("text,value", [("1e18", 10**18), ("10**18", 10**18), ("1_000", 1000), ("2.5e3", 2500),
                                        ("64", 64), (" 2 ** 10 ", 1024)])
def test_integer_literals(text, value):
    assert parse_int(text) == value


@pytest.mark.parametrize("text", ["1.5", "1e-3", "nan", "inf", "x", "10**99999", "1e99999", "2**", "1__0", "_10", "10_",
                                  "1_e3"])
def test_integer_literals_rejected(text):
    with pytest.raises(ValueError):
        parse_int(text)


def test_n_in_scientific_and_power_notation(capsys):
    main(["--n", "1e18", "--t", "10**6", "--json"])
    a = json.loads(capsys.readouterr().out)
    assert a["n"] == 10**18 and a["t"] == 10**6 and a["regime"] == "subcritical"
    with pytest.raises(SystemExit) as exc:
        main(["--n", "1.5e0", "--t", "3"])
    assert exc.value.code == 2 and "--n" in capsys.readouterr().err


def test_huge_exact_result_is_one_clear_line(capsys):
    # n = 10**6, t = 3000: numerator and denominator of ~16,600 digits each (past CPython's 4300-digit guard)
    assert main(["--n", "10**6", "--t", "3000", "--method", "exact"]) == 0
    out = capsys.readouterr().out
    q_line = next(l for l in out.splitlines() if l.startswith("Q_{n,t} = "))
    assert "not printed" in q_line and "--method mp" in q_line and len(q_line) < 300
    exact = ref_Q(10**6, 3000)

    assert _digit_count(exact.numerator) == int(q_line.split("-digit numerator")[0].split()[-1])


def _digit_count(x: int) -> int:
    # counts by repeated division in chunks, so the test does not rely on CPython's int -> str limit
    d, x = 0, abs(x)
    while x >= 10**100:
        x //= 10**100
        d += 100
    while x:
        x //= 10
        d += 1
    return max(d, 1)


def test_exact_result_past_4300_digits_is_printed_in_full(capsys):
    # n = 10**6, t = 1000: ~6,000 digits each side, under MAX_EXACT_DIGITS: printed, and the guard restored
    before = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    main(["--n", "10**6", "--t", "1000", "--method", "exact"])
    out = capsys.readouterr().out
    text = field(out, "Q_{n,t}")
    num, den = text.split("/")
    exact = ref_Q(10**6, 1000)
    assert _digit_count(exact.numerator) + _digit_count(exact.denominator) <= MAX_EXACT_DIGITS
    assert len(num) == _digit_count(exact.numerator) > 4300
    assert int(num[-50:]) == exact.numerator % 10**50 and int(den[-50:]) == exact.denominator % 10**50
    if before is not None:
        assert sys.get_int_max_str_digits() == before


def test_dps_has_an_upper_bound(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--n", "4", "--t", "3", "--dps", "100000000"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--dps" in err and str(MAX_DPS) in err


def test_long_ball_sum_announces_its_cost(capsys):
    # c = t / sqrt(n) = 26 at 300 digits: past the series (G > 400 terms), short of the supercritical top terms
    # and of the Euler-Maclaurin window (its cut 26.5 sqrt(n) is past t): the ball sums every term
    from seqtheory.cli.energy import _notice
    assert _notice("ball", 1_778_279_410, 1_100_000, 300).startswith("note: --method ball sums t + 1 = 1.1e+06")
    assert _notice("ball", 1_778_279_410, 1_100_000, 40) is None            # 40 digits: Euler-Maclaurin
    # subcritical (c = 0.0011) and critical (c = 1.1) long sums take the series, O(1) in t: no notice
    for n, regime in (("10**18", "subcritical"), ("10**12", "critical")):
        assert main(["--n", n, "--t", "1100000", "--method", "ball", "--dps", "20"]) == 0
        captured = capsys.readouterr()
        assert captured.err == "" and f"regime = {regime}" in captured.out
    main(["--n", "10**18", "--t", "1000", "--method", "ball", "--dps", "20"])
    assert capsys.readouterr().err == ""


def test_doctests():
    import doctest

    import importlib

    assert doctest.testmod(importlib.import_module("seqtheory.cli._parser"), raise_on_error=False).failed == 0


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def test_theory_cli_huge_integer():
    proc, _ = tiny.cli(["-m", "seqtheory", "energy", "--n", "1e1000", "--t", "5"])
    tiny.one_line(proc, "n must be")


def test_an_exact_refusal_comes_before_any_promise_of_a_long_run(capsys):
    # issue 30: "this takes a while" was printed, then the exact path refused
    with pytest.raises(SystemExit) as e:
        main(["--n", "1e18", "--t", "1e6", "--method", "exact"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "takes a while" not in err and "--method mp" in err


def test_the_mp_default_is_the_apis(capsys):
    import mpmath

    from theory.signal_energy import Q

    main(["--n", "1024", "--t", "64", "--method", "mp", "--json"])
    obj = json.loads(capsys.readouterr().out, parse_float=Decimal)
    assert obj["dps"] == mpmath.mp.dps == 15
    assert obj["Q"] == Decimal(mpmath.nstr(Q(1024, 64, method="mp"), mpmath.mp.dps))


def test_costly_computations_are_refused_up_front(capsys):
    """--dps 100000 took 61 s (issue 33): refused before any work, naming --dps and the limit; the override
    flag lifts it (checked on a cheap case: the limit, not the work)."""
    with pytest.raises(SystemExit) as exc:
        main(["--n", "12", "--t", "10", "--dps", "100000"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--dps 100000" in err and "--max-seconds 60" in err and err.count("\n") == 1
    with pytest.raises(SystemExit):
        main(["--n", "12", "--t", "10", "--dps", "30000", "--max-seconds", "1"])
    assert "--max-seconds 1" in capsys.readouterr().err
    assert main(["--n", "12", "--t", "10", "--dps", "50", "--max-seconds", "1"]) == 0


@pytest.mark.parametrize("method", ["mp", "ball"])
def test_the_precision_cost_limit_applies_to_every_precision_method(method, capsys):
    """--dps 100000 is refused up front by --method ball as by mp (issue 43: the ball path once skipped it)."""
    with pytest.raises(SystemExit) as exc:
        main(["--n", "12", "--t", "10", "--dps", "100000", "--method", method])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--dps 100000" in err and "--max-seconds 60" in err and err.count("\n") == 1


@pytest.mark.parametrize("value", ["nan", "0", "-1", "-inf"])
def test_max_seconds_must_be_a_positive_number(value, capsys):
    """--max-seconds nan meant no limit at all (issue 43); refused as by memory-report, one line, exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(["--n", "12", "--t", "10", "--max-seconds", value])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--max-seconds" in err and err.count("\n") == 1


def test_mp_prints_correct_digits_at_huge_t(capsys):
    """`energy --n 12 --t 10**30 --method mp --dps 20` printed 20 digits of a value 4% wrong (issue 33)."""
    main(["--n", "12", "--t", "10**30", "--method", "mp", "--dps", "20", "--json"])
    # a number literal of exponent 2.8e31, beyond Decimal's 1e18: read as text, then by mpmath
    out = json.loads(capsys.readouterr().out, parse_float=str)
    import flint
    with flint.ctx.workprec(400):
        n, m = flint.arb(12), 10**30 + 2
        ref = n * (flint.arb(12 + m).lgamma() - n.lgamma() - m * n.log()).exp() / ((m - 1) * m)
    with mpmath.workdps(60):
        q = mpmath.mpf(out["Q"])
        man, e = ref.mid().man_exp()
        r = mpmath.mpf((int(man), int(e)))
        assert abs(q - r) <= mpmath.mpf(10) ** -19 * r
