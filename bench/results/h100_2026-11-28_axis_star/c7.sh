#!/usr/bin/env bash
# Session 34, call 7 (one H100): the temporal defaults after call 6 (3D CF 4 and depth 4 at R1 in both precisions,
# fp64 2D CF 2), `--variant temporal` and the size only, at EBISU's sizes and the issue's star.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r7; mkdir -p $R; trap 'tar czf $OUT/r7.tgz -C /tmp r7' EXIT
tar xJf .device-build/bin.txz -C .device-build
CLI=$PWD/.device-build/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
b() {
    local name=$1; shift
    timeout 60 $CLI bench --warmup 1 --repeats 3 --steps 24 --csv $R/defaults.csv --variant temporal "$@" > $R/$name.log 2>&1
    echo "$name rc $?: $(grep -E '^rate' $R/$name.log | cut -c1-28) | $(grep -E '^config' $R/$name.log | cut -c10-90)"
}
b star3d_fp32 --dims 3 --radius 1 --size 384x288x2560 --precision fp32
b star3d_fp64 --dims 3 --radius 1 --size 384x288x2560 --precision fp64
b 3d7pt_fp64 --stencil 3d7pt --size 384x288x2560 --precision fp64
b 3d13pt_fp64 --stencil 3d13pt --size 384x288x2560 --precision fp64
b 2d5pt_fp64 --stencil 2d5pt --size 8352x8352 --precision fp64
b 2ds9pt_fp64 --stencil 2ds9pt --size 8064x8064 --precision fp64
b star2d_fp64 --radius 1 --size 8352x8352 --precision fp64
b 3d7pt_fp32_other --stencil 3d7pt --size 512x512x512 --precision fp32
b 2d5pt_fp32_other --stencil 2d5pt --size 12000x9000 --precision fp32
