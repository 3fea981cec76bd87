"""Fit the real-weight coefficients a_m(k) (m = 2..15) on the exact rows and verify each on every other row.

    python benchmarks/real_expansion/fit_coefficients.py            # fit, verify, print the table
    python benchmarks/real_expansion/fit_coefficients.py --write    # also rewrite theory/data/real_expansion.json

``a_m(k)`` is the coefficient of ``n^(k+1-m)`` in ``E tr((G^k)^T G^k)`` (real Ginibre ``G``; rows of
``theory/data/real_wick_rows.json``, k <= 60). Each is fitted, as ``A_m(k) + (-1)^k B_m(k)`` with the shape of
``theory.real_expansion.coefficient_shape``, by exact rational linear algebra on the rows ``k = 0..N_m-1``
(``N_m`` unknowns) and then checked exactly on every row ``N_m..80`` (``theory.real_expansion.fit_coefficient``; rows
61..80 are the verification set ``theory/data/real_wick_rows_verification.json``, computed after the fits).
A coefficient that fails on a held-out row stops the script (nothing is written). The structure the
expansion's error estimate uses is recorded too: whether ``a_14`` and ``a_15`` are positive for every
``k > 60`` (exact values up to the k where the leading term provably dominates, that bound beyond).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))     # run from a checkout without installing

from theory import real_expansion as rx  # noqa: E402
from theory.real_rows import real_row, real_rows_max_k, verification_rows  # noqa: E402

OUT = Path(rx.__file__).resolve().parent / "data" / "real_expansion.json"


def _positive_beyond(A, B, k0: int) -> int:
    """The number of integers ``k > k0`` checked one by one before ``a_m(k) = A(k) + (-1)^k B(k) > 0`` follows for
    every larger k from a bound, or -1 if some ``a_m(k) <= 0`` is met. The bound: from ``k1`` on the leading
    coefficient a of A beats every other term, ``a > sum_{i<D} |A_i| k1^(i-D) + sum_i |B_i| k1^(i-D)`` (exact
    rationals; the right side decreases in k); the integers ``k0 < k < k1`` are evaluated exactly."""
    D = len(A) - 1

    def dominated(k):
        k = Fraction(k)
        rest = sum(abs(x) * k ** (i - D) for i, x in enumerate(A[:-1]))
        return A[-1] > rest + sum(abs(x) * k ** (i - D) for i, x in enumerate(B))

    k1 = k0 + 1
    while not dominated(k1):
        k1 *= 2
    for k in range(k0 + 1, k1):
        if rx._quasi(A, B, k) <= 0:
            return -1
    return k1 - k0 - 1


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help=f"rewrite {OUT.name}")
    args = p.parse_args()
    rows = {k: real_row(k) for k in range(real_rows_max_k() + 1)}
    rows.update(verification_rows())               # rows 61..80: computed after the fits, held out for all
    K = max(rows)
    records = []
    print(f"{'m':>3} {'deg A':>5} {'deg B':>5} {'fit rows':>10} {'held out':>9}  verified   lead B")
    t0 = time.process_time()
    for m in range(2, rx.M_MAX + 1):
        da, db = rx.coefficient_shape(m)
        size = da + db + 2
        A, B = rx.fit_coefficient(m, rows, range(size))
        bad = [k for k in range(size, K + 1) if rx._quasi(A, B, k) != rx._row_coefficient(rows, m, k)]
        print(f"{m:>3} {da:>5} {db:>5} {'0..' + str(size - 1):>10} {K + 1 - size:>9}  "
              f"{'yes' if not bad else 'NO: ' + str(bad[:5]):8} {B[-1]}")
        if bad:
            raise SystemExit(f"a_{m} fails on held-out rows {bad[:10]}: not written")
        rec = {"m": m, "A": [str(x) for x in A], "B": [str(x) for x in B], "fit_rows": [0, size - 1],
               "verified_rows": [size, K]}
        if m >= rx.M_VALUE + 1:
            checked = _positive_beyond(A, B, real_rows_max_k())
            if checked < 0:
                raise SystemExit(f"a_{m}(k) <= 0 for some k > {real_rows_max_k()}: the error estimate's premise fails")
            rec["positive_for_k_above_rows"] = (f"proved: evaluated at k = {real_rows_max_k() + 1}.."
                                                f"{real_rows_max_k() + checked}, bound beyond")
        records.append(rec)
    print(f"fits and checks: {time.process_time() - t0:.1f} CPU s")
    if args.write:
        data = {"quantity": "a_m(k) = A_m(k) + (-1)^k B_m(k): the coefficient of n^(k+1-m) in E tr((G^k)^T G^k), G n x n "
                            "with iid N(0,1) entries; A, B: monomial coefficients (entry i multiplies k**i), exact "
                            "rationals",
                "status": "each a_m fitted by exact rational linear algebra on the rows fit_rows (inclusive) of "
                          "theory/data/real_wick_rows.json and verified exactly on every row verified_rows "
                          "(inclusive; rows 61..80 from theory/data/real_wick_rows_verification.json, computed "
                          "after the fits): verified, not proved",
                "rows_max_k": real_rows_max_k(), "verified_to_k": K,
                "generated_by": "python benchmarks/real_expansion/fit_coefficients.py --write",
                "coefficients": records}
        body = ",\n".join(f"  {json.dumps(r)}" for r in records)
        head = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "coefficients")
        OUT.write_text("{\n" + head + ',\n "coefficients": [\n' + body + "\n ]\n}\n")
        print(f"wrote {OUT}")
    assert all(isinstance(Fraction(x), Fraction) for r in records for x in r["A"])


if __name__ == "__main__":
    main()
