#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""EBISU's ten stencils measured by bench/ebisu_suite.sh: one Markdown row per stencil and precision.

Usage: ebisu_table.py EBISU_SUITE.csv [ROOFLINE.jsonl]
Columns: the best single-step variant (GCells/s, % of the copy roofline bench measured in the same process), the
temporal variant at its default depth, and the flop rate of the faster of the two against the device's FMA peak
in that precision (2n - 1 flops per cell for n weighted points, gpu/problem/arithmetic_intensity.h), read from
`stencilscope-cli roofline --json` when given. A stencil turns compute-bound where that share passes the DRAM's.
"""
import csv
import json
import sys

POINTS = {"2d5pt": 5, "2ds9pt": 9, "2d9pt": 9, "2d25pt": 25, "2d49pt": 49,
          "3d7pt": 7, "3d13pt": 13, "3d27pt": 27, "3d17pt": 17, "poisson": 19}


def peaks(path):
    """fp32 and fp64 FMA peaks in TFLOP/s from the roofline rows (empty when not measured)."""
    out = {}
    if not path:
        return out
    for line in open(path):
        row = json.loads(line)
        for precision in ("fp32", "fp64"):
            value = row.get(precision + "_flops_per_s")
            if value:
                out[precision] = float(value) / 1e12
    return out


def main(argv):
    if len(argv) < 1:
        sys.exit("usage: ebisu_table.py EBISU_SUITE.csv [ROOFLINE.jsonl]")
    peak = peaks(argv[1] if len(argv) > 1 else None)
    best = {}
    for r in csv.DictReader(open(argv[0])):
        if not r["gcells_per_s"]:
            continue
        key = (r["stencil_name"], r["precision"])
        slot = "temporal" if r["variant"] == "temporal" else "single"
        rate = float(r["gcells_per_s"])
        entry = best.setdefault(key, {})
        if slot not in entry or rate > float(entry[slot]["gcells_per_s"]):
            entry[slot] = r
    print("| stencil | precision | best single step | GCells/s | % copy roofline | temporal (depth) | GCells/s |"
          " TFLOP/s (% of peak) |")
    print("|---|---|---|---|---|---|---|---|")
    for name in POINTS:
        for precision in ("fp32", "fp64"):
            entry = best.get((name, precision))
            if not entry:
                continue
            single, temporal = entry.get("single"), entry.get("temporal")
            cells = [name, precision]
            if single:
                cells += ["%s CF %s %sx%sx%s" % (single["variant"], single["cf"], single["block_x"], single["block_y"],
                                                 single["block_z"]),
                          "%.1f" % float(single["gcells_per_s"]), single["pct_of_roofline"] or "-"]
            else:
                cells += ["-", "-", "-"]
            if temporal:
                cells += ["depth %s" % temporal["depth"], "%.1f" % float(temporal["gcells_per_s"])]
            else:
                cells += ["-", "-"]
            fastest = max((x for x in (single, temporal) if x), key=lambda x: float(x["gcells_per_s"]))
            tflops = float(fastest["gcells_per_s"]) * (2 * POINTS[name] - 1) / 1000.0
            share = " (%.0f %%)" % (100.0 * tflops / peak[precision]) if precision in peak else ""
            cells.append("%.2f%s" % (tflops, share))
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
