#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two builds side by side on one GPU, for a change that must not change speed:
#   bench/build_ab.sh BEFORE_CLI AFTER_CLI OUT_DIR ROUNDS -- [bench options...] [-- [bench options...] ...]
# runs every option set with both CLIs, alternating BEFORE, AFTER in each of ROUNDS rounds (so a drift of the
# GPU's clocks or temperature falls on both), and prints one Markdown row per configuration: the median
# GCells/s of each build over the rounds, and after / before. E.g. the floors of docs/PERFORMANCE.md:
#   bench/build_ab.sh before/stencilscope-cli after/stencilscope-cli out 2 \
#       -- --size 32768x32768 --variant stream --radius 1 --cf 8 --repeats 3 --warmup 1 \
#       -- --dims 3 --size 1024x1024x1024 --variant stream --radius 4 --cf 4 --steps 8 --repeats 3 --warmup 1
set -euo pipefail
if [[ $# -lt 6 || $5 != -- ]]; then
    echo "usage: bench/build_ab.sh BEFORE_CLI AFTER_CLI OUT_DIR ROUNDS -- OPTIONS [-- OPTIONS ...]" >&2
    exit 2
fi
before=$1 after=$2 out=$3 rounds=$4
shift 5
mkdir -p "$out"
sets=()
current=""
for word in "$@"; do
    if [[ $word == -- ]]; then
        sets+=("$current")
        current=""
    else
        current+="${current:+ }$word"
    fi
done
sets+=("$current")
for ((round = 1; round <= rounds; ++round)); do
    for i in "${!sets[@]}"; do
        for build in before after; do
            cli=$before
            [[ $build == after ]] && cli=$after
            # shellcheck disable=SC2086 # the option set is split on purpose
            "$cli" bench ${sets[$i]} --csv "$out/${build}_set${i}_round$round.csv" >>"$out/${build}.log" 2>&1
        done
    done
done
python3 - "$out" <<'PY'
import csv
import glob
import statistics
import sys

out = sys.argv[1]
key = ("dims", "nx", "ny", "nz", "precision", "radius", "variant", "cf", "depth", "block_x", "block_y", "block_z")
rates = {}
for build in ("before", "after"):
    for path in sorted(glob.glob(f"{out}/{build}_set*_round*.csv")):
        for row in csv.DictReader(open(path)):
            k = tuple(row.get(c, "") for c in key)
            rates.setdefault(k, {}).setdefault(build, []).append(float(row["gcells_per_s"]))
print("| configuration | before (GCells/s, median) | after | after / before |")
print("|---|---|---|---|")
for k, by_build in rates.items():
    r = dict(zip(key, k))
    size = f"{r['nx']}x{r['ny']}" + (f"x{r['nz']}" if r["dims"] == "3" else "")
    name = f"{r['dims']}D {size} {r['precision']} R{r['radius']} {r['variant']} CF {r['cf']} {r['block_x']}x{r['block_y']}"
    if r["variant"] == "temporal":
        name += f" depth {r['depth']}"
    b = statistics.median(by_build.get("before", [0.0]))
    a = statistics.median(by_build.get("after", [0.0]))
    ratio = f"{a / b:.3f}" if b > 0 else "–"
    print(f"| {name} | {b:.1f} ({len(by_build.get('before', []))} runs) | {a:.1f} | {ratio} |")
PY
