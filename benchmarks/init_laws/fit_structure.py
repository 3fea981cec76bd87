"""Fit the cumulant structure of P_k(n) for iid laws: every c_{m,mu}(k) as a quasi-polynomial, verified on held-out rows.

    python benchmarks/init_laws/fit_structure.py            # fit, verify, print the table
    python benchmarks/init_laws/fit_structure.py --write    # also rewrite theory/data/law_expansion.json
    python benchmarks/init_laws/fit_structure.py --table    # only print the committed coefficients as a Markdown
                                                            # table (docs/results/init-laws.md, section 3)

``P_k(n) = sum_{m, mu} c_{m,mu}(k) kappa^mu n^(k+1-m)``: ``mu`` a multiset of cumulant half-orders >= 2
(``kappa^mu = prod kappa_{2s}``; ``mu = ()`` is the Gaussian part, fitted in ``theory/data/real_expansion.json``).
Data: the full rows (``theory/data/law_shape_counts.json``, every m, k <= 12) and the top rows
(``theory/data/law_top_counts.json``: the coefficients m <= M of larger k). For each ``(m, mu)`` with
``mu != ()`` and ``m <= M_FIT`` the script searches, by increasing number of unknowns ``N``, a quasi-polynomial
``A(k) + (-1)^k B(k)`` valid for ``k >= k0`` (``k0`` from 0 to 2m: below it the boundary of the walk breaks the
pattern), fitted by exact rational linear algebra on the first ``N`` rows ``k >= k0`` and accepted only if it
equals the data on **every** other row (at least ``MIN_HELD_OUT`` of them). M_FIT is the largest m for which
every ``mu`` is so determined. A failure stops the script (nothing is written).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))     # run from a checkout without installing

from theory.init_laws import rows as R  # noqa: E402
from theory.init_laws import structure as S  # noqa: E402
from theory.real_expansion import fit_quasi, quasi_value  # noqa: E402

OUT = Path(R.__file__).resolve().parents[1] / "data" / "law_expansion.json"
MIN_HELD_OUT = 3


def collect() -> tuple[dict, dict]:
    """``{(m, mu): {k: c}}`` from the full and the top rows, and ``{m: [the k where a_m(k) is known]}`` (a missing
    ``(m, mu)`` at a known k is a zero)."""
    data: dict = defaultdict(dict)
    known: dict[int, set] = defaultdict(set)
    K = R.law_rows_max_k()
    for k in range(K + 1):
        for (j, mu), c in R.cumulant_terms(k).items():
            data[(k + 1 - j, mu)][k] = c
        for m in range(0, 2 * K + 2):
            known[m].add(k)
    for k, top, terms in S.top_rows():
        for (j, mu), c in R.terms_in_cumulants(terms, jmin=k + 1 - top).items():
            data[(k + 1 - j, mu)][k] = c
        for m in range(0, top + 1):
            known[m].add(k)
    return data, {m: sorted(ks) for m, ks in known.items()}


def search(points: dict[int, int], m: int, known: list[int]) -> dict | None:
    """The quasi-polynomial with the fewest unknowns that fits the first known rows ``k >= k0`` and every later one."""
    best = None
    for k0 in range(0, 2 * m + 1):
        ks = [k for k in known if k >= k0]
        for N in range(1, len(ks) - MIN_HELD_OUT + 1):
            if best is not None and N >= best["N"]:
                break
            hit = None
            for db in range(-1, N - 1):
                da = N - 2 - db
                try:
                    A, B = fit_quasi({k: points.get(k, 0) for k in ks[:N]}, da, db)
                except ValueError:
                    continue
                if all(quasi_value(A, B, k) == points.get(k, 0) for k in ks[N:]):
                    hit = {"k0": k0, "N": N, "A": A, "B": B, "fit_rows": (ks[0], ks[N - 1]),
                           "verified_rows": (ks[N], ks[-1]), "held_out": len(ks) - N}
                    break
            if hit:
                best = hit
                break
    return best


def _poly(coeffs: tuple) -> str:
    """``sum_i coeffs[i] k^i`` as text, highest power first (``0`` for none)."""
    terms = []
    for i in range(len(coeffs) - 1, -1, -1):
        c = coeffs[i]
        if c == 0:
            continue
        mag = abs(c)
        body = {0: f"{mag}", 1: "k" if mag == 1 else f"{mag} k"}.get(i, f"k^{i}" if mag == 1 else f"{mag} k^{i}")
        terms.append(("- " if c < 0 else "+ ") + body)
    text = " ".join(terms) if terms else "0"
    return text[2:] if text.startswith("+ ") else "-" + text[2:] if text.startswith("- ") else text


def _monomial(mu: tuple[int, ...]) -> str:
    """``kappa^mu``: ``(2, 2)`` -> ``kappa_4^2``, ``(3, 2)`` -> ``kappa_6 kappa_4``."""
    return " ".join(f"kappa_{2 * s}" + (f"^{mu.count(s)}" if mu.count(s) > 1 else "")
                    for s in sorted(set(mu), reverse=True))


def coefficient_table() -> str:
    """The committed coefficients ``c_{m,mu}(k) = A(k) + (-1)^k B(k)`` (``k >= k0``), one Markdown row per ``(m, mu)``."""
    from validation.report import markdown_table

    rows = []
    for m in range(2, S.M_LAW + 1):
        for mu in S.monomials(m):
            A, B, k0 = S.coefficient(m, mu)
            rec = S.coefficient_record(m, mu)
            rows.append((m, f"`{_monomial(mu)}`", k0, f"`{_poly(A)}`", f"`{_poly(B)}`",
                         "{}..{}".format(*rec["fit_rows"]), "{}..{}".format(*rec["verified_rows"])))
    return markdown_table(["m", "monomial", "k0", "A(k)", "B(k)", "fitted on k", "equal on k"], rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help=f"rewrite {OUT.name}")
    p.add_argument("--table", action="store_true", help="print the committed coefficients as a Markdown table, exit")
    p.add_argument("--m-max", type=int, default=6, help="largest m tried (default 6)")
    args = p.parse_args()
    if args.table:
        print(coefficient_table())
        return
    data, known = collect()
    out, m_fit = [], 0
    for m in range(2, args.m_max + 1):
        mus = sorted({mu for (mm, mu) in data if mm == m and mu})
        recs = []
        for mu in mus:
            rec = search(data[(m, mu)], m, known[m])
            if rec is None:
                print(f"m={m} mu={mu}: not determined by the rows k <= {known[m][-1]} (>= {MIN_HELD_OUT} held out)")
                break
            deg_a, deg_b = len(rec["A"]) - 1, len(rec["B"]) - 1
            held = rec["held_out"]
            print(f"m={m} mu={str(mu):14s} k0={rec['k0']} deg A={deg_a} deg B={deg_b:2d} fit k={rec['fit_rows']} "
                  f"verified k={rec['verified_rows']} ({held} held out)")
            recs.append({"m": m, "mu": list(mu), "k0": rec["k0"], "A": [str(x) for x in rec["A"]],
                         "B": [str(x) for x in rec["B"]], "fit_rows": list(rec["fit_rows"]),
                         "verified_rows": list(rec["verified_rows"]), "held_out": rec["held_out"]})
        else:
            out.extend(recs)
            m_fit = m
            continue
        break
    print(f"M_FIT = {m_fit}: every c_(m,mu) with m <= {m_fit} determined and verified")
    if args.write:
        data_out = {
            "quantity": "c_{m,mu}(k): P_k(n) = sum_{m,mu} c_{m,mu}(k) kappa^mu n^(k+1-m), kappa^mu = prod_{s in mu} "
                        "kappa_{2s}; here mu != () (the Gaussian part is theory/data/real_expansion.json)",
            "form": "c_{m,mu}(k) = A(k) + (-1)^k B(k) for k >= k0 (A, B: monomial coefficients, entry i times k^i); "
                    "below k0 the exact rows",
            "algorithm": "benchmarks/init_laws/fit_structure.py: fewest unknowns fitted exactly on the first rows, "
                         f"equal on every other row (at least {MIN_HELD_OUT} held out)",
            "M_FIT": m_fit,
            "coefficients": out,
        }
        OUT.write_text(json.dumps(data_out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
