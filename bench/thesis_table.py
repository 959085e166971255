#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""StencilScope against the thesis' own kernels (bench/thesis_compare.sh): ratio tables in Markdown.

Usage: thesis_table.py THESIS.csv STENCILSCOPE.csv... [--joined OUT.csv]
A cell reads "ratio (StencilScope % / thesis %)": ratio = thesis ms per step / StencilScope ms per step
(> 1: StencilScope is faster), the percentages are of the device-copy roofline that `bench` measured in
the same run (8 ideal bytes per updated cell, fp32). "refused" = the thesis' smem_padded rule (every block
dim >= R) stops its binary; StencilScope's validation refuses the same configurations.
"""
import csv
import sys

VARIANTS = ["base", "smem", "smem_padded"]


def main(argv):
    joined_path = None
    if "--joined" in argv:
        i = argv.index("--joined")
        joined_path = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        sys.exit("usage: thesis_table.py THESIS.csv STENCILSCOPE.csv... [--joined OUT.csv]")
    thesis = {}
    for r in csv.DictReader(open(argv[0])):
        thesis[(int(r["dims"]), r["variant"], int(r["cf"]), int(r["radius"]))] = r
    ours, copy_bw = {}, {}
    for path in argv[1:]:
        for r in csv.DictReader(open(path)):
            key = (int(r["dims"]), r["variant"], int(r["cf"]), int(r["radius"]))
            ours[key] = r
            copy_bw[key[0]] = float(r["copy_gbytes_per_s"])
    joined, ratios = [], []
    for dims in (2, 3):
        if dims not in copy_bw:
            continue
        n = 32768 if dims == 2 else 1024
        print(f"\n{dims}D {n}^{dims} fp32, thesis rule; copy roofline {copy_bw[dims]:.0f} GB/s (same run)\n")
        print("| R | variant | CF 1 | CF 2 | CF 4 | CF 8 |")
        print("|---|---|---|---|---|---|")
        for radius in (1, 2, 4, 8, 16):
            for variant in VARIANTS:
                cells = []
                for cf in (1, 2, 4, 8):
                    key = (dims, variant, cf, radius)
                    t, o = thesis.get(key), ours.get(key)
                    updated = (n - 2 * radius) ** dims
                    t_ms = float(t["ms_per_step"]) if t and t["ms_per_step"] else None
                    o_ms = float(o["ms_per_step"]) if o else None
                    pct = lambda ms: 100 * updated * 8 / (ms * 1e6) / copy_bw[dims]
                    if t_ms and o_ms:
                        ratio = t_ms / o_ms
                        ratios.append((ratio, key))
                        cells.append(f"{ratio:.2f} ({pct(o_ms):.0f} / {pct(t_ms):.0f} %)")
                    elif o_ms:
                        cells.append(f"– ({pct(o_ms):.0f} % / {t['ms_per_step_runs'] if t else 'not run'})")
                    elif t_ms:
                        cells.append(f"– (not run / {pct(t_ms):.0f} %)")
                    else:
                        cells.append("refused" if t and "refused" in t["ms_per_step_runs"] else "–")
                    joined.append({
                        "dims": dims, "variant": variant, "cf": cf, "radius": radius,
                        "thesis_block": t["block"] if t else "", "thesis_ms_per_step": t_ms or "",
                        "thesis_runs": t["ms_per_step_runs"] if t else "",
                        "stencilscope_block": f"{o['block_x']}x{o['block_y']}x{o['block_z']}" if o else "",
                        "stencilscope_ms_per_step": o_ms or "", "registers": o["registers"] if o else "",
                        "occupancy": o["theoretical_occupancy"] if o else "",
                        "ratio": f"{t_ms / o_ms:.4f}" if t_ms and o_ms else "",
                    })
                print(f"| {radius} | {variant} | " + " | ".join(cells) + " |")
    if ratios:
        worst = sorted(ratios)[:8]
        below = [k for q, k in ratios if q < 1.0]
        print(f"\n{len(ratios)} ratios, min {worst[0][0]:.3f}, {len(below)} below 1.00; lowest: "
              + ", ".join(f"{d}D {v} CF{cf} R{r} {q:.3f}" for q, (d, v, cf, r) in worst))
    if joined_path:
        with open(joined_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(joined[0].keys()))
            w.writeheader()
            w.writerows(joined)


if __name__ == "__main__":
    main(sys.argv[1:])
