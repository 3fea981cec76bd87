"""Helpers shared by the PyTorch subpackages (``numerics.memory_functions.models``, ``numerics.memory_functions.bench``,
``numerics.anticollapse.gated``): device and size checks. Only those subpackages import this module; torch is
imported inside the functions that need it.
"""

from __future__ import annotations

from theory._args import MAX_PARAMETERS, check_budget

# input / output features of one time step
MAX_FEATURES = 1 << 20


def check_parameters(sizes: dict, estimate: float) -> None:
    """Refuse, before any allocation, a model whose parameter count ``estimate`` exceeds
    :data:`theory._args.MAX_PARAMETERS`; ``sizes`` (name -> value) are the arguments that set it."""
    check_budget(", ".join(f"{k}={v!r:.30}" for k, v in sizes.items()), estimate, MAX_PARAMETERS,
                 unit="parameters")


def count_parameters(model: "torch.nn.Module") -> int:  # noqa: F821 (torch: not imported here)
    """Number of trainable scalars of any ``torch.nn.Module``."""
    return int(sum(p.numel() for p in model.parameters() if p.requires_grad))


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
