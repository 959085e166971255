#!/usr/bin/env bash
# Session 34, call 8 (one H100): the lesson "Beating the roofline" from the default depth (6): recorded with
# bench/record_lessons.sh and shot at 1280x720 and 1920x1080 with that recording; its claims on the device.
source .device-rt/gpu-env.sh >/dev/null 2>&1 || exit 1
R=/tmp/r8; mkdir -p $R/shots; trap 'tar czf $OUT/r8.tgz -C /tmp r8' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build
nvidia-smi -L > $R/gpu.txt
LESSONS=beating-the-roofline timeout 150 bash bench/record_lessons.sh $B/app/stencilscope-cli $R/recorded_h100.json > $R/record.log 2>&1
echo "record rc $?"
export STENCILSCOPE_LESSON_RECORDING=$R/recorded_h100.json
LESSONS=beating-the-roofline NAME_SUFFIX=-1280x720-h100 timeout 100 bash bench/shoot_lessons.sh $B/app/gui/stencilscope $R/shots > $R/shoot.log 2>&1
echo "shoot 1280 rc $?"
LESSONS=beating-the-roofline WINDOW_SIZE=1920x1080 timeout 100 bash bench/shoot_lessons.sh $B/app/gui/stencilscope $R/shots > $R/shoot2.log 2>&1
echo "shoot 1920 rc $?"
ls -la $R/shots
timeout 100 $B/tests/gpu_lesson_claims > $R/claims.log 2>&1; echo "claims rc $?: $(grep -E '^\[  (PASSED|FAILED)' $R/claims.log | tr '\n' ' ')"
python3 -c "import json; r=json.load(open('$R/recorded_h100.json')); [print(x['label'], x['gcells_per_s'], x['registers']) for x in r['lessons']['beating-the-roofline']]"
