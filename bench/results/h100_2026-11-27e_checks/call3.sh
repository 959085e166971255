#!/usr/bin/env bash
# Session 29, call 3 (one H100): issue 40's counters-off soak, 120 s at 0.25 s, with the GUI thread's stacks at its stalls.
set -o pipefail
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r3; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
G=$PWD/.device-build/app/gui/stencilscope
STENCILSCOPE_STALL_TRACE=$R/stalls.txt timeout 150 bash scripts/gui-soak.sh --seconds 120 --interval 0.25 $G --dims 2 --size 4096x4096 --precision fp64 --metrics off --soak-min-fps 30 > $R/soak_off.log 2>&1; echo "soak rc $?"
grep -E "soak: (knob|warm-up round,|[0-9]+ changes over|[0-9]+ GUI|PASS|FAIL)|frames/s" $R/soak_off.log | cut -c1-1200 | head -10
grep -c "^stall" $R/stalls.txt
# the frames most often on the stalled stacks (Qt's and the libraries' names; the program's own as offsets)
grep -v "^stall\|^--" $R/stalls.txt | sed 's/ \[0x[0-9a-f]*\]$//' | sort | uniq -c | sort -rn | head -40
