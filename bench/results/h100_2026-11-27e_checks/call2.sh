#!/usr/bin/env bash
# Session 29, call 2 (one H100): the gpu tests call 1 had no time for; issue 40's counters-off soak (the gpu test,
# 120 s at 0.25 s) with the canvas's paint times and the GUI thread's stalls; EBISU's 3d17pt and poisson single step.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-560}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r2; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
G=$PWD/.device-build/app/gui/stencilscope A=$PWD/.device-build/app/stencilscope-cli
timeout 180 ctest --test-dir .device-build -R "^gpu_soak_knobs_2d_counters_off\$" -V > $R/soak_off.log 2>&1; at "soak off rc $?"
grep -E "soak: (knob|warm-up round,|[0-9]+ changes over|PASS|FAIL)|frames/s" $R/soak_off.log | sed 's/^[0-9]*: //' | cut -c1-1500 | head -10
timeout 250 ctest --test-dir .device-build -L gpu -E "soak|gpu_kernel_tests|profiler|split_counters|pm_sampling|roofline" --output-on-failure > $R/ctest_rest.log 2>&1; at "ctest rc $?"
grep -E "tests passed|Failed|\*\*\*|Passed|Skipped|Not Run" $R/ctest_rest.log | sed 's/^ *//' | cut -c1-150 | head -12
for s in 3d17pt poisson; do
  [ $(left) -lt 30 ] && { echo "suite stopped before $s"; break; }
  ONLY=$s AUTO=0 SINGLE_CFS=1,2,4,8 SINGLE_STEPS=40 timeout $(( $(left) - 10 )) bash bench/ebisu_suite.sh $A $R/suite 3 >> $R/suite.txt 2>&1
  at "$s"
done
python3 bench/ebisu_table.py $R/suite/ebisu_suite.csv $R/suite/roofline.jsonl 2>&1 | tail -4
