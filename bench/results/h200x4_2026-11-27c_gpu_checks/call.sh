#!/usr/bin/env bash
# Call 1 on four GPUs, four lanes at once (nothing timed shares a GPU):
#  A GPU 0: the knob soaks (2D, 3D, 2D counters off) under Xvfb with interop (GL lives on GPU 0)
#  B GPU 1: ctest -L gpu, the one-GPU tests;  then B+D GPUs 1,3: multi-GPU and MPI tests, 2-GPU temporal scaling
#  C GPU 2: EBISU's ten beside EBISU (bench/ebisu_suite.sh)
#  D GPU 3: box vs star single step (issue 34's 90 % line)
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-560}))
left() { echo $((END - $(date +%s))); }
source .device-rt/gpu-env.sh || exit 1
unxz_to() { tar xJf "$1" -C "$2" 2>/dev/null || python3 -c "import sys,tarfile; tarfile.open(sys.argv[1], 'r:xz').extractall(sys.argv[2])" "$1" "$2"; }
unxz_to .device-build/bin.txz .device-build; unxz_to tmp-device/s27/ebisu.txz /tmp
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv > $OUT/device.txt
nvidia-smi topo -m > $OUT/topo.txt 2>&1
A=$PWD/.device-build/app/stencilscope-cli
(
  for t in gpu_soak_knobs_2d gpu_soak_knobs_3d gpu_soak_knobs_2d_counters_off; do
    timeout $(left) ctest --test-dir .device-build -R "^$t\$" -V > $OUT/$t.log 2>&1; echo "A $t rc $? at $(( $(date +%s) - T0 )) s"
  done
) > $OUT/laneA.txt 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1
  timeout $(( $(left) - 150 )) ctest --test-dir .device-build -L gpu -E "soak|multi|mpi" -j4 --output-on-failure > $OUT/ctest_one.log 2>&1
  echo "B ctest one-GPU rc $? at $(( $(date +%s) - T0 )) s"
) > $OUT/laneB.txt 2>&1 &
pidB=$!
(
  export CUDA_VISIBLE_DEVICES=2
  EBISU_BIN=/tmp/ebisu_bin timeout $(left) bash bench/ebisu_suite.sh $A $OUT/suite 3 > $OUT/suite.txt 2>&1
  echo "C suite rc $? at $(( $(date +%s) - T0 )) s"
) > $OUT/laneC.txt 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=3
  for st in star box; do
    $A bench --stencil $st --radius 1 --size 16384x16384 --variant base,smem,stream --cf 1,2,4,8 --steps 20 --repeats 5 --csv $OUT/box_star_2d.csv 2>&1 | grep -E "^config|^rate|^roof|refus"
    $A bench --stencil $st --radius 1 --dims 3 --size 512x512x512 --variant base,smem,stream --cf 1,2,4 --steps 20 --repeats 5 --csv $OUT/box_star_3d.csv 2>&1 | grep -E "^config|^rate|^roof|refus"
  done > $OUT/box_star.txt 2>&1
  echo "D box/star done at $(( $(date +%s) - T0 )) s"
  wait $pidB 2>/dev/null; while kill -0 $pidB 2>/dev/null; do sleep 2; done
  export CUDA_VISIBLE_DEVICES=1,3
  timeout $(( $(left) - 60 )) ctest --test-dir .device-build -R "gpu_multi|gpu_mpi" --output-on-failure > $OUT/ctest_two.log 2>&1
  echo "D ctest two-GPU rc $? at $(( $(date +%s) - T0 )) s"
  {
    timeout 30 $A bench --variant temporal --size 12000x9000 --gpus 1,2 --steps 24 --repeats 3 --csv $OUT/temporal_two.csv 2>&1 | grep -E "^config|^rate"
    timeout 30 $A bench --variant temporal --dims 3 --size 640x480x1200 --gpus 1,2 --steps 24 --repeats 3 --csv $OUT/temporal_two.csv 2>&1 | grep -E "^config|^rate"
    for g in 1 2; do timeout 20 $A run --variant temporal --size 12000x9000 --gpus $g --steps 24 --checksum 2>&1 | grep -E "^checksum"; done
  } > $OUT/temporal_two.txt 2>&1
  echo "D temporal two done at $(( $(date +%s) - T0 )) s"
) > $OUT/laneD.txt 2>&1 &
wait
cat $OUT/lane*.txt; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest_*.log | head -30
for t in gpu_soak_knobs_2d gpu_soak_knobs_3d gpu_soak_knobs_2d_counters_off; do grep -E "soak: |gui-soak: |latency|knob" $OUT/$t.log | tail -4; done
tail -30 $OUT/suite.txt; cat $OUT/box_star.txt | grep -E "^rate|config" | paste - - | cut -c1-200; cat $OUT/temporal_two.txt
