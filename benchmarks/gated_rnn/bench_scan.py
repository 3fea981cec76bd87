"""Speed of the hand-written BPTT scan against autograd through the one-step recurrence, side by side.

    python benchmarks/gated_rnn/bench_scan.py

Prints, for the cpu-sweep shapes, seconds per forward+backward of each and their ratio (same process,
same thread count, interleaved repetitions; the minimum over repetitions is reported).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

from numerics.anticollapse.gated.gated_rnn import build_gated_rnn  # noqa: E402


def _autograd_loop(m, x):
    h = x.new_zeros(x.shape[0], m.hidden)
    hs = []
    for t in range(x.shape[1]):
        h = m.step(x[:, t], h)
        hs.append(h)
    return m.readout(torch.stack(hs, 1))


def _time(fn, reps=5):
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    torch.manual_seed(0)
    print(f"threads {torch.get_num_threads()}")
    print(f"{'arch':7s} {'H':>4s} {'T':>4s} {'B':>3s} {'scan s':>9s} {'autograd s':>11s} {'ratio':>6s}")
    for arch in ("const", "shared", "diag"):
        for H, T, B in ((64, 256, 32), (128, 256, 32)):
            m = build_gated_rnn(arch, 16, H, init_s=0.025)
            x = torch.randn(B, T, 16)

            def scan():
                m.zero_grad()
                m(x).pow(2).mean().backward()

            def loop():
                m.zero_grad()
                _autograd_loop(m, x).pow(2).mean().backward()

            a, b = _time(scan), _time(loop)
            print(f"{arch:7s} {H:4d} {T:4d} {B:3d} {a:9.4f} {b:11.4f} {b / a:6.2f}")


if __name__ == "__main__":
    main()
