"""The pinned numerical environment (numerics.experiments.pinning): the verdict on synthetic process states, the
environment it builds, and the processes it starts (torch-free; the torch half: tests/test_repro_cell.py)."""

import json
import multiprocessing
import os
import subprocess
import sys
import time

import pytest

from numerics.experiments import pinning
from numerics.experiments.pinning import NUMPY_ALLOWED, PIN_ENV, pin_problems, pinned_environ, pinned_pool

OK = {"machine": "x86_64", "device": "cpu", "initial_env": {**PIN_ENV, "PATH": "/bin"}, "aten_capability": "AVX2",
      "mkldnn": False, "nnpack": False, "torch_threads": 1,
      "numpy": {"baseline": ["X86_V2"], "dispatch": ["X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR"],
                "enabled": ["X86_V3"]}}
# NumPy 1.x names every extension; an AVX2 machine there
OK_NUMPY1 = {"baseline": ["SSE", "SSE2", "SSE3"],
             "dispatch": ["SSSE3", "SSE41", "POPCNT", "SSE42", "AVX", "F16C", "FMA3", "AVX2", "AVX512F", "AVX512_SKX"],
             "enabled": ["SSSE3", "SSE41", "POPCNT", "SSE42", "AVX", "F16C", "FMA3", "AVX2"]}


def test_a_pinned_state_has_no_problems_under_either_numpy_naming():
    assert pin_problems(OK) == []
    assert pin_problems({**OK, "numpy": OK_NUMPY1}) == []


@pytest.mark.parametrize("change, needle", [
    ({"machine": "aarch64"}, "not an x86-64"),
    ({"device": "cuda"}, "device cuda"),
    ({"initial_env": None}, "cannot be read"),
    ({"initial_env": {k: v for k, v in PIN_ENV.items() if k != "MKL_CBWR"}}, "started without MKL_CBWR"),
    ({"initial_env": {**PIN_ENV, "MKL_CBWR": "AVX2"}}, "MKL_CBWR='AVX2'"),          # a host preset, not the pin
    ({"initial_env": {**PIN_ENV, "OMP_NUM_THREADS": "2"}}, "OMP_NUM_THREADS"),
    ({"aten_capability": "AVX512"}, "ATen dispatches AVX512"),
    ({"aten_capability": "DEFAULT"}, "ATen dispatches DEFAULT"),                    # a CPU without AVX2
    ({"mkldnn": True}, "mkldnn is on"),
    ({"nnpack": True}, "nnpack is on"),
    ({"torch_threads": 2}, "2 threads"),
    ({"numpy": {**OK["numpy"], "enabled": ["X86_V3", "X86_V4"]}}, "above AVX2: ['X86_V4']"),
    ({"numpy": {**OK["numpy"], "enabled": []}}, "lacks the AVX2-level loops ['X86_V3']"),
    ({"numpy": {**OK_NUMPY1, "enabled": OK_NUMPY1["enabled"] + ["AVX512F"]}}, "above AVX2: ['AVX512F']"),
    ({"numpy": {**OK_NUMPY1, "baseline": ["SSE", "AVX512F"]}}, "above AVX2: ['AVX512F']"),   # built for AVX-512
])
def test_each_missing_pin_is_named(change, needle):
    problems = pin_problems({**OK, **change})
    assert len(problems) == 1 and needle in problems[0], problems


def test_pin_problems_needs_the_whole_state():
    with pytest.raises(ValueError, match="nnpack"):
        pin_problems({k: v for k, v in OK.items() if k != "nnpack"})
    with pytest.raises(TypeError, match="state"):
        pin_problems([("machine", "x86_64")])


def test_pinned_environ_sets_the_pins_over_presets_and_keeps_the_rest():
    base = {"PATH": "/bin", "MKL_CBWR": "AVX512", "ATEN_CPU_CAPABILITY": "avx512", "NPY_DISABLE_CPU_FEATURES": ""}
    env = pinned_environ(base)
    assert {k: env[k] for k in PIN_ENV} == PIN_ENV and env["PATH"] == "/bin"
    listed = env.get("NPY_DISABLE_CPU_FEATURES", "").split(",")
    assert not NUMPY_ALLOWED & set(listed)
    assert base["MKL_CBWR"] == "AVX512"                     # the argument is not changed
    with pytest.raises(TypeError, match="str"):
        pinned_environ({"PATH": 1})


def _child(code: str, env: dict) -> dict:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


_NUMPY_STATE = "import json; from numerics.experiments.pinning import numpy_simd; print(json.dumps(numpy_simd()))"


