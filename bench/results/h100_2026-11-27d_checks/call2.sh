#!/usr/bin/env bash
# Session 28, call 2 (one H100): issue 40's three soaks at 0.25 s for 120 s after the build-thread pool.
set -o pipefail
T0=$(date +%s)
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r2; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
for t in gpu_soak_knobs_2d gpu_soak_knobs_3d gpu_soak_knobs_2d_counters_off; do
  timeout 180 ctest --test-dir .device-build -R "^$t\$" -V > $R/$t.log 2>&1; at "$t rc $?"
  grep -E "soak: (knob|warm-up round,|[0-9]+ changes over|RSS m|PASS|FAIL)|frames/s|scene changes|not running" $R/$t.log | sed 's/^[0-9]*: //' | cut -c1-400 | head -12
done
