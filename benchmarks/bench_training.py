"""Training throughput of the architecture benchmark: vmapped groups against one model at a time.

    python benchmarks/bench_training.py [--steps 150] [--group 5] [--repeats 2]

For each architecture of the cpu profile (``benchmarks/memory_arch/cpu.json`` sizes: T = 64, batch 16) it
measures model-steps per second of

- *alone*: the current one-model-at-a-time runner (``numerics.memory_bench.trainer.train``), and
- *group*: ``numerics.memory_bench.grouped.train_group`` with ``--group`` seeds at once (stacked parameters,
  ``torch.func.vmap``); architectures that vmap cannot batch (LSTM: no batching rule for ``aten::lstm``)
  train alone in both columns,

in the same process, one torch thread, interleaved (alone, group, alone, group, ...; best of ``--repeats``)
so that a shared machine's load hits both alike. The profile runs in two such single-thread worker
processes, so the per-thread ratio is the 2-core ratio. The aggregate line weights every architecture by its
share of model-steps in the cpu profile.
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
    from numerics.memory_bench.runs import TargetSpec

    return TargetSpec(kind="impulse", alpha=0.5, T=T, n_seq=n).dataset()


def _alone(spec, steps, x, y, seed=0) -> float:
    import torch

    from numerics.memory_bench.trainer import TrainSpec, train
    from numerics.memory_bench.zoo import build_model

    torch.manual_seed(seed)
    m = build_model(spec, seq_len=x.shape[1])
    t = time.perf_counter()
    train(m, x, y, TrainSpec(steps=steps, batch=16, lr=5e-3, schedule="cosine2", seed=seed))
    return steps / (time.perf_counter() - t)


def _group(spec, steps, x, y, G) -> float:
    import torch

    from numerics.memory_bench.grouped import groupable, train_group
    from numerics.memory_bench.trainer import TrainSpec
    from numerics.memory_bench.zoo import build_model, normalize_model_spec

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
    from numerics.memory_bench.sweep import expand_sweep, load_sweep
    from numerics.memory_bench.zoo import describe

    runs = {r.run_id: r for r in expand_sweep(load_sweep(Path(__file__).parent / "memory_arch" / "cpu.json"))}
    out = Counter()
    for r in runs.values():
        label = describe(r.config.model)
        label = "lstm->tcn" if "->" in label else label
        out[label] += r.config.train.steps
    return out


def main(argv=None) -> int:
    import torch

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=150)
    p.add_argument("--group", type=int, default=5)
    p.add_argument("--repeats", type=int, default=2)
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    x, y = _data()
    rates = {}
    print(f"{'architecture':<14}{'alone steps/s':>15}{'group steps/s':>15}{'speed-up':>10}   (G = {a.group}, 1 thread)")
    for name, spec in SPECS.items():
        _alone(spec, 5, x, y), _group(spec, 5, x, y, a.group)          # warm-up (allocators, vmap tracing)
        al, gr = [], []
        for _ in range(a.repeats):
            al.append(_alone(spec, a.steps, x, y))
            gr.append(_group(spec, a.steps, x, y, a.group))
        rates[name] = (max(al), max(gr))
        print(f"{name:<14}{rates[name][0]:>15.0f}{rates[name][1]:>15.0f}{rates[name][1] / rates[name][0]:>9.2f}x",
              flush=True)
    shares = _profile_shares()
    t_alone = sum(n / rates[k][0] for k, n in shares.items() if k in rates)
    t_group = sum(n / rates[k][1] for k, n in shares.items() if k in rates)
    print(f"cpu profile mix ({', '.join(f'{k} {n / sum(shares.values()):.0%}' for k, n in shares.items())}): "
          f"aggregate speed-up {t_alone / t_group:.2f}x; training time on 2 cores ~{t_alone / 2 / 60:.0f} min "
          f"alone vs ~{t_group / 2 / 60:.0f} min grouped (target: >= 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
