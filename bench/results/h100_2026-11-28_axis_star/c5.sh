#!/usr/bin/env bash
# Session 34, call 5 (one H100): 3D temporal from its new default CF (4 in fp32, 2 in fp64 on the star's kernel)
# against CF 1; 2d5pt fp64 by depth; the strips and point kernels after the FMAs were pinned.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r5; mkdir -p $R; trap 'tar czf $OUT/r5.tgz -C /tmp r5' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
timeout 100 $B/tests/gpu_multi_tests --gtest_filter='PointStrips.AxisStar*' > $R/multi.log 2>&1
echo "strips rc $?: $(grep -E '^\[  (PASSED|FAILED)' $R/multi.log | tr '\n' ' ')"
b() { # NAME ARGS...: one bench line
    local name=$1; shift
    timeout 90 $CLI bench --warmup 1 --repeats 3 --steps 24 --csv $R/bench.csv "$@" > $R/$name.log 2>&1
    echo "$name rc $?: $(grep -E '^rate' $R/$name.log | cut -c1-28) | $(grep -E '^kernel' $R/$name.log | cut -c10-50) | $(grep -E '^block' $R/$name.log | cut -c10-40) | $(grep -E '^config' $R/$name.log | cut -c10-80)"
}
d3="--size 384x288x2560"
for s in "--stencil 3d7pt" "--stencil 3d13pt" "--dims 3 --radius 1"; do
    for p in fp32 fp64; do
        n=$(echo "$s" | tr -d ' -')_$p
        b ${n}_default $s --precision $p $d3 --variant temporal
        b ${n}_cf1 $s --precision $p $d3 --variant temporal --cf 1
    done
done
b 3d7pt_fp32_auto --stencil 3d7pt --precision fp32 $d3 --variant auto
b 3d13pt_fp32_auto --stencil 3d13pt --precision fp32 $d3 --variant auto
b 3d7pt_fp32_768 --stencil 3d7pt --precision fp32 --size 768x288x2560 --variant temporal
for d in 6 8 10 12; do b 2d5pt_fp64_d$d --stencil 2d5pt --precision fp64 --size 8352x8352 --variant temporal --depth $d; done
timeout 240 $B/tests/gpu_kernel_tests --gtest_filter='PointKernels.MatchTheCpuReference' > $R/kernel.log 2>&1
echo "point kernels rc $?: $(grep -E '^\[  (PASSED|FAILED)' $R/kernel.log | tr '\n' ' ')"; grep -E "^\[  FAILED" $R/kernel.log | head
