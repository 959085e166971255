#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare one row of `stencilscope-cli profile --csv` with `ncu --csv --page raw --print-units base`.

    ncu_compare.py PROFILE.csv ROW NCU.csv [METRIC...]

ROW is the 0-based data row of the profile CSV. Prints a Markdown table: metric, collector, ncu,
difference in % of the ncu value. Without METRICs, every metric column both files have.
"""
import csv
import sys


def ncu_values(path):
    rows = [r for r in csv.reader(open(path)) if r]
    header = next(i for i, r in enumerate(rows) if r[0] == "ID")
    names, units, values = rows[header], rows[header + 1], rows[header + 2]
    return {n: (v.replace(",", ""), u) for n, v, u in zip(names, values, units)}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    profile = list(csv.DictReader(open(sys.argv[1])))[int(sys.argv[2])]
    ncu = ncu_values(sys.argv[3])
    metrics = sys.argv[4:] or [k for k in profile if "__" in k and k in ncu]
    print("| metric | unit | collector | ncu | difference |")
    print("|---|---|---|---|---|")
    for m in metrics:
        mine, (theirs, unit) = profile.get(m, ""), ncu.get(m, ("", ""))
        try:
            a, b = float(mine), float(theirs)
        except ValueError:
            print(f"| {m} | {unit} | {mine or '–'} | {theirs or '–'} | – |")
            continue
        diff = f"{100 * (a - b) / b:+.2f} %" if b else ("0" if a == 0 else "–")
        print(f"| {m} | {unit} | {a:.6g} | {b:.6g} | {diff} |")


if __name__ == "__main__":
    main()
