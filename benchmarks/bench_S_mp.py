"""Benchmark: ``S(n, t, method="mp", dps=40)`` between the regimes (issue 32 item 5; the goal: under 1 s for t up to
1e8 at every n).

Side by side in one process, at t = 1e6 and 1e8 over n = 1 .. 1e24 (one decade apart):

* ``mp``: the mp path as shipped. Where the sum has more than ``_S_MP_VIA_BALL_MIN_TERMS`` significant top
  terms it takes the certified ball's midpoint (O(1) in t: 1/n^2 series, supercritical top terms,
  Euler-Maclaurin on the top window) when python-flint is installed;
* ``mp native``: the mpmath-only path (what an install without the ``certified`` extra runs): a top-down sum
  or mpmath's ``sumem`` over the whole range; capped at ``--cap`` seconds (shown as ``>cap``);
* ``ball``: ``method="ball"`` itself;

and whether the two mp values agree to 10^(1-dps) where the native one finished. Target: mp < 1 s everywhere.

    python benchmarks/bench_S_mp.py [--cap 20]
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theory.signal_energy import S  # noqa: E402
from theory.signal_energy import _mp  # noqa: E402

DPS = 40


class _Capped(Exception):
    pass


def _timed(f, cap: float):
    def stop(*_):
        raise _Capped
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, cap)
    t0 = time.perf_counter()
    try:
        out = f()
        return time.perf_counter() - t0, out
    except _Capped:
        return None, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _native(n: int, t: int):
    saved = _mp._S_via_ball
    _mp._S_via_ball = lambda *_: None            # the mpmath-only paths, as without python-flint
    try:
        return S(n, t, method="mp", dps=DPS)
    finally:
        _mp._S_via_ball = saved


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cap", type=float, default=20.0, help="seconds allowed to the native mp path per case")
    cap = ap.parse_args().cap
    worst = 0.0
    print(f"{'t':>6} {'n':>6} {'mp s':>8} {'native s':>9} {'ball s':>8}  agree")
    for t in (10**6, 10**8):
        for e in range(0, 25, 1 if t == 10**8 else 3):
            n = 10**e
            t0 = time.perf_counter()
            v = S(n, t, method="mp", dps=DPS)
            t_mp = time.perf_counter() - t0
            t0 = time.perf_counter()
            S(n, t, method="ball", dps=DPS)
            t_ball = time.perf_counter() - t0
            t_nat, w = _timed(lambda: _native(n, t), cap)
            agree = "-"
            if w is not None:
                with mpmath.workdps(DPS + 10):
                    agree = str(bool(abs(v - w) <= mpmath.mpf(10) ** (1 - DPS) * abs(w)))
            worst = max(worst, t_mp)
            nat = f">{cap:g}" if t_nat is None else f"{t_nat:.3f}"
            print(f"{t:>6.0e} {n:>6.0e} {t_mp:>8.3f} {nat:>9} {t_ball:>8.3f}  {agree}", flush=True)
    ok = worst < 1.0
    print(f"slowest mp: {worst:.3f} s (target < 1 s)  {'MET' if ok else 'MISS'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
