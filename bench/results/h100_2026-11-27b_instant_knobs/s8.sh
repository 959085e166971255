#!/usr/bin/env bash
# call 8: the instant-knobs soaks as ctest runs them; the roofline pictures; cold starts with an empty and a warm
# kernel cache (the window to its first frame, the CLI to its report).
source .device-rt/gpu-env.sh || exit 1
tar xzf .device-build/bin.tgz -C .device-build
S=$PWD/.device-build/app/gui/stencilscope C=$PWD/.device-build/app/stencilscope-cli
mkdir -p /tmp/o
export XDG_CACHE_HOME=/tmp/kc
ctest --test-dir .device-build -R gpu_soak_knobs -V > /tmp/o/soak_ctest.log 2>&1; echo "soak ctest rc $?"
grep -E "knob to frame|frames/s|RSS floor|settled|PASS|FAIL|scene changes|not running|tests passed" /tmp/o/soak_ctest.log
cd /tmp/o
timeout 120 $S --setup lesson:beating-the-roofline --frames 300 --metrics on --window-size 1280x720 --roofline-screenshot roofline-temporal.png > panels.log 2>&1; echo "roofline temporal rc $?"
timeout 120 $S --setup lesson:coalescing --frames 300 --metrics on --window-size 1280x720 --roofline-screenshot roofline-coalescing.png >> panels.log 2>&1; echo "roofline coalescing rc $?"
grep roofline: panels.log
for cache in empty warm; do
  [ $cache = empty ] && rm -rf /tmp/cold
  export XDG_CACHE_HOME=/tmp/cold
  for i in 1 2; do
    [ $cache = empty ] && rm -rf /tmp/cold
    t0=$(date +%s.%N); timeout 120 $S --size 4096x4096 --variant stream --cf 4 --radius 4 --frames 1 --metrics off --screenshot w.png > /dev/null 2>&1; t1=$(date +%s.%N)
    [ $cache = empty ] && rm -rf /tmp/cold
    $C run --size 4096x4096 --variant stream --cf 4 --radius 4 --steps 10 > cli.txt 2>&1; t2=$(date +%s.%N)
    echo "cold start, $cache cache: window to first frame $(python3 -c "print(round($t1 - $t0, 2))") s; CLI run to report $(python3 -c "print(round($t2 - $t1, 2))") s ($(grep -oE 'from cache|built in [0-9]+ ms' cli.txt | head -1))"
  done
done | tee cold.txt
tar czf $OUT/call8.tgz -C /tmp/o .
