"""Does a pinned run depend on the host? The reproducibility cell under emulated hosts, pinned and unpinned.

    python benchmarks/memory_arch/pin_emulation.py [--out docs/results/cpu-architectures/cross-machine/pin_emulation.json]

One machine stands in for several by capping what each library may use (the environment variables that the
libraries read when they load, set for the training process): an AVX2 host without AVX-512 (oneDNN, MKL, ATen
and NumPy capped at AVX2), an SSE4-level oneDNN and MKL, a host whose user preset other values of the pinned
variables, and two worker processes instead of one. Each host trains the reproducibility cell
(``numerics.memory_functions.bench.repro``) twice: pinned (``run_sweep(pin=True)``, compared with the committed
record ``tests/data/repro_cell.json``) and unpinned (``pin=False``, inline, compared with this machine's own
unpinned run): the unpinned column shows that the emulated difference is real (it changes an unpinned run), the
pinned column that the pins remove it. About 3 CPU-minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "results" / "cpu-architectures" / "cross-machine" / "pin_emulation.json"
AVX2_NUMPY = "X86_V4,AVX512_ICL,AVX512_SPR"      # NumPy 2.4's targets above x86-64-v3 (pinning.pinned_environ's list)
HOSTS = {
    "this machine": {},
    "an AVX2 host (no AVX-512)": {"ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2",
                                  "ATEN_CPU_CAPABILITY": "avx2", "NPY_DISABLE_CPU_FEATURES": AVX2_NUMPY},
    "an SSE4 oneDNN and MKL": {"ONEDNN_MAX_CPU_ISA": "SSE41", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2"},
    "presets of the pinned variables": {"MKL_CBWR": "AVX512", "ATEN_CPU_CAPABILITY": "avx512", "OMP_NUM_THREADS": "2",
                                        "MKL_NUM_THREADS": "2"},
    "two workers": {"SEQTHEORY_EMULATION_WORKERS": "2"},
}


def child(mode: str, path: str) -> None:
    """Train the cell (``mode`` pinned / unpinned) in this process's environment; write {run_id: result}."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.repro import GROUP, SWEEP, reproducible_part
    from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep

    runs = expand_sweep(SWEEP)
    workers = int(os.environ.get("SEQTHEORY_EMULATION_WORKERS", "1"))
    with ResultStore(":memory:") as st:
        run_sweep(runs, st, workers=workers, group=GROUP, progress=False, pin=mode == "pinned")
        out = {r.run_id: st.get(r.run_id)["result"] for r in runs}
    Path(path).write_text(json.dumps({"runs": {k: reproducible_part(v) for k, v in out.items()},
                                      "env": next(iter(out.values()))["numeric_env"]}), encoding="utf-8")


def _train(mode: str, extra: dict, tmp: Path) -> dict:
    path = tmp / f"{mode}-{len(list(tmp.iterdir()))}.json"
    env = {**os.environ, **extra}
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(path)], env=env, cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"{mode} {extra}: {proc.stderr[-2000:]}")
    return json.loads(path.read_text(encoding="utf-8"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        child(*a.child)
        return 0
    from numerics.memory_functions.bench.repro import differences

    record = json.loads((ROOT / "tests" / "data" / "repro_cell.json").read_text(encoding="utf-8"))["runs"]
    t0, rows = time.process_time(), []
    with tempfile.TemporaryDirectory() as tmp:
        base = None
        for name, extra in HOSTS.items():
            pinned, unpinned = _train("pinned", extra, Path(tmp)), _train("unpinned", extra, Path(tmp))
            base = base or unpinned["runs"]
            dp, du = differences(record, pinned["runs"], max_fields=1), differences(base, unpinned["runs"], max_fields=1)
            rows.append({"host": name, "environment": extra, "pinned_equal_to_record": not dp,
                         "pinned_differing_runs": len(dp), "pinned_env": pinned["env"],
                         "unpinned_equal_to_this_machine_unpinned": not du, "unpinned_differing_runs": len(du),
                         "unpinned_first_difference": du[:1]})
            print(f"{name:36s} pinned: {'= record' if not dp else f'{len(dp)} runs differ'}; unpinned: "
                  f"{'= this machine' if not du else f'{len(du)} of 5 runs differ'}")
    doc = {"about": __doc__.split("\n\n")[0], "command": "python benchmarks/memory_arch/pin_emulation.py",
           "date": time.strftime("%Y-%m-%d"), "runs_per_cell": len(record), "hosts": rows}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {a.out} ({time.process_time() - t0:.0f} s of this process's CPU; the children's not counted)")
    return 0 if all(r["pinned_equal_to_record"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
