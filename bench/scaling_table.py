#!/usr/bin/env python3
"""Markdown strong-scaling tables from stencilscope-cli bench CSVs run with --gpus 1,N --overlap on,off."""
import csv
import sys
from collections import defaultdict

for path in sys.argv[1:]:
    runs = defaultdict(dict)  # (dims, radius, variant, cf) -> {(gpus, overlap, halo_path): row}
    for r in csv.DictReader(open(path)):
        key = (int(r["dims"]), int(r["radius"]), r["variant"], int(r["cf"]))
        runs[key].setdefault((int(r["gpus"]), r["overlap"], r["halo_path"]), r)  # first of duplicates
    for dims in sorted({k[0] for k in runs}):
        print(f"\n{dims}D, GCells/s (speed-up over 1 GPU); exchange = slowest strip's ghost-row exchange per step\n")
        print("| R | variant | 1 GPU | N GPUs, overlap on | N GPUs, overlap off | halo path | halo / step | exchange ms | halo GB/s |")
        print("|---|---|---|---|---|---|---|---|---|")
        for key in sorted(k for k in runs if k[0] == dims):
            cells = runs[key]
            one = next((r for (g, _, _), r in cells.items() if g == 1), None)
            if one is None:
                continue
            base = float(one["gcells_per_s"])
            split = {(o, h): r for (g, o, h), r in cells.items() if g > 1}
            for halo in sorted({h for (_, h) in split}):
                on, off = split.get(("on", halo)), split.get(("off", halo))
                def rate(r):
                    return f"{float(r['gcells_per_s']):.0f} ({float(r['gcells_per_s']) / base:.2f}x, {r['gpus']} GPUs)" if r else "–"
                ref = on or off
                mib = int(ref["halo_bytes_per_step"]) / 2**20
                variant = key[2] + (f" CF{key[3]}" if key[3] > 1 else "")
                print(f"| {key[1]} | {variant} | {base:.0f} | {rate(on)} | {rate(off)} | {halo} | {mib:g} MiB"
                      f" | {float(ref['exchange_ms_per_step']):.3f} | {float(ref['halo_gbytes_per_s']):.0f} |")
