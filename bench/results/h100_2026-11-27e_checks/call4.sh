#!/usr/bin/env bash
# Session 29, call 4 (one H100): issue 40's three soaks (the gpu tests: 2D fp64 counters on and off, 3D fp32, 120 s at
# 0.25 s) after the staging is freed on the engine thread; the counters-off one with the stall trace.
set -o pipefail
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r4; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
for t in gpu_soak_knobs_2d_counters_off gpu_soak_knobs_2d gpu_soak_knobs_3d; do
  STENCILSCOPE_STALL_TRACE=$R/stalls_$t.txt timeout 175 ctest --test-dir .device-build -R "^$t\$" -V > $R/$t.log 2>&1; echo "$t rc $?"
  grep -E "soak: (knob|warm-up round,|[0-9]+ changes over|[0-9]+ GUI|PASS|FAIL)|frames/s|scenes? (running|late)|not running" $R/$t.log | sed 's/^[0-9]*: //' | cut -c1-900 | head -9
done
for f in $R/stalls_*.txt; do echo "$f: $(grep -c '^stall' $f) stalls"; grep -v "^stall\|^--" $f | sed 's/ \[0x[0-9a-f]*\]$//' | sort | uniq -c | sort -rn | grep -E "stencilscope|cuMem|cuda" | head -8; done