def test_a_process_started_with_the_pins_runs_numpy_at_the_avx2_level():
    """What NumPy reports in a child started with pinned_environ(): no loop above x86-64-v3 (whatever this CPU has),
    and every AVX2-level loop this CPU has (this machine is x86-64 with AVX2, as the pins require)."""
    simd = _child(_NUMPY_STATE, pinned_environ())
    used = set(simd["baseline"]) | set(simd["enabled"])
    assert used <= NUMPY_ALLOWED, used
    assert pinning._numpy_problems(simd) == []
    native = _child(_NUMPY_STATE, {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"})
    assert set(simd["enabled"]) <= set(native["enabled"])   # the pins only take loops away


def test_environ_block_restores_the_environment_exactly():
    before = dict(os.environ)
    added, changed = "SEQTHEORY_TEST_ADDED", next(iter(os.environ))
    with pinning._environ({**before, added: "1", changed: "x"}):
        assert os.environ[added] == "1" and os.environ[changed] == "x"
    assert dict(os.environ) == before
    with pytest.raises(KeyError), pinning._environ({k: v for k, v in before.items() if k != changed}):
        os.environ[changed]                                  # removed inside the block
    assert dict(os.environ) == before


def test_the_pinned_pool_starts_its_workers_with_the_pins_and_leaves_the_parent_alone():
    before = dict(os.environ)
    with pinned_pool(2) as pool:
        starts = [f.result() for f in [pool.submit(pinning.initial_environ) for _ in range(2)]]
    assert all({k: s[k] for k in PIN_ENV} == PIN_ENV for s in starts)
    assert all(s.get("NPY_DISABLE_CPU_FEATURES", "") == pinned_environ().get("NPY_DISABLE_CPU_FEATURES", "")
               for s in starts)
    assert dict(os.environ) == before
    with pytest.raises(ValueError, match="workers"):
        pinned_pool(0)
    with pytest.raises(TypeError, match="spawn context"):                # a forked worker inherits loaded libraries
        pinning.spawn_pool(1, multiprocessing.get_context("fork"))


def test_initial_environ_is_the_start_environment_not_the_current_one(monkeypatch):
    monkeypatch.setenv("SEQTHEORY_TEST_LATE", "1")              # set after start: libraries never saw it
    start = pinning.initial_environ()
    assert start is not None and "SEQTHEORY_TEST_LATE" not in start and start.get("PATH") == os.environ["PATH"]


_PARENT = r"""
import os, sys, time
from numerics.experiments.pinning import {pool}
if __name__ == "__main__":
    pool = {pool}(1)
    print(pool.submit(os.getpid).result(), flush=True)
    pool.submit(time.sleep, 600)                 # the worker is busy when its parent dies
    time.sleep(600)
"""


@pytest.mark.parametrize("pool", ["pinned_pool", "spawn_pool"])      # the pinned one, and the engine's own
def test_a_killed_parent_leaves_no_worker_behind(tmp_path, pool):
    script = tmp_path / "parent.py"
    script.write_text(_PARENT.format(pool=pool))
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        assert os.path.exists(f"/proc/{worker}")
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 30
    while os.path.exists(f"/proc/{worker}") and _state(worker) != "Z" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{worker}") or _state(worker) == "Z", "the worker outlived its parent"


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


# /proc/cpuinfo of two processors; the second differs so that reading past the first block shows
_CPUINFO = ("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\n"
            "stepping\t: 1\nflags\t\t: fpu sse2 avx2\n\n"
            "processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
            "model name\t: Intel(R) Xeon(R) Platinum 8480+\nstepping\t: 8\n\n")


def test_cpu_description_names_the_generation_of_the_first_processor():
    assert pinning.cpu_description(_CPUINFO) == "AMD EPYC (AuthenticAMD, family 26, model 2, stepping 1)"
    intel_only = _CPUINFO.split("\n\n", 1)[1]
    assert pinning.cpu_description(intel_only) == ("Intel(R) Xeon(R) Platinum 8480+ "
                                                   "(GenuineIntel, family 6, model 143, stepping 8)")
    # another processor's fields never fill a gap in the first one's
    no_stepping = _CPUINFO.replace("stepping\t: 1\n", "", 1)
    assert pinning.cpu_description(no_stepping) == "AMD EPYC (AuthenticAMD, family 26, model 2)"
    # model 0 and family 0 are numbers like any other; a field that is missing or empty is left out
    assert pinning.cpu_description("model name\t: X\ncpu family\t: 0\nmodel\t: 0\nstepping\t:\n") == "X (family 0, model 0)"


def test_cpu_description_without_cpuinfo_falls_back_to_the_platform(monkeypatch):
    import platform

    monkeypatch.setattr(platform, "processor", lambda: "arm")
    assert pinning.cpu_description("") == "arm"
    assert pinning.cpu_description("Processor\t: ARMv7 rev 4 (v7l)\n") == "ARMv7 rev 4 (v7l)"
    monkeypatch.setattr(platform, "processor", lambda: "")
    assert pinning.cpu_description("") == platform.machine()
    with pytest.raises(TypeError, match="cpuinfo"):
        pinning.cpu_description(_CPUINFO.encode())


def test_cpu_description_reads_this_machine():
    text = pinning.cpu_description()
    assert text and "\n" not in text
    if os.path.exists("/proc/cpuinfo"):
        assert text == pinning.cpu_description(open("/proc/cpuinfo", encoding="utf-8", errors="replace").read())
