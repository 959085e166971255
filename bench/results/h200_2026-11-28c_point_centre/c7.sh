#!/usr/bin/env bash
# Session 36, call 7 (one GPU): the point temporal kernel capped at 48 registers in 2D R1 fp32 by default
# (point_temporal_register_cap): PointKernels.* on this build, then 2d9pt beside EBISU's own binary in one run
# (bench/ebisu_suite.sh, fp32 and fp64; EBISU built outside the repository for sm_90, as on 2026-11-28).
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r7; mkdir -p $R; trap 'tar czf $OUT/r7.tgz -C /tmp r7' EXIT
tar xJf .device-build/bin.txz -C .device-build
mkdir -p /tmp/ebisu && tar xJf tmp-device/s36/ebisu.txz -C /tmp/ebisu
nvidia-smi -L > $R/gpu.txt
(cd .device-build/tests && timeout 100 ./gpu_kernel_tests --gtest_filter='PointKernels.*' > $R/kernel_tests.log 2>&1; echo "point kernel tests rc $?"; tail -1 $R/kernel_tests.log)
EBISU_BIN=/tmp/ebisu EBISU_TIMEOUT=25 SINGLE_VARIANTS=stream SINGLE_CFS=4 ONLY="2d9pt" timeout 200 bash bench/ebisu_suite.sh \
    $PWD/.device-build/app/stencilscope-cli $R 3 > $R/table.md 2> $R/suite.err
cat $R/table.md | head -30
