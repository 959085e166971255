#!/usr/bin/env bash
# Session 29, call 1 (one H100): the gpu tests on the code no GPU has run yet (2D ring point rows, per-GPU table
# move), issue 40's counters-off soak with the frame's own timestamps (engine sent / window took / on screen),
# the two-strip lesson re-shot at 1280x720, and issue 34's single-step table of EBISU's ten on the H100.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-560}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r1; rm -rf $R; mkdir -p $R/pics; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
G=$PWD/.device-build/app/gui/stencilscope A=$PWD/.device-build/app/stencilscope-cli
# 1. gpu tests without the soaks
timeout 220 ctest --test-dir .device-build -L gpu -E soak --output-on-failure > $R/ctest_gpu.log 2>&1; at "ctest rc $?"
grep -E "tests passed|Failed|\*\*\*|Passed|Skipped" $R/ctest_gpu.log | sed 's/^ *//' | cut -c1-150 | head -20
# 2. counters-off soak, 60 s at 0.25 s, with the frame's timestamps
timeout 90 bash scripts/gui-soak.sh --seconds 60 --interval 0.25 $G --dims 2 --size 4096x4096 --precision fp64 --metrics off --soak-min-fps 30 > $R/soak_off.log 2>&1; at "soak rc $?"
grep -E "soak: (knob|warm-up round,|[0-9]+ changes over|PASS|FAIL)|frames/s" $R/soak_off.log | cut -c1-900 | head -10
# 3. the two-strip lesson at 1280x720 (its table moved below the charts)
LESSONS=remote-or-copies timeout 60 bash bench/shoot_lessons.sh $G $R/pics > $R/shoot.log 2>&1; at "shoot rc $?"
# 4. EBISU's ten, single step (base/smem/stream, CF 1/2/4/8) and temporal defaults, one stencil at a time
for s in 2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt 3d7pt 3d13pt 3d27pt 3d17pt poisson; do
  [ $(left) -lt 25 ] && { echo "suite stopped before $s"; break; }
  ONLY=$s AUTO=0 SINGLE_CFS=1,2,4,8 SINGLE_STEPS=40 timeout $(( $(left) - 10 )) bash bench/ebisu_suite.sh $A $R/suite 3 >> $R/suite.txt 2>&1
  at "$s"
done
python3 bench/ebisu_table.py $R/suite/ebisu_suite.csv $R/suite/roofline.jsonl > $R/suite_table.md 2>&1; cat $R/suite_table.md
