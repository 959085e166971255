#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A tuning knob off and on, side by side in one process each (the knobs are read once per process):
#   bench/knob_ab.sh KNOB CLI OUT_DIR [bench options...]
# runs `CLI bench OPTIONS --csv OUT_DIR/KNOB_0.csv` with KNOB=0 and then with KNOB=1, and prints one Markdown
# row per configuration: GCells/s and % of the copy roofline off and on, the ratio, and the registers. E.g. the
# lean-address knob of the 3D stream kernel (gpu/plan/launch_policy.h):
#   bench/knob_ab.sh STENCILSCOPE_STREAM_LEAN_ADDR stencilscope-cli results --dims 3 --size 1024x1024x1024 \
#       --precision fp32,fp64 --variant stream --radius 4,8,16 --cf 2,4 --steps 8 --repeats 3 --warmup 1
set -euo pipefail
if [[ $# -lt 3 ]]; then
    echo "usage: bench/knob_ab.sh KNOB CLI OUT_DIR [bench options...]" >&2
    exit 2
fi
knob=$1 cli=$2 out=$3
shift 3
mkdir -p "$out"
for value in 0 1; do
    rm -f "$out/${knob}_$value.csv"
    env "$knob=$value" "$cli" bench "$@" --csv "$out/${knob}_$value.csv" >"$out/${knob}_$value.log"
done
python3 - "$knob" "$out/${knob}_0.csv" "$out/${knob}_1.csv" <<'PY'
import csv
import sys

knob, off_path, on_path = sys.argv[1:]
key = ("dims", "nx", "ny", "nz", "precision", "radius", "variant", "cf", "block_x", "block_y", "block_z")
on = {tuple(r[k] for k in key): r for r in csv.DictReader(open(on_path))}


def rate(row):  # the CPU backend has no copy roofline
    pct = f" ({float(row['pct_of_roofline']):.1f} %)" if row["pct_of_roofline"] else ""
    return f"{float(row['gcells_per_s']):.1f}{pct}"


print(f"| configuration | {knob}=0 | =1 | on / off | registers |")
print("|---|---|---|---|---|")
for r in csv.DictReader(open(off_path)):
    s = on.get(tuple(r[k] for k in key))
    size = f"{r['nx']}x{r['ny']}" + (f"x{r['nz']}" if r["dims"] == "3" else "")
    name = f"{r['dims']}D {size} {r['precision']} R{r['radius']} {r['variant']} CF {r['cf']} {r['block_x']}x{r['block_y']}"
    off_text = rate(r)
    if s is None:
        print(f"| {name} | {off_text} | – | – | {r['registers']} |")
        continue
    on_text = rate(s)
    ratio = float(s["gcells_per_s"]) / float(r["gcells_per_s"])
    print(f"| {name} | {off_text} | {on_text} | {ratio:.3f} | {r['registers']} → {s['registers']} |")
PY
