#!/usr/bin/env bash
# Session 34, call 4 (one H100): EBISU's stars (every point on an axis) on the star's temporal kernel with a weight
# per direction (STENCILSCOPE_POINT_AXIS_STAR, default on) against the point temporal kernel (=0), by default
# (--variant temporal and the size) and --variant auto; the GPU tests of the change.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r4; mkdir -p $R; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
timeout 150 $B/tests/gpu_multi_tests --gtest_filter='PointStrips.AxisStar*:FacePacking.*' > $R/multi.log 2>&1
echo "multi rc $?: $(grep -E '^\[  (PASSED|FAILED)' $R/multi.log | tr '\n' ' ')"
size_of() { case "$1:$2" in 2d5pt:fp32) echo 8568x8568 ;; 2d5pt:fp64) echo 8352x8352 ;; 2ds9pt:*) echo 8064x8064 ;;
    *) echo 384x288x2560 ;; esac; }
for s in 2d5pt 2ds9pt 3d7pt 3d13pt; do
    for p in fp32 fp64; do
        args="--stencil $s --precision $p --size $(size_of $s $p) --warmup 1 --repeats 3 --steps 24 --csv $R/bench.csv"
        for knob in 1 0; do
            STENCILSCOPE_POINT_AXIS_STAR=$knob timeout 60 $CLI bench $args --variant temporal > $R/${s}_${p}_t$knob.log 2>&1
            echo "$s $p temporal axis-star=$knob rc $?: $(grep -E '^rate' $R/${s}_${p}_t$knob.log | cut -c1-28) | $(grep -E '^kernel' $R/${s}_${p}_t$knob.log | cut -c1-60) | $(grep -E '^block' $R/${s}_${p}_t$knob.log | cut -c1-40)"
        done
        timeout 120 $CLI bench $args --variant auto > $R/${s}_${p}_auto.log 2>&1
        echo "$s $p auto rc $?: $(grep -E '^rate' $R/${s}_${p}_auto.log | cut -c1-28) | $(grep -E '^kernel' $R/${s}_${p}_auto.log | cut -c1-60)"
    done
done
timeout 300 $B/tests/gpu_kernel_tests --gtest_filter='PointKernels.*:TemporalKernel*' > $R/kernel.log 2>&1
echo "kernel tests rc $?: $(grep -E '^\[  (PASSED|FAILED)' $R/kernel.log | tr '\n' ' ')"; grep -E "^\[  FAILED" $R/kernel.log | head
