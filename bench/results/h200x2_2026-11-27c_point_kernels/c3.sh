#!/usr/bin/env bash
# Call 3 on two GPUs. Lane G (GPU 0, GL + interop): the 2D counters-on soak, then every one-GPU lesson's window at
# 1280x720 and 1920x1080. Lane C (GPU 1): the profiler tests alone, the point kernels' tests, point stream benches,
# the app's profile and ncu of box R1 stream, EBISU's 3D output. Then both GPUs: the two-GPU lesson and the per-GPU
# charts at 1600x1000. Everything back as one tar.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
source .device-rt/gpu-env.sh || exit 1
unxz_to() { tar xJf "$1" -C "$2" 2>/dev/null || python3 -c "import sys,tarfile; tarfile.open(sys.argv[1], 'r:xz').extractall(sys.argv[2])" "$1" "$2"; }
unxz_to .device-build/bin.txz .device-build; unxz_to tmp-device/s27/ebisu.txz /tmp
R=/tmp/res3; rm -rf $R; mkdir -p $R
trap 'tar czf $OUT/res3.tgz -C /tmp res3' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; nvidia-smi topo -m > $R/topo.txt 2>&1
A=$PWD/.device-build/app/stencilscope-cli G=$PWD/.device-build/app/gui/stencilscope
one_gpu_lessons=$(python3 -c 'import json,glob
print(",".join(json.load(open(p))["lesson-id"] for p in sorted(glob.glob("resources/presets/*.json")) if "two-gpus" not in json.load(open(p)).get("needs", [])))')
two_gpu_lessons=$(python3 -c 'import json,glob
print(",".join(json.load(open(p))["lesson-id"] for p in sorted(glob.glob("resources/presets/*.json")) if "two-gpus" in json.load(open(p)).get("needs", [])))')
(
  timeout $(left) ctest --test-dir .device-build -R "^gpu_soak_knobs_2d\$" -V > $R/soak2d.log 2>&1; echo "G soak rc $? at $(( $(date +%s) - T0 )) s"
  for size in 1280x720 1920x1080; do
    GPUS_PRESENT=1 LESSONS=$one_gpu_lessons WINDOW_SIZE=$size NAME_SUFFIX=-$size timeout $(( $(left) - 60 )) bash bench/shoot_lessons.sh $G $R/lessons > $R/shoot_$size.log 2>&1
    echo "G shoot $size rc $? at $(( $(date +%s) - T0 )) s"
  done
) > $R/laneG.txt 2>&1 &
pidG=$!
(
  export CUDA_VISIBLE_DEVICES=1
  ctest --test-dir .device-build -R "gpu_profiler_tests|gpu_pm_sampling_tests" --output-on-failure > $R/ctest_profiler.log 2>&1; echo "C profiler tests rc $? at $(( $(date +%s) - T0 )) s"
  .device-build/tests/gpu_kernel_tests --gtest_filter='Point*:*Point*' > $R/point_tests.log 2>&1; echo "C point tests rc $? $(grep -E '^\[  (PASSED|FAILED) ' $R/point_tests.log | tr '\n' ' ') at $(( $(date +%s) - T0 )) s"
  {
    for st in box star; do
      $A bench --stencil $st --radius 1 --size 16384x16384 --variant stream --cf 1,2,4,8 --steps 20 --repeats 5 --csv $R/stream_2d.csv
      $A bench --stencil $st --radius 1 --dims 3 --size 512x512x512 --variant stream --cf 1,2,4 --steps 20 --repeats 5 --csv $R/stream_3d.csv
    done
    $A bench --stencil box --radius 1 --size 16384x16384 --variant base,smem --cf 4,8 --steps 20 --repeats 5 --csv $R/stream_2d.csv
    for s in 2d5pt:8568x8568 2ds9pt:8064x8064 2d9pt:8640x8640 2d25pt:8352x8352 2d49pt:9000x9000; do
      $A bench --stencil ${s%%:*} --size ${s#*:} --variant stream --cf 1,2,4 --repeats 3 --csv $R/stream_ebisu.csv
    done
    for s in 3d7pt 3d13pt 3d27pt 3d17pt poisson; do
      $A bench --stencil $s --size 768x288x2560 --variant stream --cf 1,2 --repeats 3 --csv $R/stream_ebisu.csv
    done
  } 2>&1 | grep -E "^config|^rate|refus|rror" > $R/stream.txt
  echo "C stream benches at $(( $(date +%s) - T0 )) s"
  $A profile --stencil box --radius 1 --size 16384x16384 --variant stream --cf 2 > $R/profile_box_stream.txt 2>&1
  timeout 60 /usr/local/cuda/bin/ncu -k regex:points --launch-skip 3 -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    $A run --stencil box --radius 1 --size 16384x16384 --variant stream --cf 2 --steps 6 > $R/ncu_box_stream.txt 2>&1
  for p in "--fp32" ""; do
    sz=$([ -n "$p" ] && echo "768 288 2560" || echo "384 288 2560")
    for s in 3d7pt 3d27pt; do echo "== $s $sz $p"; timeout 30 /tmp/ebisu_bin/${s}_ebisu.exe $sz $p --experiment 2>&1 | tail -5; echo "rc $?"; done
  done > $R/ebisu3d.txt 2>&1
  echo "== 2d49pt fp64" >> $R/ebisu3d.txt; timeout 30 /tmp/ebisu_bin/2d49pt_ebisu.exe --experiment >> $R/ebisu3d.txt 2>&1; echo "rc $?" >> $R/ebisu3d.txt
  echo "C done at $(( $(date +%s) - T0 )) s"
) > $R/laneC.txt 2>&1
while kill -0 $pidG 2>/dev/null; do sleep 2; done
for size in 1280x720 1920x1080; do
  LESSONS=$two_gpu_lessons WINDOW_SIZE=$size NAME_SUFFIX=-$size timeout 100 bash bench/shoot_lessons.sh $G $R/lessons >> $R/shoot_two.log 2>&1
done
timeout 90 $G --gpus 2 --size 8192x8192 --metrics on --frames 600 --window-size 1600x1000 --window-screenshot $R/metrics-two-gpus-1600x1000.png > $R/two_gpu_window.log 2>&1
echo "two-GPU shots rc $? at $(( $(date +%s) - T0 )) s" >> $R/laneC.txt
cat $R/laneG.txt $R/laneC.txt; grep -E "soak: (knob|warm|RSS|PASS|FAIL)|[0-9.]+ frames/s" $R/soak2d.log; cat $R/stream.txt | paste - - | cut -c1-160
grep -E "tests passed|Failed" $R/ctest_profiler.log; ls $R/lessons | wc -l; grep -E "== |^[0-9]" $R/ebisu3d.txt | cut -c1-150
