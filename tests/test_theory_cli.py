"""Tests of the command line ``python -m theory energy``."""

from __future__ import annotations

import subprocess
import sys

import mpmath
import pytest

from test_signal_energy import ref_Q, ref_S   # independent product-formula references
from theory.__main__ import main


def field(out: str, name: str) -> str:
    line = next(l for l in out.splitlines() if l.startswith(name + " = "))
    return line.split(" = ", 1)[1].split()[0]


def test_issue_example_50_digits(capsys):
    assert main(["energy", "--n", "1024", "--t", "64", "--dps", "50"]) == 0
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
    main(["energy", "--n", "4", "--t", "3", "--method", "exact"])
    out = capsys.readouterr().out
    assert field(out, "Q_{n,t}") == "21/16" and field(out, "S_{n,t}") == "35/8"
    main(["energy", "--n", "4", "--t", "3"])
    out = capsys.readouterr().out
    assert float(field(out, "Q_{n,t}")) == 1.3125 and "regime = critical" in out


def test_overflow_prints_log(capsys):
    main(["energy", "--n", "10", "--t", "2000"])
    out = capsys.readouterr().out
    assert "exp(" in out and "regime = supercritical" in out


@pytest.mark.parametrize("argv,msg", [
    (["energy", "--n", "0", "--t", "3"], "--n"),
    (["energy", "--n", "4.5", "--t", "3"], "--n"),
    (["energy", "--n", "4", "--t", "-1"], "--t"),
    (["energy", "--n", "4", "--t", "3", "--dps", "0"], "--dps"),
    (["energy", "--n", "4", "--t", "3", "--method", "exact", "--dps", "9"], "--dps"),
    (["energy", "--n", "4", "--t", "3", "--method", "fast"], "--method"),
    (["energy", "--t", "3"], "--n"),
    ([], "COMMAND"),
])
def test_bad_arguments_exit_2_with_message(argv, msg, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert msg in capsys.readouterr().err


def test_module_entry_point():
    proc = subprocess.run([sys.executable, "-m", "theory", "energy", "--n", "1024", "--t", "8"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "regime = subcritical" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "theory", "energy", "--n", "x", "--t", "8"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--n" in bad.stderr
