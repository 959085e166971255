#!/usr/bin/env bash
# call 7: the instant-knobs soaks as ctest runs them (120 s each, 0.25 s, counters on), the window's panels, and
# every lesson at 1280x720 and 1920x1080 (the lesson now opens at its own size and depth).
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/bin.tgz -C .device-build
export XDG_CACHE_HOME=/tmp/kc
S=$PWD/.device-build/app/gui/stencilscope
mkdir -p /tmp/o
ctest --test-dir .device-build -R gpu_soak_knobs -V > /tmp/o/soak_ctest.log 2>&1; echo "soak ctest rc $?"
grep -E "knob to frame|frames/s|RSS floor|PASS|FAIL|scene changes|not running|tests passed" /tmp/o/soak_ctest.log
cd /tmp/o
timeout 120 $S --setup lesson:beating-the-roofline --frames 300 --metrics on --window-size 1280x720 --roofline-screenshot roofline-temporal.png > panels.log 2>&1; echo "roofline temporal rc $?"
timeout 120 $S --setup lesson:coalescing --frames 300 --metrics on --window-size 1280x720 --roofline-screenshot roofline-coalescing.png >> panels.log 2>&1; echo "roofline coalescing rc $?"
timeout 120 $S --setup lesson:coarsening --variant smem --cf 4 --frames 3 --window-size 1280x720 --kernel-source-screenshot kernel-source.png >> panels.log 2>&1; echo "source rc $?"
timeout 120 $S --dims 2 --size 4096x4096 --rule jacobi --frames 3 --window-size 1280x720 --exercise-screenshot exercise.png --exercise-run >> panels.log 2>&1; echo "exercise rc $?"
grep -vE "^(QStandard|This plugin)" panels.log | tail -6
cd - > /dev/null
bash tmp-device/shoot_lessons.sh $S /tmp/o/l1280 > /tmp/o/shoot.log 2>&1; echo "shoot 1280 rc $?"
WINDOW_SIZE=1920x1080 NAME_SUFFIX=-1920x1080-h100 bash tmp-device/shoot_lessons.sh $S /tmp/o/l1920 >> /tmp/o/shoot.log 2>&1; echo "shoot 1920 rc $?"
tar czf $OUT/call7.tgz -C /tmp/o .
