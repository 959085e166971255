#!/usr/bin/env bash
# call 9: the instant-knobs soaks as ctest runs them, with the paced warm-up round.
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/bin.tgz -C .device-build
export XDG_CACHE_HOME=/tmp/kc
ctest --test-dir .device-build -R gpu_soak_knobs -V > $OUT/soak_ctest.log 2>&1; echo "soak ctest rc $?"
grep -E "warm-up|knob to frame|frames/s|RSS floor|PASS|FAIL|scene changes|not running|not built|tests passed" $OUT/soak_ctest.log
