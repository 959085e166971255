#!/usr/bin/env bash
# Session 28, call 3 (one H100): every lesson shot at both sizes (issue 38, after the headline check), the two-strip
# lesson at 1920x1200 (per-GPU chart axes), box R1 2D stream blocks (issue 34's 90 %), point tests with the defaults.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-560}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r3; rm -rf $R; mkdir -p $R/pics; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
G=$PWD/.device-build/app/gui/stencilscope A=$PWD/.device-build/app/stencilscope-cli
timeout 150 bash bench/shoot_lessons.sh $G $R/pics > $R/shoot.log 2>&1; at "shoot 1280 rc $?"
WINDOW_SIZE=1920x1080 NAME_SUFFIX=-1920x1080-h100 timeout 170 bash bench/shoot_lessons.sh $G $R/pics >> $R/shoot.log 2>&1; at "shoot 1920 rc $?"
STENCILSCOPE_STRIPS_PER_GPU=2 timeout 40 $G --setup lesson:remote-or-copies --metrics on --frames 300 --window-size 1920x1200 --window-screenshot $R/pics/two-strips-1920x1200.png > /dev/null 2>&1; at "two strips rc $?"
timeout 100 .device-build/tests/gpu_kernel_tests --gtest_filter='Point*:*Point*' > $R/point_tests.log 2>&1; echo "point tests (defaults) rc $? $(grep -E '^\[  (PASSED|FAILED) ' $R/point_tests.log | tr '\n' ' ')"
for b in 64x1 128x1 256x1 512x1 1024x1 64x2 128x2 256x2 32x4 64x4; do
  [ $(left) -lt 40 ] && break
  timeout 30 $A bench --stencil box --radius 1 --size 16384x16384 --variant stream --cf 1,2,4,8 --block $b --steps 20 --repeats 5 --warmup 1 --csv $R/box_r1_blocks.csv > /dev/null 2>&1 || echo "block $b: rc $?"
done; at blocks
[ $(left) -gt 30 ] && timeout 30 $A bench --stencil star --radius 1 --size 16384x16384 --variant stream --cf 1,2,4,8 --steps 20 --repeats 5 --warmup 1 --csv $R/box_r1_blocks.csv > /dev/null 2>&1
python3 - $R/box_r1_blocks.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in sorted(rows, key=lambda r: -float(r['gcells_per_s']))[:12]:
    print(f"{r['stencil_name']} {r['block_x']}x{r['block_y']} CF{r['cf']}: {float(r['gcells_per_s']):.1f} GCells/s {float(r['pct_of_roofline']):.1f} % regs {r['registers']} occ {r['theoretical_occupancy']}")
PY
