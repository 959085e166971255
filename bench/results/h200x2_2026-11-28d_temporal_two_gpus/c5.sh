#!/usr/bin/env bash
# Session 37, call 5 (two GPUs): 35, two-GPU temporal: the interior of the next launch waits for the boundary rows
# only, not the trade (new) against waiting for the trade (mid, call 4's build), 2D 12000x9000 and 3D 640x480x1200
# fp32 R1 by default, two rounds alternating; waves and overlap off on the new build; TemporalStrips.*; checksums.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r5; mkdir -p $R; trap 'tar czf $OUT/r5.tgz -C /tmp r5' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; A=$B/app/stencilscope-cli
mkdir -p /tmp/ab && tar xJf tmp-device/s37/mid-cli.txz -C /tmp/ab && mv /tmp/ab/stencilscope-cli /tmp/ab/mid-cli && cp $A /tmp/ab/new-cli
nvidia-smi -L > $R/gpu.txt
(cd $B/tests && timeout 200 ./gpu_multi_tests --gtest_filter='TemporalStrips.*' > $R/strip_tests.log 2>&1; echo "strip tests rc $?"; grep -E "^\[  (PASSED|FAILED)|Failure" $R/strip_tests.log | head -6)
t="bench --backend cuda --precision fp32 --variant temporal --steps 240 --repeats 3 --warmup 1"
for round in 1 2; do
  for cli in mid new; do
    for g in 1 2; do
      timeout 60 /tmp/ab/$cli-cli $t --size 12000x9000 --gpus $g > $R/$cli-2d-g$g-$round.log 2>&1
      echo "$round $cli 2d-g$g $(grep -E '^rate' $R/$cli-2d-g$g-$round.log | awk '{print $2}')"
    done
    timeout 90 /tmp/ab/$cli-cli $t --dims 3 --size 640x480x1200 --gpus 2 > $R/$cli-3d-g2-$round.log 2>&1
    echo "$round $cli 3d-g2 $(grep -E '^rate' $R/$cli-3d-g2-$round.log | awk '{print $2}')"
  done
done | tee $R/ab.txt | sort -k3,3 -k2 | awk '{k=$3" "$2; v[k]=v[k]" "$4} END {for (k in v) print k":"v[k]}' | sort
for w in 3 6; do STENCILSCOPE_TEMPORAL_WAVES=$w timeout 60 $A $t --size 12000x9000 --gpus 2 > $R/new-2d-g2-w$w.log 2>&1; echo "waves $w: $(grep -E '^rate|^block' $R/new-2d-g2-w$w.log | cut -c1-40 | tr '\n' ' ')"; done
timeout 60 $A $t --size 12000x9000 --gpus 2 --overlap off > $R/new-2d-g2-off.log 2>&1; echo "overlap off: $(grep -E '^rate' $R/new-2d-g2-off.log | cut -c1-40)"
grep -E "^  strip" $R/new-2d-g2-1.log | cut -c1-140
for c in "--size 12000x9000" "--dims 3 --size 640x480x1200"; do for n in 240 241; do for g in 1 2; do
  echo "checksum $c steps $n gpus $g: $(timeout 90 $A run --backend cuda --precision fp32 --variant temporal $c --steps $n --gpus $g --checksum 2>&1 | grep -i '^checksum' | cut -c1-60)"
done; done; done | tee $R/checksums.txt
