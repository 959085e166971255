#!/usr/bin/env bash
# call 3: the field handover's GPU tests, then the 0.25 s soaks (2D 4096² fp64, 3D 256³), counters on.
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/apps.tgz -C .device-build
export XDG_CACHE_HOME=/tmp/kc SOAK_TRACE=1
.device-build/tests/gpu_kernel_tests --gtest_filter='FieldHandover*:Point*' > $OUT/handover.log 2>&1; echo "tests rc $?"; grep -E "^\[  (PASSED|FAILED)|FAILED |Failure" $OUT/handover.log | head
S=.device-build/app/gui/stencilscope
$S --dims 2 --size 4096x4096 --precision fp64 --metrics on --soak-seconds 40 --soak-interval 0.25 > $OUT/soak2d.log 2>&1
$S --dims 3 --size 256x256x256 --metrics on --soak-seconds 40 --soak-interval 0.25 > $OUT/soak3d.log 2>&1
for f in $OUT/soak*.log; do echo "== $f"; grep -E "knob to frame|frames/s|PASS|FAIL|scene changes|failure" $f; done
