#!/usr/bin/env bash
# Session 35, call 6 (one H100): the forward point temporal kernel with the block-uniform fast path (tiles inside the
# field / clear of the border skip the per-cell tests): its GPU tests, the six stencils with points off the axes by
# default at EBISU's sizes (compare with call 3/4's, an H100 an hour before), and a few shapes the defaults do not try.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r6; mkdir -p $R; trap 'tar czf $OUT/r6.tgz -C /tmp r6' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
(cd $B/tests && timeout 120 ./gpu_kernel_tests --gtest_filter='PointKernels.*' > $R/kernel_tests.log 2>&1; echo "point kernel tests rc $?"; tail -1 $R/kernel_tests.log)
b() { # NAME ARGS...
    local name=$1; shift
    timeout 60 $CLI bench --variant temporal --steps 24 --warmup 1 --repeats 3 --csv $R/bench.csv "$@" > $R/$name.log 2>&1
    echo "== $name rc $?"; grep -E "^(config|rate)" $R/$name.log | paste - - | sed 's/  */ /g' | cut -c8-130
}
b 2d9pt_fp32 --stencil 2d9pt --size 8640x8640 --precision fp32
b 2d9pt_fp64 --stencil 2d9pt --size 8784x8784 --precision fp64
b 2d25pt_fp32 --stencil 2d25pt --size 8352x8352 --precision fp32
b 2d25pt_fp64 --stencil 2d25pt --size 8640x8640 --precision fp64
b 2d49pt_fp32 --stencil 2d49pt --size 9000x9000 --precision fp32
b 3d27pt_fp32 --stencil 3d27pt --size 384x288x2560 --precision fp32
b 3d27pt_fp64 --stencil 3d27pt --size 384x288x2560 --precision fp64
b 3d17pt_fp32 --stencil 3d17pt --size 384x288x2560 --precision fp32
b poisson_fp32 --stencil poisson --size 384x288x2560 --precision fp32
b poisson_fp64 --stencil poisson --size 384x288x2560 --precision fp64
b x_2d9pt_cf4 --stencil 2d9pt --size 8640x8640 --cf 4 --depth 6,8
b x_2d25pt_cf4 --stencil 2d25pt --size 8352x8352 --cf 4 --depth 3,6
b x_3d27pt_64 --stencil 3d27pt --size 384x288x2560 --cf 4 --depth 2,3 --block 64x8x1
b x_3d27pt_cf8 --stencil 3d27pt --size 384x288x2560 --cf 8 --depth 2,3
b x_2d5pt_fp64 --stencil 2d5pt --size 8352x8352 --precision fp64 --cf 4 --depth 4,6,8
