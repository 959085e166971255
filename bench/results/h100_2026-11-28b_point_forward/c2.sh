#!/usr/bin/env bash
# Session 35, call 2 (one H100): the point temporal kernel summing forward (two shared planes, 2R+1 sums per cell
# and stage): its GPU tests, the lesson claims left from session 34, and a depth x CF sweep of EBISU's six stencils
# with points off the axes at EBISU's sizes (3D fp32 at 384x288x2560), to choose their defaults.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r2; mkdir -p $R; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
(cd $B/tests && timeout 150 ./gpu_kernel_tests --gtest_filter='PointKernels.*:*Temporal*:*AxisStar*' > $R/kernel_tests.log 2>&1; echo "kernel tests rc $?"; tail -3 $R/kernel_tests.log)
(cd $B/tests && timeout 100 ./gpu_lesson_claims > $R/lesson_claims.log 2>&1; echo "lesson claims rc $?"; tail -3 $R/lesson_claims.log)
sw() { # NAME SIZE PRECISION DEPTHS CFS
    timeout 70 $CLI bench --stencil $1 --size $2 --precision $3 --variant temporal --depth $4 --cf $5 --steps 24 \
        --warmup 1 --repeats 3 --csv $R/sweep.csv > $R/$1_$3.log 2>&1
    echo "== $1 $3 rc $?"; grep -E "^(config|rate)" $R/$1_$3.log | paste - - | sed 's/  */ /g' | cut -c1-150
}
sw 2d9pt 8640x8640 fp32 3,4,6,8 1,2
sw 2d9pt 8784x8784 fp64 3,4,6,8 1,2
sw 2d25pt 8352x8352 fp32 2,3,4,6 1,2
sw 2d25pt 8640x8640 fp64 2,3,4,6 1,2
sw 2d49pt 9000x9000 fp32 1,2,3,4 1,2
sw 2d49pt 9000x9000 fp64 1,2,3,4 1,2
sw 3d27pt 384x288x2560 fp32 2,3,4 1,2,4
sw 3d27pt 384x288x2560 fp64 2,3,4 1,2
sw 3d17pt 384x288x2560 fp32 2,3,4 1,2,4
sw 3d17pt 384x288x2560 fp64 2,3,4 1,2
sw poisson 384x288x2560 fp32 2,3,4 1,2,4
sw poisson 384x288x2560 fp64 2,3,4 1,2
