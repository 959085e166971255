#!/usr/bin/env bash
# call 2: where a switch's time goes (soak with SOAK_TRACE), 2D 4096² fp64, counters on then off.
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/apps.tgz -C .device-build
export XDG_CACHE_HOME=/tmp/kc SOAK_TRACE=1
S=.device-build/app/gui/stencilscope
$S --dims 2 --size 4096x4096 --precision fp64 --metrics on --soak-seconds 14 --soak-interval 0.25 > $OUT/trace_on.log 2>&1
$S --dims 2 --size 4096x4096 --precision fp64 --metrics off --soak-seconds 14 --soak-interval 0.25 > $OUT/trace_off.log 2>&1
$S --dims 2 --size 4096x4096 --precision fp64 --metrics off --soak-seconds 20 --soak-interval 1 > $OUT/trace_off_1s.log 2>&1
for f in $OUT/trace_*.log; do echo "== $f"; grep -E "ready|first frame" $f | sed -n 30,60p; grep -E "frames/s|PASS|FAIL" $f; done
