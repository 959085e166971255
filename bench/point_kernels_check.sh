#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The point kernels' changes that no GPU had run when they were written (2026-11-27, issues 34/35), in one device
# call: the point stream kernel's forward sums (STENCILSCOPE_POINT_FORWARD, off by default) and the point temporal
# kernel's input loaded one plane ahead (STENCILSCOPE_TEMPORAL_AHEAD, 1 by default as for the star).
#  1. the point GPU tests (CPU reference, bitwise base) with the defaults and with forward sums;
#  2. forward sums off against on (bench/knob_ab.sh): box R1..R3 in 2D and 3D, EBISU's 3D shapes, stream CF 1, 2, 4;
#  3. the point temporal kernel one and two planes ahead at EBISU's sizes (against the build before it:
#     bench/build_ab.sh with the commit before "Point temporal: input planes loaded TEMPORAL_AHEAD planes ahead").
# Usage: bench/point_kernels_check.sh BUILD_DIR OUT_DIR      (on the GPU machine; BUILD_DIR holds tests/ and app/)
set -uo pipefail
build=${1:?usage: point_kernels_check.sh BUILD_DIR OUT_DIR}
out=${2:?usage: point_kernels_check.sh BUILD_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cli=$build/app/stencilscope-cli
mkdir -p "$out"
for forward in 0 1; do
    STENCILSCOPE_POINT_FORWARD=$forward "$build/tests/gpu_kernel_tests" --gtest_filter='Point*:*Point*' \
        > "$out/point_tests_forward_$forward.log" 2>&1
    echo "point GPU tests, forward sums $forward: exit $? $(grep -E '^\[  (PASSED|FAILED) ' \
        "$out/point_tests_forward_$forward.log" | tr '\n' ' ')"
done
common=(--variant stream --cf 1,2,4 --steps 20 --repeats 5 --warmup 1)
bash "$here/knob_ab.sh" STENCILSCOPE_POINT_FORWARD "$cli" "$out/forward_2d" --stencil box --radius 1,2,3 \
    --size 16384x16384 "${common[@]}"
bash "$here/knob_ab.sh" STENCILSCOPE_POINT_FORWARD "$cli" "$out/forward_3d" --stencil box --radius 1,2 --dims 3 \
    --size 512x512x512 "${common[@]}"
for s in 3d7pt 3d27pt poisson; do
    bash "$here/knob_ab.sh" STENCILSCOPE_POINT_FORWARD "$cli" "$out/forward_$s" --stencil "$s" \
        --size 768x288x2560 "${common[@]}"
done
for ahead in 1 2; do
    for s in 2d5pt:8568x8568 2d9pt:8640x8640 3d7pt:768x288x2560 3d27pt:768x288x2560; do
        STENCILSCOPE_TEMPORAL_AHEAD=$ahead "$cli" bench --stencil "${s%%:*}" --size "${s#*:}" --variant temporal \
            --steps 24 --repeats 3 --warmup 1 --csv "$out/temporal_ahead_$ahead.csv" > /dev/null 2>&1 ||
            echo "temporal ${s%%:*} ahead $ahead: exit $?"
    done
done
python3 - "$out/temporal_ahead_1.csv" "$out/temporal_ahead_2.csv" <<'PY'
import csv
import sys

one, two = (list(csv.DictReader(open(p))) for p in sys.argv[1:])
print("| stencil | size | depth | 1 ahead | 2 ahead | registers |")
print("|---|---|---|---|---|---|")
for a, b in zip(one, two):
    print(f"| {a['stencil_name']} | {a['nx']}x{a['ny']}x{a['nz']} | {a['depth']} | {float(a['gcells_per_s']):.1f} | "
          f"{float(b['gcells_per_s']):.1f} | {a['registers']} / {b['registers']} |")
PY
