"""The pinned numerical environment of training processes: one kernel path on every x86-64 machine.

Why (``docs/cpu-results.md``, "Reproducible training across machines"): three libraries on the training path choose their
kernels by the CPU's instruction set when they load, and a kernel with wider vectors sums in another order.
On an AVX-512 machine, oneDNN (PyTorch's float32 LSTM and convolutions), ATen's vectorised kernels (the
Transformer's) and NumPy's SIMD loops (the data: the complex products of ``linear_target``, the sums of the
RelMSE) all differ from an AVX2 machine in the last bits, and L-BFGS amplifies those bits into different polished
RelMSEs (measured: up to 0.13 decades on the committed LSTM / exp / alpha 0.5 cell). MKL, in its default
mode, dispatches differently on Intel and AMD CPUs as well.

The pins fix every one of those choices (:data:`PIN_ENV`, :func:`pinned_environ`):

- ``ATEN_CPU_CAPABILITY=avx2``: ATen's AVX2 kernels on every CPU that has AVX2 (read at PyTorch's first
  dispatch);
- ``MKL_CBWR=COMPATIBLE``: MKL's conditional numerical reproducibility on its SSE2 branch, the one branch that
  Intel documents to give the same results on Intel and non-Intel CPUs (the AVX2 / AVX-512 branches are
  for Intel CPUs only; on others MKL silently falls back to the CPU's own branch); read when MKL loads;
- ``MKL_NUM_THREADS=1``, ``OMP_NUM_THREADS=1``, and one torch thread: a reduction split between threads sums
  in another order;
- ``NPY_DISABLE_CPU_FEATURES``: NumPy's dispatched SIMD loops above x86-64-v3 (AVX2) switched off (read when
  NumPy is imported; the list is NumPy's own dispatch targets outside :data:`NUMPY_ALLOWED`);
- in the process, before anything runs: oneDNN off (``torch.backends.mkldnn``) and NNPACK off
  (``torch.backends.nnpack``): LSTM, convolution and linear layers then run on ATen and MKL alone. oneDNN
  documents bitwise-equal results only for an identical hardware platform and software environment.

Environment variables are read when a library loads, so the pins must be in the environment a process *starts*
with: :func:`pinned_pool` starts its spawned workers with them (``seqtheory sweep run``, ``cpu_results.py``
and the cpu profile train there), and :func:`pin_problems` checks a worker's state (the environment it was
started with, read from ``/proc/self/environ``, and what the libraries report) before it trains. A run records
that state (``result["numeric_env"]``, ``numerics._torch.numeric_environment``); a worker asked to train
pinned whose pins are not in effect refuses (:class:`UnpinnedError`). Library versions are not pinned: equal
results need equal versions of PyTorch, NumPy and SciPy too, and every run records them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Iterator, Mapping

from theory._args import as_instance, as_int

__all__ = ["PIN_ENV", "NUMPY_ALLOWED", "TORCH_CAPABILITY", "UnpinnedError", "pinned_environ", "pinned_pool",
           "spawn_pool", "initial_environ", "numpy_simd", "pin_problems", "RECORDED_PREFIXES", "cpu_description"]

PIN_ENV = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "COMPATIBLE", "MKL_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
TORCH_CAPABILITY = "AVX2"           # what torch.backends.cpu.get_cpu_capability() reads under the pins
# NumPy's CPU features up to x86-64-v3 (AVX2, FMA3), under both naming schemes (NumPy 1.x: one name per
# extension; NumPy 2.4+: the x86-64 levels X86_V2 / X86_V3)
NUMPY_ALLOWED = frozenset({"SSE", "SSE2", "SSE3", "SSSE3", "SSE41", "POPCNT", "SSE42", "AVX", "F16C", "FMA3", "AVX2",
                           "X86_V2", "X86_V3"})
# environment variables that steer numerical libraries: recorded with every run (provenance), pinned or not
RECORDED_PREFIXES = ("ATEN_", "MKL_", "ONEDNN_", "DNNL_", "NPY_", "OMP_", "KMP_", "OPENBLAS_")
_SPAWN_LOCK = threading.Lock()


class UnpinnedError(RuntimeError):
    """A process asked to train under the pins runs without them (the message says which are missing)."""


def _numpy_cpu() -> tuple[dict, list, list]:
    """NumPy's (features of this CPU, dispatch targets, baseline) from its own tables (1.x and 2.x layouts)."""
    try:
        from numpy._core import _multiarray_umath as mu
    except ImportError:                                   # NumPy 1.x
        from numpy.core import _multiarray_umath as mu    # type: ignore[no-redef]
    return dict(mu.__cpu_features__), list(mu.__cpu_dispatch__), list(mu.__cpu_baseline__)


