#!/usr/bin/env bash
# Session 37, call 1 (one GPU): the point temporal kernel rotating its sums (new, 3c merge of next/point-rotation)
# against shifting them (old, 811026a), by default at EBISU's sizes, two rounds alternating; PointKernels.* and the
# other gpu kernel tests on the new build; ncu instruction counts of 2d9pt fp32.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r1; mkdir -p $R; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build
mkdir -p /tmp/ab && tar xJf tmp-device/s37/old-cli.txz -C /tmp/ab && mv /tmp/ab/stencilscope-cli /tmp/ab/old-cli && cp $B/app/stencilscope-cli /tmp/ab/new-cli
nvidia-smi -L > $R/gpu.txt
(cd $B/tests && timeout 150 ./gpu_kernel_tests --gtest_filter='PointKernels.*' > $R/kernel_tests.log 2>&1; echo "point kernel tests rc $?"; tail -1 $R/kernel_tests.log)
for round in 1 2; do
  for cli in old new; do
    for c in "2d9pt 8640x8640 fp32" "2d25pt 8352x8352 fp32" "2d49pt 9000x9000 fp32" "2d9pt 8784x8784 fp64" "3d27pt 384x288x2560 fp32" "poisson 384x288x2560 fp32" "3d27pt 384x288x2560 fp64"; do
      set -- $c
      timeout 40 /tmp/ab/$cli-cli bench --stencil $1 --size $2 --precision $3 --variant temporal --steps 24 --warmup 1 \
          --repeats 3 > $R/$cli-$1-$3-$round.log 2>&1
      echo "$round $cli $1 $3 $(grep -E '^rate' $R/$cli-$1-$3-$round.log | awk '{print $2}')"
    done
  done
done | tee $R/ab.txt | sort -k3,4 -k2 | awk '{k=$3" "$4" "$2; v[k]=v[k]" "$5} END {for (k in v) print k":"v[k]}' | sort
for cli in old new; do
timeout 60 ncu -k regex:ss_ --launch-skip 2 --launch-count 1 --section SpeedOfLight --section InstructionStats --section LaunchStats \
    /tmp/ab/$cli-cli bench --stencil 2d9pt --size 8640x8640 --precision fp32 --variant temporal --steps 12 --warmup 0 --repeats 1 \
    > $R/ncu_2d9pt_$cli.txt 2>&1; echo "ncu $cli rc $?"
grep -E "Duration|Executed Instructions  |Registers Per|Grid Size|Block Size" $R/ncu_2d9pt_$cli.txt | head -8
done
(cd $B/tests && timeout 200 ./gpu_kernel_tests > $R/all_kernel_tests.log 2>&1; echo "all kernel tests rc $?"; tail -3 $R/all_kernel_tests.log)
