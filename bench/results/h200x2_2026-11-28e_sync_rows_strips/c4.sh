#!/usr/bin/env bash
# Session 38, call 4 (two GPUs): the rows-per-barrier defaults on strips: TemporalStrips.*, PointStrips.*, RankBoxes.*;
# 2D 12000x9000 and 3D 640x480x1200 fp32 R1 temporal by default on one and two GPUs, two rounds; checksums on one
# and two GPUs; 2d9pt fp32 by K, CF and depth on GPU 0.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r4; mkdir -p $R; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; A=$B/app/stencilscope-cli
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/topo.txt 2>&1; head -2 $R/topo.txt
(cd $B/tests && timeout 250 ./gpu_multi_tests --gtest_filter='TemporalStrips.*:PointStrips.*:RankBoxes.*' > $R/strip_tests.log 2>&1; echo "strip tests rc $?"; grep -E "^\[  (PASSED|FAILED)|Failure" $R/strip_tests.log | head -8)
t="bench --backend cuda --precision fp32 --variant temporal --steps 240 --repeats 3 --warmup 1"
for round in 1 2; do for g in 1 2; do
  timeout 60 $A $t --size 12000x9000 --gpus $g > $R/2d-g$g-$round.log 2>&1
  echo "$round 2d-g$g $(grep -E '^rate' $R/2d-g$g-$round.log | awk '{print $2}')"
  timeout 90 $A $t --dims 3 --size 640x480x1200 --gpus $g > $R/3d-g$g-$round.log 2>&1
  echo "$round 3d-g$g $(grep -E '^rate' $R/3d-g$g-$round.log | awk '{print $2}')"
done; done | tee $R/scaling.txt
grep -E "^  strip|^kernel" $R/2d-g2-1.log | cut -c1-160
for c in "--size 12000x9000" "--dims 3 --size 640x480x1200"; do for n in 240 241; do for g in 1 2; do
  echo "checksum $c steps $n gpus $g: $(timeout 90 $A run --backend cuda --precision fp32 --variant temporal $c --steps $n --gpus $g --checksum 2>&1 | grep -i '^checksum' | cut -c1-60)"
done; done; done | tee $R/checksums.txt
run() { # K CF DEPTH
  STENCILSCOPE_TEMPORAL_SYNC_ROWS=$1 timeout 40 $A bench --stencil 2d9pt --size 8640x8640 --cf $2 --depth $3 \
    --variant temporal --steps 24 --warmup 1 --repeats 3 > $R/2d9pt-k$1-cf$2-d$3.log 2>&1
  echo "2d9pt fp32 k$1 cf$2 d$3 $(grep -E '^rate' $R/2d9pt-k$1-cf$2-d$3.log | awk '{print $2}') $(grep -oE '[0-9]+ registers' $R/2d9pt-k$1-cf$2-d$3.log | head -1)"
}
{ for k in 2 3; do for d in 4 5; do run $k 2 $d; done; done
  for k in 2 3 4; do for d in 5 6 7; do run $k 1 $d; done; done
  run 1 4 4; run 1 4 3; } | tee $R/2d9pt.txt
