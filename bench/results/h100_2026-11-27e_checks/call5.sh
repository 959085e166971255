#!/usr/bin/env bash
# Session 29, call 5 (one H100): the 2D ring point kernel's whole rows (1024 threads from CF 2) checked against the
# CPU reference and the point GPU tests, then measured: box R1 16384², EBISU's 2d5pt and 2d9pt at its sizes.
set -o pipefail
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r5; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r5.tgz -C /tmp r5' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
A=.device-build/app/stencilscope-cli
for cf in 1 2 4 8; do timeout 30 $A run --verify --stencil box --radius 1 --size 4096x4096 --variant stream --cf $cf --steps 20 2>&1 | grep -iE "verif|block|error|refus" | head -3 | sed "s/^/box R1 CF $cf: /"; done
timeout 30 $A run --verify --stencil 2d9pt --size 3000x2000 --variant stream --cf 4 --steps 7 2>&1 | grep -iE "verif|block|error" | head -2 | sed "s/^/2d9pt 3000x2000 CF 4: /"
timeout 150 .device-build/tests/gpu_kernel_tests --gtest_filter='Point*:*Point*' > $R/point_tests.log 2>&1; echo "point tests rc $? $(grep -E '^\[  (PASSED|FAILED) ' $R/point_tests.log | tr '\n' ' ')"
$A bench --stencil box --radius 1 --size 16384x16384 --variant stream --cf 1,2,4,8 --steps 20 --repeats 5 --warmup 1 --csv $R/box_r1_full_rows.csv > /dev/null 2>&1
python3 -c "
import csv
for r in csv.DictReader(open('$R/box_r1_full_rows.csv')): print('box R1 16384 CF', r['cf'], r['block_x'], r['gcells_per_s'], r['pct_of_roofline'])"
ONLY="2d5pt 2d9pt" AUTO=0 TEMPORAL=0 SINGLE_VARIANTS=stream SINGLE_CFS=1,2,4,8 SINGLE_STEPS=40 timeout 200 bash bench/ebisu_suite.sh $A $R/suite 3 > $R/suite.txt 2>&1
python3 -c "
import csv
for r in csv.DictReader(open('$R/suite/ebisu_suite.csv')): print(r['stencil_name'], r['precision'], r['nx'], 'CF', r['cf'], r['block_x'], r['gcells_per_s'], r['pct_of_roofline'])"