def numpy_simd() -> dict:
    """This process's NumPy SIMD state: ``{"baseline", "dispatch", "enabled"}`` (``enabled``: the dispatch
    targets that NumPy uses here, i.e. that the CPU has and ``NPY_DISABLE_CPU_FEATURES`` left on)."""
    features, dispatch, baseline = _numpy_cpu()
    return {"baseline": baseline, "dispatch": dispatch, "enabled": [t for t in dispatch if features.get(t)]}


def cpu_description(cpuinfo: str | None = None) -> str:
    """This machine's CPU as a run records it: the model name with the vendor, family, model and stepping, e.g.
    ``"AMD EPYC (AuthenticAMD, family 26, model 2, stepping 1)"``.

    Why the numbers: a virtual machine may report only a brand (``"AMD EPYC"``), and two CPU generations under one
    brand choose different kernels (``docs/cpu-results.md``). ``cpuinfo`` is the text of ``/proc/cpuinfo`` (read
    when None; its first processor block is used); without it (another OS) ``platform.processor()`` or
    ``platform.machine()``.
    """
    import platform

    if cpuinfo is None:
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
                cpuinfo = fh.read()
        except OSError:
            cpuinfo = ""
    elif not isinstance(cpuinfo, str):
        raise TypeError(f"cpuinfo must be the text of /proc/cpuinfo (a str) or None, got {type(cpuinfo).__name__}")
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        if not line.strip():
            if fields:
                break                                # the first processor's block only
            continue
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    name = fields.get("model name") or fields.get("Processor") or platform.processor() or platform.machine()
    ids = [f"{label} {fields[key]}" if label else fields[key]
           for key, label in (("vendor_id", ""), ("cpu family", "family"), ("model", "model"),
                              ("stepping", "stepping")) if fields.get(key)]
    return f"{name} ({', '.join(ids)})" if ids else name


