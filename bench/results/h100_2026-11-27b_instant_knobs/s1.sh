#!/usr/bin/env bash
# Session 2026-11-27b call 1: the point kernels' GPU tests (smem never run before), then the 0.25 s soak with the
# new knob-to-frame latency and engine switch phases (issue 40 diagnosis).
set -o pipefail
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/gpu-tests.tgz -C .device-build && tar xzf .device-build/apps.tgz -C .device-build
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
export XDG_CACHE_HOME=/tmp/kc
.device-build/tests/gpu_kernel_tests --gtest_filter='*Point*' > $OUT/points.log 2>&1; echo "points rc $?"; grep -E "^\[  (PASSED|FAILED)|FAILED " $OUT/points.log | head
scripts/gui-soak.sh --seconds 50 --interval 0.25 --log $OUT/soak2d.log .device-build/app/gui/stencilscope --dims 2 --size 4096x4096 --precision fp64 > /dev/null 2>&1
grep -E "knob to frame|frames/s|PASS|FAIL|scene changes" $OUT/soak2d.log
scripts/gui-soak.sh --seconds 40 --interval 0.25 --log $OUT/soak3d.log .device-build/app/gui/stencilscope > /dev/null 2>&1
grep -E "knob to frame|frames/s|PASS|FAIL|scene changes" $OUT/soak3d.log
