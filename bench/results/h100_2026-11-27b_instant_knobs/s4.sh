#!/usr/bin/env bash
# call 4: new GPU tests (handover, exercises, roofline ceilings, points), CLI roofline, the 0.25 s soaks with the
# counters following changes, and the write-the-kernel / roofline windows smoke-tested.
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/apps.tgz -C .device-build
export XDG_CACHE_HOME=/tmp/kc SOAK_TRACE=1
.device-build/tests/gpu_kernel_tests --gtest_filter='FieldHandover*:Point*:KernelExercise*' > $OUT/kernel_tests.log 2>&1; echo "kernel tests rc $?"; grep -E "^\[  (PASSED|FAILED)|FAILED |Failure" $OUT/kernel_tests.log | head
.device-build/tests/gpu_roofline_tests > $OUT/roofline_tests.log 2>&1; echo "roofline tests rc $?"; grep -vE "^\[ RUN|^\[       OK|^$" $OUT/roofline_tests.log | tail -12
.device-build/app/stencilscope-cli roofline > $OUT/roofline_cli.txt 2>&1; echo "cli rc $?"; cat $OUT/roofline_cli.txt
S=.device-build/app/gui/stencilscope
$S --dims 2 --size 4096x4096 --precision fp64 --metrics on --soak-seconds 40 --soak-interval 0.25 > $OUT/soak2d.log 2>&1
$S --dims 3 --size 256x256x256 --metrics on --soak-seconds 40 --soak-interval 0.25 > $OUT/soak3d.log 2>&1
for f in $OUT/soak*.log; do echo "== $f"; grep -E "knob to frame|frames/s|PASS|FAIL|scene changes|failure" $f; done
