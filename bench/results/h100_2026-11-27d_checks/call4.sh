#!/usr/bin/env bash
# Session 28, call 4 (one H100), after the grown-only field texture, the lesson chart, Controls dock wrap and the 2D
# ring kernel's rows: issue 40's counters-off soak; the star-or-box lesson re-recorded (forward sums by default);
# every lesson shot at both sizes (issue 38); box R1 2D by CF with the heuristic and box R3 2D's profile (issue 34).
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-500}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r4; rm -rf $R; mkdir -p $R/pics; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
G=$PWD/.device-build/app/gui/stencilscope A=$PWD/.device-build/app/stencilscope-cli
timeout 180 ctest --test-dir .device-build -R "^gpu_soak_knobs_2d_counters_off\$" -V > $R/soak_off.log 2>&1; at "soak off rc $?"
grep -E "soak: (knob|warm-up round,|[0-9]+ changes over|RSS m|PASS|FAIL)|frames/s|scene changes|not running" $R/soak_off.log | sed 's/^[0-9]*: //' | cut -c1-400 | head -10
$A bench --stencil box --radius 1 --size 16384x16384 --variant stream --cf 1,2,4,8 --steps 20 --repeats 5 --warmup 1 --csv $R/box_r1_heuristic.csv 2>&1 | grep -E "^config|^rate" | paste - - | cut -c1-170
$A profile --stencil box --radius 3 --size 8192x8192 --variant stream --launches 1 > $R/profile_box_r3.txt 2>&1; grep -iE "verdict|stall|DRAM  |issue|pipe" $R/profile_box_r3.txt | head -8
LESSONS=star-or-box timeout 100 bash bench/record_lessons.sh $A $R/recorded_h100.json > $R/record.log 2>&1; at "record rc $?"; grep -E "star-or-box:" $R/record.log
[ -s $R/recorded_h100.json ] && export STENCILSCOPE_LESSON_RECORDING=$R/recorded_h100.json # the pictures show the new recording
timeout 120 bash bench/shoot_lessons.sh $G $R/pics > $R/shoot.log 2>&1; at "shoot 1280 rc $?"
[ $(left) -gt 150 ] && { WINDOW_SIZE=1920x1080 NAME_SUFFIX=-1920x1080-h100 timeout $(( $(left) - 10 )) bash bench/shoot_lessons.sh $G $R/pics >> $R/shoot.log 2>&1; at "shoot 1920 rc $?"; }
ls $R/pics | wc -l
