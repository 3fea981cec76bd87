"""Train several models of one architecture at once: stacked parameters, ``torch.func.vmap`` over the stack.

The benchmark's models have 0.5-3k parameters, so one training step is dominated by per-operation overhead
(Python, dispatch, autograd bookkeeping), not arithmetic. :func:`train_group` trains G members (typically the
seeds of one cell) as one program: ``torch.func.stack_module_state`` stacks their parameters along a new
leading axis, the forward pass is ``vmap(functional_call(model, params, x))`` over that axis, and each
member gets

- its own initialisation (built under its own ``torch.manual_seed``, exactly as a lone run) and its own
  minibatch indices (the lone run's generator),
- its own loss: the group minimises ``sum_g loss_g``, whose gradient with respect to member g's parameters
  is the gradient of ``loss_g`` alone (the members share no parameter),
- its own gradient-norm clipping (the norm is taken over member g's slices only), and
- its own Adam/AdamW state: both optimisers act elementwise, so one optimiser over the stacked tensors is
  G independent optimisers.

A member whose loss becomes non-finite is recorded as diverged (as a lone run raises ``FloatingPointError``)
and its gradients are zeroed from then on; the others continue. The members therefore follow their lone
runs up to float reassociation in the batched kernels (``tests/test_arch_verdicts.py`` compares them).

``vmap`` needs a batching rule for every operation. The fused ``aten::lstm`` has none, so the group's
forward pass switches every stage to its batchable formulation (``numerics.memory_functions.models._common.make_batchable``:
an LSTM runs as ``numerics.memory_functions.models._lstm_scan.lstm_layer``, same parameters and math, with its own vmap
rule); attention has no batching rule either, and vmap loops over the members for it (correct; about as
fast here as explicit attention matmuls, measured). Every architecture of the zoo is :func:`groupable`.
"""

from __future__ import annotations

import copy
import math
import time
import warnings

import numpy as np
import torch
from torch.func import functional_call, stack_module_state, vmap

from numerics._torch import as_device
from numerics.memory_functions.models._common import make_batchable
from theory._args import as_instance

from .trainer import EVAL_CHUNK, TrainResult, TrainSpec, _check_data, _Curve, batch_denominator, make_optimizer

GROUPABLE = ("lstm", "s4d", "tcn", "transformer")


def groupable(spec: dict) -> bool:
    """Whether a (normalised) model spec can train in a vmapped group: every stage in ``GROUPABLE``."""
    if not isinstance(spec, dict) or "arch" not in spec:
        raise TypeError(f"spec must be a model spec dict with 'arch' (zoo.normalize_model_spec), got {spec!r:.60}")
    if spec["arch"] == "sequential":
        return all(groupable(s) for s in spec["stages"])
    return spec["arch"] in GROUPABLE


def _same_but_seed(specs: list[TrainSpec]) -> None:
    import dataclasses

    ref = dataclasses.replace(specs[0], seed=0)
    for s in specs[1:]:
        if dataclasses.replace(s, seed=0) != ref:
            raise ValueError(f"train_group: the members' TrainSpecs must differ only in the seed; got {ref} and {s}")


