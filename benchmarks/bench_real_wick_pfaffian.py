"""Real-weight rows E tr((G^k)^T G^k): the Pfaffian route against the matching enumeration, side by side.

    python benchmarks/bench_real_wick_pfaffian.py            # k = 6..10 both routes, all rows <= 30, k = 40, 60
    python benchmarks/bench_real_wick_pfaffian.py --no-40    # skip k = 40 and k = 60
    python benchmarks/bench_real_wick_pfaffian.py --no-60    # skip k = 60 (about 3 CPU minutes)
    python benchmarks/bench_real_wick_pfaffian.py --write    # also rewrite theory/data/real_wick_rows.json
                                                             # and docs/results/real-weight-rows.md (needs k = 60)

Targets (one core): every row k <= 30 in under 30 s in total, k = 40 in under 10 minutes, every row k <= 60 in
under 10 minutes (the rows 31..60 of the data file come from that one run); printed alongside,
the same rows with the python-flint backend of the elimination (``backend="flint"``) and its time ratio. The Pfaffian
route (numerics.signal_propagation.real_wick_pfaffian) gives every row <= K from one run, so "all rows <= 30" is one call of
``real_wick_rows(30)``; the per-row times are fresh calls ``real_wick_rows(k)`` (no cache). CPU time is
process time with numba on one thread. Enumeration times for k = 11, 12 (minutes to half an hour) are
read from the earlier run recorded in the data file, not rerun.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # run from a checkout without installing

from numerics.signal_propagation import real_wick, real_wick_pfaffian as pf  # noqa: E402
from numerics.signal_propagation.wick import polynomial_string  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "results" / "real-weight-rows.md"


def _cpu(func, *args, **kwargs):
    t0, c0 = time.perf_counter(), time.process_time()
    out = func(*args, **kwargs)
    return out, time.perf_counter() - t0, time.process_time() - c0


def _fresh_rows(K: int, backend: str = "numba"):
    return pf._rows.__wrapped__(K, backend)     # bypass the cache: a timing of the whole computation


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--no-40", action="store_true", help="skip the k = 40 and k = 60 runs")
    p.add_argument("--no-60", action="store_true", help="skip the k = 60 run (about 3 CPU minutes)")
    p.add_argument("--write", action="store_true", help="rewrite the data file and the results page")
    args = p.parse_args()
    old = json.loads(real_wick.DATA_FILE.read_text())
    enum_old = {r["k"]: r for r in old["rows"] if "enumeration_cpu_seconds" in r or "cpu_seconds" in r}
    _fresh_rows(3)                                                  # compile / cache load
    real_wick.real_wick_polynomial(8, algorithm="enumerate")                # compiles the memo kernel too

    print(f"{'k':>3} {'pfaffian CPU s':>15} {'enumeration CPU s':>18} {'speed-up':>9}  rows equal")
    per_row = {}
    for k in range(0, 31):
        rows, _, cpu = _cpu(_fresh_rows, k)
        per_row[k] = (list(rows[k]), cpu)
        if 6 <= k <= 12:
            if k <= 10:
                enum, _, ecpu = _cpu(real_wick.real_wick_polynomial, k, algorithm="enumerate")
                src = "this run"
            else:
                enum = [int(c) for c in enum_old[k]["coefficients"]]
                ecpu = enum_old[k].get("enumeration_cpu_seconds", enum_old[k].get("cpu_seconds"))
                src = "recorded run"
            print(f"{k:>3} {cpu:15.4f} {ecpu:18.3f} {ecpu / max(cpu, 1e-9):9.0f}x  {list(rows[k]) == enum} ({src})")
    rows30, wall30, cpu30 = _cpu(_fresh_rows, 30)
    print(f"\nall rows k <= 30 (one call): {cpu30:.2f} CPU s, {wall30:.2f} s wall (target < 30 s: "
          f"{'MET' if cpu30 < 30 else 'MISS'})")
    rows_flint, _, cpu_flint = _cpu(_fresh_rows, 30, "flint")
    print(f"all rows k <= 30, backend='flint' (python-flint nmod_poly series, no numba kernel in the elimination): "
          f"{cpu_flint:.2f} CPU s, {cpu_flint / cpu30:.1f}x the numba backend; rows equal: {rows_flint == rows30}")
    big = {}
    for K in (() if args.no_40 else (40,) if args.no_60 else (40, 60)):
        rowsK, wallK, cpuK = _cpu(_fresh_rows, K)
        big[K] = (rowsK, cpuK)
        same = all(list(rowsK[k]) == per_row[k][0] for k in range(31))
        print(f"row k = {K} (with every row <= {K}): {cpuK:.1f} CPU s, {wallK:.1f} s wall (target < 600 s: "
              f"{'MET' if cpuK < 600 else 'MISS'}); rows <= 30 equal the fresh ones: {same}")
    if args.write:
        if 60 not in big:
            raise SystemExit("--write needs the k = 60 run (drop --no-40 / --no-60)")
        rows60, cpu60 = big[60]
        for k in range(31, 61):
            per_row[k] = (list(rows60[k]), None)
        _write(per_row, cpu30, enum_old, {K: round(c, 1) for K, (_, c) in big.items()})


def _write(per_row, cpu30, enum_old, big_cpu) -> None:
    data = {
        "quantity": "E tr((G^k)^T G^k), G n x n with iid N(0,1) entries; coefficients[j] multiplies n**j",
        "algorithm": "numerics.signal_propagation.real_wick_pfaffian (quaternion duality, Pfaffian average, skew elimination, "
                     "modular arithmetic + CRT, exact interpolation); k <= 12 also by the matching enumeration "
                     "numerics.signal_propagation.real_wick (real_wick_polynomial(k, algorithm='enumerate'))",
        "machine": "a 2-core AMD EPYC machine shared with other jobs (CPU time is process time; the load "
                   "inflates it); numba, 1 thread",
        "seconds": "pfaffian_cpu_seconds (k <= 30): process CPU time of real_wick_rows(k) from scratch (it gives "
                   "every row <= k); rows 31..60 come from one run real_wick_rows(60), timed in "
                   "all_rows_le_K_cpu_seconds; enumeration_seconds / enumeration_cpu_seconds: the earlier "
                   "enumeration run, 2 threads",
        "all_rows_le_30_cpu_seconds": round(cpu30, 3),
        **{f"all_rows_le_{K}_cpu_seconds": c for K, c in big_cpu.items()},
        "rows": [],
    }
    for k, (coeffs, cpu) in per_row.items():
        row = {"k": k, "coefficients": coeffs}
        if cpu is not None:
            row["pfaffian_cpu_seconds"] = round(cpu, 4)
        if k in enum_old:
            e = enum_old[k]
            assert [int(c) for c in e["coefficients"]] == coeffs, k
            row["enumeration_seconds"] = e.get("enumeration_seconds", e.get("seconds"))
            row["enumeration_cpu_seconds"] = e.get("enumeration_cpu_seconds", e.get("cpu_seconds"))
        data["rows"].append(row)
    head = ",\n".join(f" {json.dumps(key)}: {json.dumps(v)}" for key, v in data.items() if key != "rows")
    rows = ",\n".join(f"  {json.dumps(r)}" for r in data["rows"])       # one row per line: readable diffs
    real_wick.DATA_FILE.write_text("{\n" + head + ',\n "rows": [\n' + rows + "\n ]\n}\n")
    table = [f"| {k} | {polynomial_string(c)} | {cpu:.4f} | "
             f"{enum_old[k].get('enumeration_cpu_seconds', enum_old[k].get('cpu_seconds')) if k in enum_old else ''} |"
             for k, (c, cpu) in per_row.items() if k <= 30]
    table += [f"| {k} | n^{k + 1} + ... ({len(str(max(c)))}-digit largest coefficient; the row is in the data file) | "
              f"(one run for all rows <= 60: {big_cpu[60]} CPU s) | |" for k, (c, _) in per_row.items() if k > 30]
    body = DOC.read_text()
    head, _, rest = body.partition("<!-- rows -->")
    _, _, tail = rest.partition("<!-- /rows -->")
    DOC.write_text(head + "<!-- rows -->\n| k | E tr((G^k)^T G^k) | Pfaffian CPU s (all rows <= k) | enumeration "
                   "CPU s |\n|---|---|---|---|\n" + "\n".join(table) + "\n<!-- /rows -->" + tail)
    print(f"wrote {real_wick.DATA_FILE.relative_to(ROOT)} and {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
