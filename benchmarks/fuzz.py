"""Long fuzz run: bad and edge inputs for every public function, with counts of the outcomes.

    nice python benchmarks/fuzz.py --examples 10000 [--jobs 2] [--timeout 10]

Cases are generated with hypothesis (the strategies of ``tests/fuzz_values.py``, one parameter replaced
at a time in the baseline calls of ``tests/fuzz_harness.py``), spread evenly over the functions, then run
in worker processes with a time limit. Prints tried / clean / unnamed / crash / silent wrong / hang / slow
(over the limit, clean on a rerun with 6x the limit) and every non-clean case; exits 1 if any is not
clean or slow. Every accepted call of an energy path is also compared with an independent reference
(``tests/fuzz_oracle.py``), plus ``--oracle`` valid draws per path (every integer type, depths to 1e30); the
summary says how many calls were checked so.
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import sys
import threading
import time

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [_ROOT, os.path.join(_ROOT, "tests")]     # this checkout's code, also in the workers

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import fuzz_harness as fh  # noqa: E402
import fuzz_oracle  # noqa: E402
import fuzz_torch  # noqa: E402
from fuzz_values import values  # noqa: E402


def generate(qual: str, n: int, seed: int) -> list:
    """n (param, value) cases for one function, drawn by hypothesis."""
    params = fh.param_names(qual)
    if not params:
        return [(None, None)]
    out = []

    @settings(max_examples=n, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data):
        p = data.draw(st.sampled_from(params))
        out.append((p, data.draw(values(fh.baseline_value(qual, p)))))

    draw._hypothesis_internal_use_seed = seed
    draw()
    return out[:n]


def generate_valid(qual: str, n: int, seed: int) -> list:
    """n valid argument sets for one energy path (``fuzz_oracle.valid_args``), drawn by hypothesis."""
    out = []

    @settings(max_examples=n, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(fuzz_oracle.valid_args(qual))
    def draw(args):
        out.append(args)

    draw._hypothesis_internal_use_seed = seed
    draw()
    return out[:n]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=int(os.environ.get("SEQTHEORY_FUZZ_EXAMPLES", "10000")))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=fh.TIMEOUT_S)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="substring filter on function names")
    ap.add_argument("--no-cli", action="store_true", help="skip the command-line cases")
    ap.add_argument("--oracle", type=int, default=50,
                    help="valid draws per energy path checked against an independent reference (tests/fuzz_oracle.py)")
    args = ap.parse_args(argv)
    found = fh.discover()
    covered = {fh.base_qual(k) for k in fh.BASELINE_QUALS()}
    missing = [q for q in found if args.only in q and q not in covered]
    # the "qual#mp" baselines (a function's second precision path) are fuzzed as cases of their own
    funcs = [q for q in found + [k for k in fh.BASELINE_QUALS() if k not in found and fh.base_qual(k) in found]
             if args.only in q]
    if missing:
        print("no baseline for:", missing)
        return 1
    if not funcs:
        ap.error(f"--only {args.only!r}: no public function's qualified name contains it")
    # functions that train a network get a tenth of the examples, the others share the rest
    heavy = [q for q in funcs if fh.base_qual(q) in fuzz_torch.HEAVY]
    light = len(funcs) - len(heavy)
    per = max(1, math.ceil(args.examples / (light + 0.1 * len(heavy))))
    t0 = time.time()
    jobs = [(q, p, v) for i, q in enumerate(funcs)
            for p, v in generate(q, max(1, per // 10) if q in heavy else per, args.seed + i)]
    jobs += [(q, fh.MANY, v) for i, q in enumerate(fuzz_oracle.ORACLE_CASES) if args.only in q
             for v in generate_valid(q, args.oracle, args.seed + 7919 + i)]
    print(f"{len(jobs)} cases over {len(funcs)} functions, generated in {time.time() - t0:.1f} s", flush=True)
    counts = collections.Counter()
    bad = []
    lock = threading.Lock()
    queue = list(reversed(jobs))

    def work():
        runner = fh.Runner(timeout=args.timeout)
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    q, p, v = queue.pop()
                outcome, detail = runner.run(q, p, v)
                with lock:
                    counts[outcome] += 1
                    counts["checked"] += outcome == "clean" and detail.startswith(fh.ORACLE_TAG)
                    if outcome != "clean":
                        bad.append(f"{outcome:8s} {q}({p}={v!r:.50}): {detail[:300]}".replace("\n", " "))
                        print(bad[-1], flush=True)
                    done = sum(counts.values())
                    if done % 500 == 0:
                        print(f"... {done}/{len(jobs)} {dict(counts)}", flush=True)
        finally:
            runner.close()

    threads = [threading.Thread(target=work) for _ in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    checked = counts.pop("checked", 0)
    tried = sum(counts.values())
    modules = {q.rsplit(".", 1)[0] for q in map(fh.base_qual, funcs)}
    print(f"tried {tried} calls over {len(funcs)} functions in {len(modules)} modules / clean {counts['clean']} "
          f"({100.0 * counts['clean'] / max(tried, 1):.2f}%) / unnamed {counts['unnamed']} / crash {counts['crash']} / "
          f"silent wrong {counts['silent']} / hang {counts['hang']} / slow but clean {counts['slow']} / "
          f"harness error {counts['error']} ({time.time() - t0:.0f} s); {checked} accepted energy calls checked against "
          "an independent reference")
    cli = {} if args.no_cli else run_cli(args.jobs)
    if cli:
        print(f"command lines: {sum(cli.values())} cases / " + " / ".join(f"{k} {v}" for k, v in sorted(cli.items())))
    return 0 if counts["clean"] + counts["slow"] == tried and set(cli) <= {"clean"} else 1


def run_cli(jobs: int) -> collections.Counter:
    """Every command-line case of ``tests/fuzz_torch.py`` as a subprocess (one line, exit 2, no traceback)."""
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    counts = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        cases = fuzz_torch.cli_cases(tmp)
        with ThreadPoolExecutor(max(1, jobs)) as ex:
            for (name, _), (outcome, detail) in zip(cases, ex.map(lambda c: fuzz_torch.run_cli_case(c[1], _ROOT),
                                                                  cases)):
                counts[outcome] += 1
                if outcome != "clean":
                    print(f"{outcome:8s} CLI {name}: {detail}", flush=True)
    return counts


if __name__ == "__main__":
    sys.exit(main())
