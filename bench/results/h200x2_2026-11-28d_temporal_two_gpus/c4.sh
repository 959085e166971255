#!/usr/bin/env bash
# Session 37, call 4 (two GPUs): 35, a temporal launch's boundary rows on the halo stream beside the interior
# (new) against before them on the compute stream (old, 811026a): 2D 12000x9000 and 3D 640x480x1200 fp32 R1 by
# default on one and two GPUs, two rounds alternating; TemporalStrips.* and RankBoxes.* on the new build (the disabled
# 3D CF 1 defect test too, for its state); checksums on one and two GPUs.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r4; mkdir -p $R; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; A=$B/app/stencilscope-cli
mkdir -p /tmp/ab && tar xJf tmp-device/s37/old-cli.txz -C /tmp/ab && mv /tmp/ab/stencilscope-cli /tmp/ab/old-cli && cp $A /tmp/ab/new-cli
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/topo.txt 2>&1
(cd $B/tests && timeout 240 ./gpu_multi_tests --gtest_filter='TemporalStrips.*:RankBoxes.*' > $R/strip_tests.log 2>&1; echo "strip tests rc $?"; grep -E "^\[  (PASSED|FAILED)|Failure" $R/strip_tests.log | head -6)
(cd $B/tests && timeout 60 ./gpu_multi_tests --gtest_also_run_disabled_tests --gtest_filter='*DISABLED_ThreeDAtCfOne*' > $R/defect_test.log 2>&1; echo "3D CF 1 defect test rc $?"; grep -E "first difference" $R/defect_test.log | head -3 | cut -c1-200)
t="bench --backend cuda --precision fp32 --variant temporal --steps 240 --repeats 3 --warmup 1"
for round in 1 2; do
  for cli in old new; do
    for g in 1 2; do
      timeout 60 /tmp/ab/$cli-cli $t --size 12000x9000 --gpus $g > $R/$cli-2d-g$g-$round.log 2>&1
      echo "$round $cli 2d-g$g $(grep -E '^rate' $R/$cli-2d-g$g-$round.log | awk '{print $2}')"
      timeout 90 /tmp/ab/$cli-cli $t --dims 3 --size 640x480x1200 --gpus $g > $R/$cli-3d-g$g-$round.log 2>&1
      echo "$round $cli 3d-g$g $(grep -E '^rate' $R/$cli-3d-g$g-$round.log | awk '{print $2}')"
    done
  done
done | tee $R/ab.txt | sort -k3,3 -k2 | awk '{k=$3" "$2; v[k]=v[k]" "$4} END {for (k in v) print k":"v[k]}' | sort
grep -E "^  strip" $R/new-2d-g2-1.log $R/old-2d-g2-1.log | cut -c1-140
for c in "--size 12000x9000" "--dims 3 --size 640x480x1200"; do for n in 240 241; do for g in 1 2; do
  echo "checksum $c steps $n gpus $g: $(timeout 90 $A run --backend cuda --precision fp32 --variant temporal $c --steps $n --gpus $g --checksum 2>&1 | grep -i '^checksum' | cut -c1-60)"
done; done; done | tee $R/checksums.txt
