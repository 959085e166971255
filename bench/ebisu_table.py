#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""EBISU's ten stencils measured by bench/ebisu_suite.sh: one Markdown row per stencil and precision.

Usage: ebisu_table.py EBISU_SUITE.csv [ROOFLINE.jsonl [EBISU.tsv]]
Columns: the best single-step variant (GCells/s, % of the copy roofline bench measured in the same process), the
temporal variant at its default depth, and the flop rate of the faster of the two against the device's FMA peak
in that precision (2n - 1 flops per cell for n weighted points, gpu/problem/arithmetic_intensity.h), read from
`stencilscope-cli roofline --json` when given. A stencil turns compute-bound where that share passes the DRAM's.
With EBISU.tsv (bench/ebisu_suite.sh's EBISU lines: stencil, precision, size, its output line, GCells/s last), a
second table: EBISU against our temporal variant with its defaults, --variant auto and our best row.
"""
import csv
import json
import sys

POINTS = {"2d5pt": 5, "2ds9pt": 9, "2d9pt": 9, "2d25pt": 25, "2d49pt": 49,
          "3d7pt": 7, "3d13pt": 13, "3d27pt": 27, "3d17pt": 17, "poisson": 19}


def cases():
    """EBISU's stencils in its order, fp32 then fp64: the rows of both tables."""
    for name in POINTS:
        for precision in ("fp32", "fp64"):
            yield name, precision


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
        sys.exit("usage: ebisu_table.py EBISU_SUITE.csv [ROOFLINE.jsonl [EBISU.tsv]]")
    peak = peaks(argv[1] if len(argv) > 1 else None)
    best = {}
    for r in csv.DictReader(open(argv[0])):
        if not r["gcells_per_s"]:
            continue
        key = (r["stencil_name"], r["precision"])
        if r.get("chosen_by") == "auto":
            slot = "auto"
        else:
            slot = "temporal" if r["variant"] == "temporal" else "single"
        rate = float(r["gcells_per_s"])
        entry = best.setdefault(key, {})
        if slot not in entry or rate > float(entry[slot]["gcells_per_s"]):
            entry[slot] = r
    print("| stencil | precision | best single step | GCells/s | % copy roofline | temporal (depth) | GCells/s |"
          " TFLOP/s (% of peak) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, precision in cases():
        entry = best.get((name, precision))
        if not entry:
            continue
        single, temporal = entry.get("single"), entry.get("temporal")
        cells = [name, precision]
        if single:
            cells += ["%s CF %s %sx%sx%s" % (single["variant"], single["cf"], single["block_x"], single["block_y"],
                                             single["block_z"]),
                      "%.1f" % float(single["gcells_per_s"]),
                      "%.1f" % float(single["pct_of_roofline"]) if single["pct_of_roofline"] else "-"]
        else:
            cells += ["-", "-", "-"]
        if temporal:
            cells += ["depth %s" % temporal["depth"], "%.1f" % float(temporal["gcells_per_s"])]
        else:
            cells += ["-", "-"]
        fastest = max((x for x in entry.values()), key=lambda x: float(x["gcells_per_s"]))
        tflops = float(fastest["gcells_per_s"]) * (2 * POINTS[name] - 1) / 1000.0
        share = " (%.0f %%)" % (100.0 * tflops / peak[precision]) if precision in peak else ""
        cells.append("%.2f%s" % (tflops, share))
        print("| " + " | ".join(cells) + " |")
    if len(argv) > 2:
        print()
        side_by_side(best, argv[2])


def ebisu_lines(path):
    """(stencil, precision) -> (size, depth, GCells/s) from EBISU's output lines."""
    out = {}
    for line in open(path):
        parts = line.rstrip("\n").split("\t", 3)
        if len(parts) < 4:
            continue
        fields = parts[3].split()
        try:
            rate = float(fields[-1])
            depth = fields[5] if parts[0].startswith("3d") or parts[0] == "poisson" else fields[4]
        except (ValueError, IndexError):
            continue  # EBISU failed: its message stays in the .tsv
        out[(parts[0], parts[1])] = (parts[2], depth, rate)
    return out


def describe(row):
    what = row["variant"]
    if row["variant"] == "temporal":
        what += " depth %s" % row["depth"]
    if row["cf"] not in ("", "1"):
        what += " CF %s" % row["cf"]
    return what


def side_by_side(best, path):
    ebisu = ebisu_lines(path)
    print("| stencil | precision | size | EBISU (depth) | temporal, defaults | x EBISU | auto (its choice) | x EBISU |"
          " our best | x EBISU |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, precision in cases():
        theirs = ebisu.get((name, precision))
        entry = best.get((name, precision), {})
        if not theirs and not entry:
            continue
        cells = [name, precision]
        cells += [theirs[0], "%.1f (%s)" % (theirs[2], theirs[1])] if theirs else ["-", "-"]
        for slot in ("temporal", "auto"):
            row = entry.get(slot)
            if row:
                rate = float(row["gcells_per_s"])
                label = "%.1f" % rate if slot == "temporal" else "%.1f (%s)" % (rate, describe(row))
                cells += [label, "%.2f" % (rate / theirs[2]) if theirs else "-"]
            else:
                cells += ["-", "-"]
        if entry:
            top = max(entry.values(), key=lambda x: float(x["gcells_per_s"]))
            rate = float(top["gcells_per_s"])
            cells += ["%.1f (%s)" % (rate, describe(top)), "%.2f" % (rate / theirs[2]) if theirs else "-"]
        else:
            cells += ["-", "-"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