def pinned_environ(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default ``os.environ``) with the pins set: :data:`PIN_ENV` and ``NPY_DISABLE_CPU_FEATURES``
    (NumPy's dispatch targets outside :data:`NUMPY_ALLOWED`, from this NumPy's tables)."""
    if base is not None:
        as_instance("base", base, Mapping, "mapping of environment variables (str to str)")
    env = dict(os.environ if base is None else base)
    for k, v in env.items():
        if not (isinstance(k, str) and isinstance(v, str)):
            raise TypeError(f"base must map str to str, got {k!r}: {v!r:.40}")
    disable = [t for t in numpy_simd()["dispatch"] if t not in NUMPY_ALLOWED]
    env.update(PIN_ENV)
    if disable:
        env["NPY_DISABLE_CPU_FEATURES"] = ",".join(disable)
    else:
        env.pop("NPY_DISABLE_CPU_FEATURES", None)
    return env


def initial_environ() -> dict[str, str] | None:
    """The environment this process was started with (``/proc/self/environ``: what the libraries saw when they
    loaded, whatever ``os.environ`` says now), or None where the system does not show it."""
    try:
        with open("/proc/self/environ", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    out = {}
    for item in raw.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep:
            out[key.decode(errors="replace")] = value.decode(errors="replace")
    return out


def pin_problems(state: Mapping[str, Any]) -> list[str]:
    """Why the pins are not in effect in a process whose numerical state is ``state`` (empty: pinned).

    ``state`` holds ``machine`` (``platform.machine()``), ``device``, ``initial_env`` (the start environment,
    or None), ``aten_capability``, ``mkldnn``, ``nnpack``, ``torch_threads`` and ``numpy`` (:func:`numpy_simd`).

    >>> ok = {"machine": "x86_64", "device": "cpu", "initial_env": dict(PIN_ENV), "aten_capability": "AVX2",
    ...       "mkldnn": False, "nnpack": False, "torch_threads": 1,
    ...       "numpy": {"baseline": ["X86_V2"], "dispatch": ["X86_V3", "X86_V4"], "enabled": ["X86_V3"]}}
    >>> pin_problems(ok)
    []
    >>> pin_problems({**ok, "aten_capability": "AVX512", "torch_threads": 2})
    ['ATen dispatches AVX512 kernels (pinned: AVX2)', 'torch runs 2 threads (pinned: 1)']
    """
    as_instance("state", state, Mapping, "mapping (the process's numerical state)")
    missing = {"machine", "device", "initial_env", "aten_capability", "mkldnn", "nnpack", "torch_threads",
               "numpy"} - set(state)
    if missing:
        raise ValueError(f"state lacks {sorted(missing)}")
    out = []
    if state["machine"] not in ("x86_64", "AMD64"):
        out.append(f"not an x86-64 machine ({state['machine']}): the pins are x86-64 kernel paths")
    if state["device"] != "cpu":
        out.append(f"device {state['device']} (the pins are for CPU training)")
    env = state["initial_env"]
    if env is None:
        out.append("the start environment cannot be read (/proc/self/environ)")
    else:
        out += [f"started with {k}={env[k]!r} (pinned: {v!r})" if k in env else f"started without {k}={v}"
                for k, v in PIN_ENV.items() if env.get(k) != v]
    if state["aten_capability"] != TORCH_CAPABILITY:
        out.append(f"ATen dispatches {state['aten_capability']} kernels (pinned: {TORCH_CAPABILITY})")
    out += [f"{name} is on (pinned: off)" for name in ("mkldnn", "nnpack") if state[name]]
    if state["torch_threads"] != 1:
        out.append(f"torch runs {state['torch_threads']} threads (pinned: 1)")
    out += _numpy_problems(state["numpy"])
    return out


def _numpy_problems(simd: Mapping[str, Any]) -> list[str]:
    """NumPy must run exactly the loops of an x86-64-v3 CPU: no target above it, every target up to it."""
    used = set(simd["baseline"]) | set(simd["enabled"])
    above = sorted(used - NUMPY_ALLOWED)
    lacking = sorted({t for t in simd["dispatch"] if t in NUMPY_ALLOWED} - set(simd["enabled"]))
    out = [f"NumPy uses SIMD loops above AVX2: {above}"] if above else []
    if lacking:
        out.append(f"NumPy lacks the AVX2-level loops {lacking} (a CPU without AVX2?)")
    return out


@contextlib.contextmanager
def _environ(env: Mapping[str, str]) -> Iterator[None]:
    """``os.environ`` is ``env`` inside the block (a process spawned there inherits it); the variables that
    differ are set back (or removed) after it."""
    old = {k: os.environ.get(k) for k in set(env) | set(os.environ) if os.environ.get(k) != env.get(k)}
    for k in old:
        if k in env:
            os.environ[k] = env[k]
        else:
            del os.environ[k]
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class _PinnedProcess(multiprocessing.context.SpawnProcess):
    """A spawned process that starts with the pinned environment (the parent's own is restored at once)."""

    def start(self) -> None:
        with _SPAWN_LOCK, _environ(pinned_environ()):
            super().start()


class _PinnedContext(multiprocessing.context.SpawnContext):
    Process = _PinnedProcess


def pinned_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` spawned processes, each started with the pins in its environment
    (:func:`pinned_environ`); the caller shuts it down. Processes start when the first jobs are submitted, and
    end with the process that made the pool (:func:`spawn_pool`)."""
    return spawn_pool(workers, _PinnedContext())


PARENT_POLL_SECONDS = 1.0


def spawn_pool(workers: int, context: multiprocessing.context.SpawnContext | None = None) -> ProcessPoolExecutor:
    """A process pool of ``workers`` spawned processes (``context``: a spawn context; default the plain one) whose
    workers end when the process that made the pool ends, however it ends: a sweep killed mid-run leaves no
    worker behind (:func:`_end_with_parent`)."""
    workers = as_int("workers", workers, minimum=1, maximum=1024)
    context = multiprocessing.get_context("spawn") if context is None else context
    as_instance("context", context, multiprocessing.context.SpawnContext, "spawn context")
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_end_with_parent,
                               initargs=(os.getpid(), PARENT_POLL_SECONDS))


def _end_with_parent(parent: int, every: float) -> None:
    """In a pool worker: a daemon thread that ends the process once ``parent`` is gone (polled every ``every``
    seconds). A worker whose parent was killed would otherwise wait for work forever (it holds both ends of its
    own job queue's pipe)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="end-with-parent").start()
