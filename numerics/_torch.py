"""Helpers shared by the PyTorch subpackages (``numerics.memory_functions.models``, ``numerics.memory_functions.bench``,
``numerics.anticollapse.gated``): device and size checks, and the record of a training process's numerical
environment (:func:`numeric_environment`, the pins of ``numerics.experiments.pinning``). Only those
subpackages import this module; torch is imported inside the functions that need it.
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


def numeric_environment(*, pin: bool, device: str = "cpu") -> dict:
    """This process's numerical environment, as a training run records it (``result["numeric_env"]``), after
    applying the in-process half of the pins when ``pin`` (oneDNN and NNPACK off; the environment half must
    have been there when the process started: ``numerics.experiments.pinning``).

    Returns ``{"pinned", "problems", "aten_capability", "mkldnn", "nnpack", "torch_threads", "numpy_simd",
    "env", "cpu", "versions"}``: ``pinned`` is True iff ``problems`` (``pinning.pin_problems``) is empty;
    ``env`` the start environment's variables that steer numerical libraries. Call it where the run trains
    (after its thread count is set).

    Raises
    ------
    numerics.experiments.pinning.UnpinnedError
        ``pin`` and the pins not in effect (checked before any flag is changed; the message lists why).
    """
    import torch

    from numerics.experiments import pinning
    from theory._args import as_bool

    pin = as_bool("pin", pin)
    start = pinning.initial_environ()
    if pin:
        early = pinning.pin_problems({**_torch_state(device, start), "mkldnn": False, "nnpack": False})
        if early:
            raise pinning.UnpinnedError("this process was asked to train under the pinned numerical environment "
                                        f"but is not in it: {'; '.join(early)} (pin=False trains without the pins, "
                                        "recorded as unpinned)")
        torch.backends.mkldnn.enabled = False
        torch.backends.nnpack.set_flags(False)
    state = _torch_state(device, start)
    problems = pinning.pin_problems(state)
    if pin and problems:                     # the flags did not take: a PyTorch that ignores them
        raise pinning.UnpinnedError(f"the pins did not take effect: {'; '.join(problems)}")
    return {"pinned": not problems, "problems": problems,
            **{k: state[k] for k in ("aten_capability", "mkldnn", "nnpack", "torch_threads")},
            "numpy_simd": sorted(set(state["numpy"]["baseline"]) | set(state["numpy"]["enabled"])),
            "env": {k: v for k, v in sorted((start or {}).items()) if k.startswith(pinning.RECORDED_PREFIXES)},
            "cpu": pinning.cpu_description(),
            "versions": _versions()}


def _torch_state(device: str, start: dict | None) -> dict:
    """The state ``pinning.pin_problems`` reads, as this process has it now."""
    import platform

    import torch

    from numerics.experiments.pinning import numpy_simd

    nnpack = getattr(torch._C, "_get_nnpack_enabled", lambda: torch.backends.nnpack.is_available())()
    return {"machine": platform.machine(), "device": str(device), "initial_env": start,
            "aten_capability": torch.backends.cpu.get_cpu_capability(),
            "mkldnn": bool(torch.backends.mkldnn.enabled and torch.backends.mkldnn.is_available()),
            "nnpack": bool(nnpack and torch.backends.nnpack.is_available()),
            "torch_threads": torch.get_num_threads(), "numpy": numpy_simd()}


def _versions() -> dict:
    from importlib import metadata

    out = {}
    for dist in ("torch", "numpy", "scipy"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out
