#!/usr/bin/env bash
# call 5: max projection / handover / exercise GPU tests; the 0.25 s soaks with --soak-min-fps 30; the roofline,
# kernel source and exercise windows; every lesson shot at 1280x720 and 1920x1080.
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/apps.tgz -C .device-build
export XDG_CACHE_HOME=/tmp/kc
S=$PWD/.device-build/app/gui/stencilscope
.device-build/tests/gpu_kernel_tests --gtest_filter='FieldHandover*:MaxProjection*:KernelExercise*' > $OUT/kernel_tests.log 2>&1; echo "kernel tests rc $?"; grep -E "^\[  (PASSED|FAILED)|FAILED |Failure" $OUT/kernel_tests.log | head
mkdir -p /tmp/o
$S --dims 2 --size 4096x4096 --precision fp64 --metrics on --soak-seconds 45 --soak-interval 0.25 --soak-min-fps 30 > /tmp/o/soak2d.log 2>&1
$S --dims 3 --size 256x256x256 --metrics on --soak-seconds 45 --soak-interval 0.25 --soak-min-fps 30 > /tmp/o/soak3d.log 2>&1
for f in /tmp/o/soak*.log; do echo "== $f"; grep -E "knob to frame|frames/s|PASS|FAIL|scene changes" $f; done
cd /tmp/o
timeout 120 $S --frames 200 --metrics on --window-size 1280x720 --roofline-screenshot roofline-wave.png > panels.log 2>&1; echo "roofline rc $?"
timeout 120 $S --setup lesson:beating-the-roofline --frames 200 --metrics on --window-size 1280x720 --roofline-screenshot roofline-temporal.png >> panels.log 2>&1; echo "roofline temporal rc $?"
timeout 120 $S --variant smem --frames 3 --window-size 1280x720 --kernel-source-screenshot kernel-source.png >> panels.log 2>&1; echo "source rc $?"
timeout 120 $S --frames 3 --window-size 1280x720 --exercise-screenshot exercise.png --exercise-run >> panels.log 2>&1; echo "exercise rc $?"
tail -8 panels.log
cd - > /dev/null
bash tmp-device/shoot_lessons.sh $S /tmp/o/l1280 > /tmp/o/shoot.log 2>&1; echo "shoot 1280 rc $?"
WINDOW_SIZE=1920x1080 NAME_SUFFIX=-1920x1080-h100 bash tmp-device/shoot_lessons.sh $S /tmp/o/l1920 >> /tmp/o/shoot.log 2>&1; echo "shoot 1920 rc $?"
tail -3 /tmp/o/shoot.log
tar czf $OUT/pictures.tgz -C /tmp/o .
