#!/usr/bin/env bash
# Call 4 (two GPUs): lane G the 2D counters-on soak; lane C the point kernels' tests, point stream benches, the
# star-or-box lesson's recording and the lesson claims. One tar back.
set -o pipefail
T0=$(date +%s)
source .device-rt/gpu-env.sh || exit 1
unxz_to() { tar xJf "$1" -C "$2" 2>/dev/null || python3 -c "import sys,tarfile; tarfile.open(sys.argv[1], 'r:xz').extractall(sys.argv[2])" "$1" "$2"; }
unxz_to .device-build/bin.txz .device-build
R=/tmp/res4; rm -rf $R; mkdir -p $R
trap 'tar czf $OUT/res4.tgz -C /tmp res4' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt
A=$PWD/.device-build/app/stencilscope-cli
( timeout 200 ctest --test-dir .device-build -R "^gpu_soak_knobs_2d\$" -V > $R/soak2d.log 2>&1; echo "G soak rc $? at $(( $(date +%s) - T0 )) s" ) > $R/laneG.txt 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1
  .device-build/tests/gpu_kernel_tests --gtest_filter='Point*:*Point*' > $R/point_tests.log 2>&1; echo "C point tests rc $? $(grep -E '^\[  (PASSED|FAILED) ' $R/point_tests.log | tr '\n' ' ') at $(( $(date +%s) - T0 )) s"
  {
    $A bench --stencil box --radius 1 --size 16384x16384 --variant stream --cf 1,2,4,8 --steps 20 --repeats 5 --csv $R/stream.csv
    $A bench --stencil box --radius 1 --dims 3 --size 512x512x512 --variant stream --cf 1,2,4 --steps 20 --repeats 5 --csv $R/stream.csv
    $A bench --stencil box --radius 3 --size 8192x8192 --variant stream,base --cf 1,2 --steps 20 --repeats 5 --csv $R/stream.csv
    for s in 2d5pt:8568x8568 2d9pt:8640x8640 2d25pt:8352x8352; do
      $A bench --stencil ${s%%:*} --size ${s#*:} --variant stream --cf 1,2,4 --repeats 3 --csv $R/stream.csv
    done
    for s in 3d7pt 3d27pt; do $A bench --stencil $s --size 768x288x2560 --variant stream --cf 1,2 --repeats 3 --csv $R/stream.csv; done
  } 2>&1 | grep -E "^config|^rate|refus|rror" > $R/stream.txt
  echo "C benches at $(( $(date +%s) - T0 )) s"
  $A profile --stencil box --radius 1 --size 16384x16384 --variant stream --cf 2 --launches 1 > $R/profile_box_stream.txt 2>&1
  LESSONS=star-or-box timeout 120 bash bench/record_lessons.sh $A $R/recorded_h100.json > $R/record.log 2>&1; echo "C record rc $? at $(( $(date +%s) - T0 )) s"
  timeout 120 ctest --test-dir .device-build -R gpu_lesson_claims --output-on-failure > $R/claims.log 2>&1; echo "C claims rc $? at $(( $(date +%s) - T0 )) s"
) > $R/laneC.txt 2>&1
wait
cat $R/laneG.txt $R/laneC.txt; grep -E "soak: (knob|warm|RSS|PASS|FAIL)|[0-9.]+ frames/s|not running" $R/soak2d.log | head -14
cat $R/stream.txt | paste - - | cut -c1-150; grep -E "stalls|verdict|DRAM  " $R/profile_box_stream.txt | head -4; tail -5 $R/record.log
