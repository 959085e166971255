#!/usr/bin/env bash
# EBISU's ten stencils (issue 34/35), fp32 and fp64: every variant that runs point stencils, with its defaults
# (heuristic block, CF 1 and 2, temporal at its default depth), at EBISU's own sizes. One CSV; bench measures the
# copy roofline in the same process, so bench/ebisu_table.py can print GCells/s, % of the copy roofline and the
# flop rate against the device's peaks (stencilscope-cli roofline --json, written beside it).
#   bench/ebisu_suite.sh CLI OUT_DIR [REPEATS]
# CLI: the stencilscope-cli to run; OUT_DIR gets ebisu_suite.csv, roofline.jsonl and the log.
set -uo pipefail
cli=${1:?usage: ebisu_suite.sh CLI OUT_DIR [REPEATS]}
out=${2:?usage: ebisu_suite.sh CLI OUT_DIR [REPEATS]}
repeats=${3:-3}
mkdir -p "$out"
"$cli" roofline --json > "$out/roofline.jsonl" 2> "$out/roofline.log" || echo "roofline failed (see roofline.log)"
common=(--warmup 1 --repeats "$repeats" --csv "$out/ebisu_suite.csv" --variant base,smem,stream,temporal --cf 1,2)
# EBISU's sizes (its --experiment settings, seed 002): 2D 8568^2 fp32 and 8352^2 fp64, 3D 384x288x2560.
for p in fp32 fp64; do
    size2d=$([ "$p" = fp32 ] && echo 8568x8568 || echo 8352x8352)
    "$cli" bench --stencil 2d5pt,2ds9pt,2d9pt,2d25pt,2d49pt --precision "$p" --size "$size2d" "${common[@]}" \
        >> "$out/ebisu_suite.log" 2>&1 || echo "2D $p: exit $?"
    "$cli" bench --stencil 3d7pt,3d13pt,3d27pt,3d17pt,poisson --precision "$p" --size 384x288x2560 "${common[@]}" \
        >> "$out/ebisu_suite.log" 2>&1 || echo "3D $p: exit $?"
done
python3 "$(dirname "$0")/ebisu_table.py" "$out/ebisu_suite.csv" "$out/roofline.jsonl"
