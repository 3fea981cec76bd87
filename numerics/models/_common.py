"""The base class every benchmark model shares: sequences in, sequences out, (B, T, d_in) -> (B, T, d_out).

Standalone models use ``d_in = d_out = 1`` (scalar input and target sequences); the stages of a
:class:`numerics.models.compose.Sequential` composition talk to each other through a wider interface.
"""

from __future__ import annotations

from torch import nn

from theory._args import MAX_PARAMETERS, as_int, check_budget

# Stacks deeper than this are typos, not experiments (the benchmark's deepest has 8; building 10**7 layers would
# take hours, 1000 transformer layers over a second): the stated maximum of every ``layers`` / ``levels``.
MAX_LAYERS = 256
# input / output features of one time step
MAX_FEATURES = 1 << 20
# TCN dilations are 2**level: 2**40 lags is far past any sequence a model sees
MAX_TCN_LEVELS = 40


def as_layers(name: str, value, *, maximum: int = MAX_LAYERS) -> int:
    """A layer count in ``[1, maximum]`` (default :data:`MAX_LAYERS`)."""
    return as_int(name, value, minimum=1, maximum=maximum)


def check_parameters(sizes: dict, estimate: float) -> None:
    """Refuse, before any allocation, a model whose parameter count ``estimate`` exceeds
    :data:`theory._args.MAX_PARAMETERS`; ``sizes`` (name -> value) are the arguments that set it."""
    check_budget(", ".join(f"{k}={v!r:.30}" for k, v in sizes.items()), estimate, MAX_PARAMETERS,
                 unit="parameters")


class SeqModel(nn.Module):
    """A causal sequence-to-sequence model; subclasses implement ``forward(x)`` with x of shape (B, T, d_in).

    ``batchable``: compute with operations that ``torch.func.vmap`` batches (today this changes the LSTM,
    whose fused ``aten::lstm`` has no batching rule; attention keeps vmap's per-member fallback); same
    parameters, same math, equal up to float reassociation. Set on every stage by :func:`make_batchable`;
    ``numerics.memory_bench.grouped`` does.
    """

    batchable = False

    def __init__(self, d_in: int = 1, d_out: int = 1):
        super().__init__()
        self.d_in = as_int("d_in", d_in, minimum=1, maximum=MAX_FEATURES)
        self.d_out = as_int("d_out", d_out, minimum=1, maximum=MAX_FEATURES)

    @property
    def n_params(self) -> int:
        """Number of trainable scalars (a complex parameter stored as (re, im) counts twice)."""
        return count_parameters(self)


def count_parameters(model: nn.Module) -> int:
    """Number of trainable scalars of any ``torch.nn.Module``."""
    return int(sum(p.numel() for p in model.parameters() if p.requires_grad))


def make_batchable(model: nn.Module) -> nn.Module:
    """Switch every ``SeqModel`` inside ``model`` to its vmap-batchable formulation (``SeqModel.batchable``)."""
    for m in model.modules():
        if isinstance(m, SeqModel):
            m.batchable = True
    return model


def as_device(value, *, name: str = "device") -> str:
    """A torch device given as a string (``"cpu"``, ``"cuda"``, ``"cuda:1"``) or ``torch.device``, returned as
    a string; an unknown name or an accelerator this machine does not have is a ``ValueError`` up front
    (not a RuntimeError deep inside a training run)."""
    import torch

    if not isinstance(value, (str, torch.device)):
        raise TypeError(f"{name} must be a torch device name such as 'cpu' or 'cuda', got {type(value).__name__} "
                        f"{value!r:.60}")
    try:
        dev = torch.device(value)
    except (RuntimeError, ValueError):
        raise ValueError(f"{name} must be a torch device name such as 'cpu', 'cuda' or 'cuda:0', got {value!r:.60}") from None
    if dev.type == "cuda" and not (torch.cuda.is_available() and (dev.index or 0) < torch.cuda.device_count()):
        raise ValueError(f"{name}={value!r}: no such CUDA device on this machine "
                         f"({torch.cuda.device_count()} available)")
    if dev.type not in ("cpu", "cuda", "mps") or (dev.type == "mps" and not torch.backends.mps.is_available()):
        raise ValueError(f"{name}={value!r}: not an available device here (use 'cpu' or 'cuda')")
    return str(dev)
