#!/usr/bin/env bash
# Session 35, call 8 (one H100): the final point temporal defaults (forward sums, fp32 fast path) of the six stencils
# with points off the axes at EBISU's sizes, and their GPU tests.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r8; mkdir -p $R; trap 'tar czf $OUT/r8.tgz -C /tmp r8' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
(cd $B/tests && timeout 100 ./gpu_kernel_tests --gtest_filter='PointKernels.*' > $R/kernel_tests.log 2>&1; echo "point kernel tests rc $?"; tail -1 $R/kernel_tests.log)
for c in "2d9pt 8640x8640 fp32" "2d9pt 8784x8784 fp64" "2d25pt 8352x8352 fp32" "2d25pt 8640x8640 fp64" "2d49pt 9000x9000 fp32" "2d49pt 9000x9000 fp64" \
         "3d27pt 384x288x2560 fp32" "3d27pt 384x288x2560 fp64" "3d17pt 384x288x2560 fp32" "3d17pt 384x288x2560 fp64" "poisson 384x288x2560 fp32" "poisson 384x288x2560 fp64"; do
    set -- $c
    timeout 40 $CLI bench --stencil $1 --size $2 --precision $3 --variant temporal --steps 24 --warmup 1 --repeats 3 \
        --csv $R/defaults.csv > $R/$1-$3.log 2>&1
    echo "$1 $3 $(grep -E '^config' $R/$1-$3.log | cut -c40-80) $(grep -E '^rate' $R/$1-$3.log | awk '{print $2}')"
done | tee $R/defaults.txt
