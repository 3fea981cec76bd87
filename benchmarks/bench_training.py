"""Training throughput of the architecture benchmark: vmapped groups against one model at a time.

    python benchmarks/bench_training.py [--steps 150] [--group 5 10 20] [--repeats 2] [--archs lstm tcn]

For each architecture of the cpu profile (``numerics/memory_functions/bench/sweeps/cpu.json`` sizes: T = 64, batch 16) it
measures model-steps per second of

- *alone*: the current one-model-at-a-time runner (``numerics.memory_functions.bench.trainer.train``), and
- *group*: ``numerics.memory_functions.bench.grouped.train_group`` with G seeds at once (stacked parameters,
  ``torch.func.vmap``) for every G of ``--group`` (default: ``numerics.memory_functions.bench.sweep.GROUP``, the
  group size the sweep uses),

in the same process, one torch thread, interleaved (alone, each G, alone, each G, ...; best of ``--repeats``)
so that a shared machine's load hits both alike. The profile runs in two such single-thread worker
processes, so the per-thread ratio is the 2-core ratio. The aggregate line weights every architecture by its
share of model-steps in the cpu profile.

Measured on the 2-core machine (300 steps, G = 10): LSTM 1.42x, S4D 2.68x, TCN 1.97x, Transformer 1.38x,
LSTM->TCN 1.65x, aggregate 1.76x (an earlier, noisier run with 150 steps: 1.56x). The issue's target of 3x is
not met. Tried and not kept:

- explicit attention matmuls instead of vmap's per-member fallback for attention: no faster;
- ``torch.compile`` (inductor, static shapes) of the grouped training step: S4D 3.22x, Transformer 2.07x,
  but TCN 1.23x (slower than eager) and LSTM unchanged, plus 9-20 s of cold compile per model shape and
  worker; the aggregate is 1.64x with every architecture compiled and 1.97x with the Transformer only. It also
  needs a C compiler on every machine that runs the sweep, so the sweep stays eager.

What is left is per-kernel overhead of small batched matmuls and elementwise kernels on one core; a fused
LSTM time loop is the next step.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SPECS = {
    "lstm": {"arch": "lstm", "width": 16, "layers": 1},
    "s4d": {"arch": "s4d", "width": 8, "state": 16, "layers": 1},
    "tcn": {"arch": "tcn", "channels": 16, "levels": 6, "kernel_size": 2},
    "transformer": {"arch": "transformer", "d_model": 16, "heads": 2, "layers": 1},
    "lstm->tcn": {"arch": "sequential", "interface": 8, "stages": [
        {"arch": "lstm", "width": 16, "layers": 1}, {"arch": "tcn", "channels": 16, "levels": 6, "kernel_size": 2}]},
}


def _data(T=64, n=256):
    from numerics.memory_functions.bench.runs import TargetSpec

    return TargetSpec(kind="impulse", alpha=0.5, T=T, n_seq=n).dataset()


def _alone(spec, steps, x, y, seed=0) -> float:
    import torch

    from numerics.memory_functions.bench.trainer import TrainSpec, train
    from numerics.memory_functions.bench.zoo import build_model

    torch.manual_seed(seed)
    m = build_model(spec, seq_len=x.shape[1])
    t = time.perf_counter()
    train(m, x, y, TrainSpec(steps=steps, batch=16, lr=5e-3, schedule="cosine2", seed=seed))
    return steps / (time.perf_counter() - t)


def _group(spec, steps, x, y, G) -> float:
    import torch

    from numerics.memory_functions.bench.grouped import groupable, train_group
    from numerics.memory_functions.bench.trainer import TrainSpec
    from numerics.memory_functions.bench.zoo import build_model, normalize_model_spec

    if not groupable(normalize_model_spec(spec)):
        return _alone(spec, steps, x, y)
    models = []
    for s in range(G):
        torch.manual_seed(s)
        models.append(build_model(spec, seq_len=x.shape[1]))
    specs = [TrainSpec(steps=steps, batch=16, lr=5e-3, schedule="cosine2", seed=s) for s in range(G)]
    t = time.perf_counter()
    train_group(models, [(x, y)] * G, specs)
    return G * steps / (time.perf_counter() - t)


def _profile_shares() -> Counter:
    """Model-steps of the cpu profile per architecture label of SPECS (distinct runs)."""
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep
    from numerics.memory_functions.bench.zoo import describe

    runs = {r.run_id: r for r in expand_sweep(load_sweep("cpu"))}
    out = Counter()
    for r in runs.values():
        label = describe(r.config.model)
        label = "lstm->tcn" if "->" in label else label
        out[label] += r.config.train.steps
    return out


def main(argv=None) -> int:
    import torch

    from numerics.memory_functions.bench.sweep import GROUP

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=150)
    p.add_argument("--group", type=int, nargs="+", default=[GROUP], help="group sizes G to measure")
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--archs", nargs="+", default=list(SPECS), choices=list(SPECS))
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    x, y = _data()
    rates = {}                     # (arch, G) -> group model-steps/s; (arch, 1) -> alone
    print(f"{'architecture':<14}{'alone steps/s':>15}" + "".join(f"{f'G={G} steps/s':>15}{'speed-up':>10}"
                                                              for G in a.group) + "   (1 thread)")
    for name in a.archs:
        spec = SPECS[name]
        _alone(spec, 5, x, y), [_group(spec, 5, x, y, G) for G in a.group]     # warm-up (allocators, tracing)
        best = {}
        for _ in range(a.repeats):         # interleaved: alone, group G1, group G2, ..., alone, ...
            best[1] = max(best.get(1, 0), _alone(spec, a.steps, x, y))
            for G in a.group:
                best[G] = max(best.get(G, 0), _group(spec, a.steps, x, y, G))
        rates.update({(name, G): r for G, r in best.items()})
        print(f"{name:<14}{best[1]:>15.0f}" + "".join(f"{best[G]:>15.0f}{best[G] / best[1]:>9.2f}x" for G in a.group),
              flush=True)
    shares = {k: n for k, n in _profile_shares().items() if k in a.archs}
    mix = ", ".join(f"{k} {n / sum(shares.values()):.0%}" for k, n in shares.items())
    t_alone = sum(n / rates[k, 1] for k, n in shares.items())
    for G in a.group:
        t_group = sum(n / rates[k, G] for k, n in shares.items())
        used = " (sweep.GROUP)" if G == GROUP else ""
        print(f"cpu profile mix ({mix}), G = {G}{used}: aggregate speed-up {t_alone / t_group:.2f}x; training "
              f"time on 2 cores ~{t_alone / 2 / 60:.0f} min alone vs ~{t_group / 2 / 60:.0f} min grouped "
              "(target: >= 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