class _Stack:
    """The stacked parameters of G models of one architecture and the vmapped forward pass."""

    def __init__(self, models: list[torch.nn.Module], device: str):
        for m in models:
            m.to(device)
        params, self.buffers = stack_module_state(models)
        self.params = {k: torch.nn.Parameter(v.detach().clone()) for k, v in params.items()}
        self.base = make_batchable(copy.deepcopy(models[0]).to("meta"))
        self.fwd = vmap(lambda p, b, x: functional_call(self.base, (p, b), (x,)))
        self.G = len(models)

    def __call__(self, x: torch.Tensor) -> torch.Tensor:       # (G, B, T, 1) -> (G, B, T, 1)
        with warnings.catch_warnings():    # attention has no batching rule: vmap loops over it (correct, slower)
            warnings.filterwarnings("ignore", message="There is a performance drop because we have not yet")
            return self.fwd(self.params, self.buffers, x)

    @torch.no_grad()
    def relmse(self, xt: torch.Tensor, y: np.ndarray) -> np.ndarray:
        """Full-data RelMSE of every member (float64 on the float32 predictions, as ``train``)."""
        out = torch.cat([self(xt[:, i:i + EVAL_CHUNK]) for i in range(0, xt.shape[1], EVAL_CHUNK)], dim=1)
        yh = out[..., 0].double().cpu().numpy()
        return ((yh - y) ** 2).sum(axis=(1, 2)) / (y ** 2).sum(axis=(1, 2))

    def clip_(self, max_norm: float) -> None:
        """Per-member ``clip_grad_norm_``: coefficient ``max_norm / (||g_member|| + 1e-6)`` capped at 1."""
        grads = [p.grad for p in self.params.values() if p.grad is not None]
        norms = torch.stack([torch.linalg.vector_norm(g.reshape(self.G, -1), dim=1) for g in grads], dim=1)
        coef = (max_norm / (torch.linalg.vector_norm(norms, dim=1) + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef.view(-1, *([1] * (g.dim() - 1))))

    def zero_members_(self, dead: np.ndarray) -> None:
        for p in self.params.values():
            if p.grad is not None:
                p.grad[torch.as_tensor(dead)] = 0.0

    def unstack_into(self, models: list[torch.nn.Module]) -> None:
        with torch.no_grad():
            for g, m in enumerate(models):
                m.load_state_dict({**{k: v[g] for k, v in self.params.items()},
                                   **{k: v[g] for k, v in self.buffers.items()}})


def train_group(models: list[torch.nn.Module], data: list[tuple[np.ndarray, np.ndarray]],
                specs: list[TrainSpec], *, device: str = "cpu") -> list[TrainResult | FloatingPointError]:
    """Train G models of one architecture together (see the module docstring); the trained parameters are
    written back into ``models``. ``data[g] = (x, y)`` of shape (n_seq, T), the same shape for every member;
    ``specs`` differ only in the seed. Returns one ``TrainResult`` per member, or the ``FloatingPointError``
    a lone run would have raised for a diverged member."""
    device = as_device(device)
    for name, v in (("models", models), ("data", data), ("specs", specs)):
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"{name} must be a list (one entry per member), got {type(v).__name__}")
    for m in models:
        as_instance("models[i]", m, torch.nn.Module, "torch.nn.Module")
    for s in specs:
        as_instance("specs[i]", s, TrainSpec)
    if not (len(models) == len(data) == len(specs) >= 1):
        raise ValueError(f"train_group needs as many models, data sets and specs (>= 1); got "
                         f"{len(models)}, {len(data)}, {len(specs)}")
    _same_but_seed(specs)
    spec = specs[0]
    xy = [_check_data(x, y) for x, y in data]
    if len({x.shape for x, _ in xy}) != 1:
        raise ValueError("train_group: every member's data must have the same shape")
    y_all = np.stack([y for _, y in xy])                                                # (G, n, T)
    xt = torch.as_tensor(np.stack([x for x, _ in xy]), dtype=torch.float32, device=device)[..., None]
    yt = torch.as_tensor(y_all, dtype=torch.float32, device=device)[..., None]
    den = torch.as_tensor([batch_denominator(y, spec.batch) for y in y_all], dtype=torch.float32, device=device)
    stack = _Stack(models, device)
    opt, sched = make_optimizer(list(stack.params.items()), spec)
    rngs = [np.random.default_rng(np.random.SeedSequence([s.seed, 1])) for s in specs]
    G, rows = len(models), torch.arange(len(models), device=device)[:, None]
    t0 = time.perf_counter()
    initial = stack.relmse(xt, y_all)
    curves = [_Curve(spec.log_every, spec.steps) for _ in range(G)]
    dead, errors, half = np.zeros(G, bool), [None] * G, None
    for step in range(1, spec.steps + 1):
        idx = torch.as_tensor(np.stack([r.integers(0, xt.shape[1], size=spec.batch) for r in rngs]), device=device)
        yb = yt[rows, idx]                                                               # (G, B, T, 1)
        losses = ((stack(xt[rows, idx]) - yb) ** 2).sum((1, 2, 3)) / den
        opt.zero_grad(set_to_none=True)
        losses.sum().backward()
        if dead.any():
            stack.zero_members_(dead)
        if spec.clip > 0:
            stack.clip_(spec.clip)
        opt.step()
        sched.step()
        for g, value in enumerate(losses.detach().cpu().tolist()):
            if dead[g]:
                continue
            if not math.isfinite(value):
                dead[g] = True
                errors[g] = FloatingPointError(f"training loss became {value} at step {step} (lr={spec.lr}); "
                                               "lower train.lr")
            else:
                curves[g].add(step, value)
        if step == spec.half_step:
            half = stack.relmse(xt, y_all)
    final = stack.relmse(xt, y_all)
    seconds = (time.perf_counter() - t0) / G
    stack.unstack_into([m.cpu() for m in models] if device != "cpu" else models)
    return [errors[g] if dead[g] else
            TrainResult(float(final[g]), float(initial[g]), curves[g].steps, curves[g].loss, seconds,
                        None if half is None else float(half[g]), spec.half_step, spec.half_is_budget)
            for g in range(G)]
