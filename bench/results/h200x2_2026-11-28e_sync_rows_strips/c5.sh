#!/usr/bin/env bash
# Session 38, call 5 (two GPUs): every FMA of the star's temporal kernel spelled out (3D strips at two planes per barrier
# had differed from one GPU in the last bit): the whole gpu_multi_tests (the disabled 3D CF 1 test too), the temporal
# kernel tests, 2D 12000x9000 and 3D 640x480x1200 fp32 R1 temporal by default on one and two GPUs with checksums, the
# star by default at 8352^2.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r5; mkdir -p $R; trap 'tar czf $OUT/r5.tgz -C /tmp r5' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; A=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt; cat $R/gpu.txt
t="bench --backend cuda --precision fp32 --variant temporal --steps 240 --repeats 3 --warmup 1"
for round in 1 2; do for g in 1 2; do
  timeout 60 $A $t --size 12000x9000 --gpus $g > $R/2d-g$g-$round.log 2>&1
  echo "$round 2d-g$g $(grep -E '^rate' $R/2d-g$g-$round.log | awk '{print $2}')"
  timeout 90 $A $t --dims 3 --size 640x480x1200 --gpus $g > $R/3d-g$g-$round.log 2>&1
  echo "$round 3d-g$g $(grep -E '^rate' $R/3d-g$g-$round.log | awk '{print $2}')"
done; done | tee $R/scaling.txt
for c in "--size 12000x9000" "--dims 3 --size 640x480x1200"; do for n in 240 241; do for g in 1 2; do
  echo "checksum $c steps $n gpus $g: $(timeout 90 $A run --backend cuda --precision fp32 --variant temporal $c --steps $n --gpus $g --checksum 2>&1 | grep -i '^checksum' | cut -c1-60)"
done; done; done | tee $R/checksums.txt
for p in fp32 fp64; do
  timeout 40 $A bench --size 8352x8352 --precision $p --variant temporal --steps 24 --warmup 1 --repeats 3 > $R/star-$p.log 2>&1
  echo "star 8352 $p $(grep -E '^rate' $R/star-$p.log | awk '{print $2}')"
done | tee $R/star.txt
(cd $B/tests && timeout 60 ./gpu_kernel_tests --gtest_filter='TemporalKernel.*' > $R/temporal_tests.log 2>&1; echo "temporal kernel tests rc $?"; grep -E "^\[  (PASSED|FAILED)" $R/temporal_tests.log | head -4)
(cd $B/tests && timeout 330 ./gpu_multi_tests --gtest_also_run_disabled_tests > $R/multi_tests.log 2>&1; echo "multi tests rc $?"; grep -E "^\[  (PASSED|FAILED)|first difference" $R/multi_tests.log | head -8 | cut -c1-200)
