#!/usr/bin/env bash
# Session 28, call 1 (one H100): the headline check (issue 38), the 2D counters-on soak's tail (issue 40), the point
# kernels built blind (issue 34/35), the star-or-box lesson recorded and shot. Sections in priority order, each
# skipped when the budget is spent; results tarred on exit.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-570}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r1; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
G=$PWD/.device-build/app/gui/stencilscope A=$PWD/.device-build/app/stencilscope-cli
# 1. headline: window (first second, GPU-timed) vs bench, five runs each, counters on; two off
lesson="--size 8352x8352 --radius 1 --variant temporal --depth 9 --rule jacobi"
r4="--size 4096x4096 --radius 4 --rule jacobi"
for name in lesson r4; do
  opts=${!name}
  $A bench $opts --steps 36 --repeats 5 --warmup 1 2>&1 | grep -E "^rate" | sed "s/^/$name bench: /"
  spf=""; [ $name = lesson ] && spf="--steps-per-frame 18"
  for i in 1 2 3 4 5; do
    timeout 40 $G $opts $spf --metrics on --benchmark-seconds 1 2>/dev/null | grep -E "kernel GCells" | sed "s/^/$name window $i on: /"
  done
  for i in 1 2; do
    timeout 40 $G $opts $spf --metrics off --benchmark-seconds 1 2>/dev/null | grep -E "kernel GCells" | sed "s/^/$name window $i off: /"
  done
  timeout 40 $G --setup lesson:beating-the-roofline --metrics on --frames 300 --window-size 1280x720 --window-screenshot $R/roofline_lesson.png 2>&1 | grep -iE "GCells|headline" | head -3 | sed "s/^/$name lesson 300 frames: /"
done > $R/headline.txt 2>&1; cat $R/headline.txt; at headline
# 2. the 2D counters-on soak, 60 s at 0.25 s (its slowest cached changes named)
timeout 90 bash scripts/gui-soak.sh --seconds 60 --interval 0.25 $G --dims 2 --size 4096x4096 --precision fp64 --metrics on --soak-min-fps 30 > $R/soak2d.log 2>&1
grep -E "soak: (knob|warm|slow|cached|RSS m|PASS|FAIL)|frames/s|changes" $R/soak2d.log | head -14; at soak
# 3. point tests with and without forward sums
for f in 0 1; do STENCILSCOPE_POINT_FORWARD=$f timeout 120 .device-build/tests/gpu_kernel_tests --gtest_filter='Point*:*Point*' > $R/point_fw$f.log 2>&1; echo "point tests forward $f rc $? $(grep -E '^\[  (PASSED|FAILED) ' $R/point_fw$f.log | tr '\n' ' ')"; done; at points
# 4. star-or-box: record, shoot at both sizes
if [ $(left) -gt 200 ]; then
  LESSONS=star-or-box timeout 100 bash bench/record_lessons.sh $A $R/recorded_h100.json > $R/record.log 2>&1; echo "record rc $?"; tail -3 $R/record.log
  LESSONS=star-or-box timeout 60 bash bench/shoot_lessons.sh $G $R/pics > $R/shoot.log 2>&1
  LESSONS=star-or-box WINDOW_SIZE=1920x1080 NAME_SUFFIX=-1920x1080-h100 timeout 60 bash bench/shoot_lessons.sh $G $R/pics >> $R/shoot.log 2>&1; echo "shoot rc $?"; at lesson
fi
# 5. forward sums A/B (box 2D and 3D, EBISU 3D shapes)
c=(--variant stream --cf 1,2,4 --steps 20 --repeats 5 --warmup 1)
if [ $(left) -gt 150 ]; then
  for f in 0 1; do
    STENCILSCOPE_POINT_FORWARD=$f timeout 100 $A bench --stencil box --radius 1,2,3 --size 16384x16384 "${c[@]}" --csv $R/fw${f}_2d.csv > /dev/null 2>&1
    STENCILSCOPE_POINT_FORWARD=$f timeout 100 $A bench --stencil box --radius 1 --dims 3 --size 512x512x512 "${c[@]}" --csv $R/fw${f}_3d.csv > /dev/null 2>&1
  done; at forward
fi
if [ $(left) -gt 60 ]; then
  for f in 0 1; do for s in 3d27pt poisson; do STENCILSCOPE_POINT_FORWARD=$f timeout 40 $A bench --stencil $s --size 768x288x2560 "${c[@]}" --csv $R/fw${f}_ebisu3d.csv > /dev/null 2>&1; done; done; at ebisu3d
fi
python3 - $R <<'PY'
import csv, glob, os, sys
R = sys.argv[1]
for tag in ("2d", "3d", "ebisu3d"):
    try:
        a, b = (list(csv.DictReader(open(f"{R}/fw{f}_{tag}.csv"))) for f in (0, 1))
    except OSError:
        continue
    for x, y in zip(a, b):
        print(f"{x['stencil_name']} R{x['radius']} {x['nx']}x{x['ny']}x{x['nz']} {x['precision']} CF{x['cf']}: {float(x['gcells_per_s']):.1f} -> {float(y['gcells_per_s']):.1f}  regs {x['registers']}/{y['registers']}")
PY
