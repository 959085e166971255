#!/usr/bin/env python3
"""Markdown tables (GCells/s and % of the copy roofline) from stencilscope-cli bench CSVs."""
import csv
import sys
from collections import defaultdict

for path in sys.argv[1:]:
    groups = defaultdict(list)  # one table per precision and domain (a bench CSV may hold both precisions)
    for r in csv.DictReader(open(path)):
        groups[(r["precision"], r["dims"], r["nx"], r["ny"], r["nz"])].append(r)
    for rows in groups.values():
        cells = defaultdict(dict)
        for r in rows:
            cells[(int(r["radius"]), r["variant"])][int(r["cf"])] = r
        print(f"\n{rows[0]['dims']}D {rows[0]['nx']}x{rows[0]['ny']}" + (f"x{rows[0]['nz']}" if rows[0]["dims"] == "3" else "")
              + f" {rows[0]['precision']}, copy roofline {float(rows[0]['copy_gbytes_per_s']):.0f} GB/s\n")
        print("| R | variant | CF 1 | CF 2 | CF 4 | CF 8 |")
        print("|---|---|---|---|---|---|")
        order = ["base", "smem", "smem_padded", "stream"]
        for (radius, variant) in sorted(cells, key=lambda k: (k[0], order.index(k[1]) if k[1] in order else 9)):
            out = []
            for cf in (1, 2, 4, 8):
                r = cells[(radius, variant)].get(cf)
                out.append(f"{float(r['gcells_per_s']):.0f} ({float(r['pct_of_roofline']):.0f}%)" if r else "–")
            print(f"| {radius} | {variant} | " + " | ".join(out) + " |")
