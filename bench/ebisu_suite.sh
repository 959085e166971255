#!/usr/bin/env bash
# EBISU's ten stencils (issues 34/35), fp32 and fp64, each at EBISU's own --experiment size (seed 002's driver:
# 2D (256 - 2 * depth * R) * 36 squared with its depth per shape and precision; 3D 12 tiles x 9 tiles x 2560):
#  1. every single-step variant that runs point stencils (base, smem, stream; CF 1 and 2, heuristic block; or
#     SINGLE_VARIANTS and SINGLE_CFS, comma lists; SINGLE_STEPS steps per timed run, 8 unless given),
#  2. the temporal variant with its defaults only (--variant temporal and the size: the issue's "by default";
#     TEMPORAL=0 leaves it out),
#  3. --variant auto (the fastest of its short list, timed on the device; AUTO=0 leaves it out),
#  4. EBISU's own binary beside it when EBISU_BIN names the folder of its *_ebisu.exe (EBISU_TIMEOUT seconds each,
#     60 unless given; built outside this
#     repository, bench/results/PERFORMANCE_HISTORY.md "Temporal blocking vs EBISU" says how).
# FP32_3D_SIZE replaces the 3D fp32 size, PRECISIONS="fp32" runs one precision.
# One CSV for ours (bench measures the copy roofline in the same process), ebisu.tsv for EBISU's lines, then
# bench/ebisu_table.py prints the tables.
#   [EBISU_BIN=DIR] [AUTO=0] [TEMPORAL=0] [SINGLE_VARIANTS=..] [SINGLE_CFS=..] [SINGLE_STEPS=N] [ONLY="2d5pt 3d7pt"] \
#       bench/ebisu_suite.sh CLI OUT_DIR [REPEATS]
set -uo pipefail
cli=${1:?usage: ebisu_suite.sh CLI OUT_DIR [REPEATS]}
out=${2:?usage: ebisu_suite.sh CLI OUT_DIR [REPEATS]}
repeats=${3:-3}
mkdir -p "$out"
# measured once per OUT_DIR: a run stencil by stencil (ONLY=...) into one folder reuses it
[ -s "$out/roofline.jsonl" ] ||
    "$cli" roofline --json > "$out/roofline.jsonl" 2> "$out/roofline.log" || echo "roofline failed (see roofline.log)"

# EBISU's --experiment sizes (2D: its timesteps<> table; 2d49pt has no entry, so depth 1).
size_of() { # size_of STENCIL PRECISION
    case "$1:$2" in
    2d5pt:fp32) echo 8568x8568 ;;  2d5pt:fp64) echo 8352x8352 ;;
    2ds9pt:*) echo 8064x8064 ;;
    2d9pt:fp32) echo 8640x8640 ;;  2d9pt:fp64) echo 8784x8784 ;;
    2d25pt:fp32) echo 8352x8352 ;; 2d25pt:fp64) echo 8640x8640 ;;
    2d49pt:*) echo 9000x9000 ;;
    *:fp32) echo "${FP32_3D_SIZE:-768x288x2560}" ;; # EBISU's fp32 3D binaries hung at this size on the H100
    *:fp64) echo 384x288x2560 ;;
    esac
}
stencils=${ONLY:-2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt 3d7pt 3d13pt 3d27pt 3d17pt poisson}
touch "$out/ebisu.tsv" # appended to: a run stencil by stencil (ONLY=...) into one folder keeps every line
for s in $stencils; do
    for p in ${PRECISIONS:-fp32 fp64}; do
        size=$(size_of "$s" "$p")
        base=(--stencil "$s" --precision "$p" --size "$size" --warmup 1 --repeats "$repeats" --csv "$out/ebisu_suite.csv")
        echo "== $s $p $size" >> "$out/ebisu_suite.log"
        "$cli" bench "${base[@]}" --variant "${SINGLE_VARIANTS:-base,smem,stream}" \
            --cf "${SINGLE_CFS:-1,2}" --steps "${SINGLE_STEPS:-8}" >> "$out/ebisu_suite.log" 2>&1 ||
            echo "$s $p single step: exit $?"
        if [ "${TEMPORAL:-1}" != 0 ]; then
            "$cli" bench "${base[@]}" --variant temporal --steps 24 >> "$out/ebisu_suite.log" 2>&1 ||
                echo "$s $p temporal: exit $?"
        fi
        if [ "${AUTO:-1}" != 0 ]; then
            "$cli" bench "${base[@]}" --variant auto --steps 24 >> "$out/ebisu_suite.log" 2>&1 ||
                echo "$s $p auto: exit $?"
        fi
        if [ -n "${EBISU_BIN:-}" ]; then
            flag=$([ "$p" = fp32 ] && echo --fp32 || true)
            # Its 2D driver picks the size itself; its 3D driver reads argv[3] whenever argv[2] exists, so
            # the size goes first.
            sizes=$([[ $s == 3d* || $s == poisson ]] && echo "${size//x/ }" || true)
            # Its result is one tab-separated line of numbers (GCells/s last); anything else (an error, a crash)
            # stays in ebisu.log and the table says "-". A 60 s limit: its 3D binaries hung on an H200 (2026-11-27).
            echo "== $s $p $sizes $flag --experiment" >> "$out/ebisu.log"
            timeout "${EBISU_TIMEOUT:-60}" "$EBISU_BIN/${s}_ebisu.exe" $sizes $flag --experiment >> "$out/ebisu.log" 2>&1
            echo "exit $?" >> "$out/ebisu.log"
            line=$(sed -n '/^== '"$s $p"' /,/^exit/p' "$out/ebisu.log" | grep -E '^[0-9]+[[:space:]]' | tail -1)
            printf '%s\t%s\t%s\t%s\n' "$s" "$p" "$size" "$line" >> "$out/ebisu.tsv"
        fi
    done
done
python3 "$(dirname "$0")/ebisu_table.py" "$out/ebisu_suite.csv" "$out/roofline.jsonl" "$out/ebisu.tsv"
