#!/usr/bin/env bash
# Session 36, call 3 (one GPU): the point kernels' centre operand from the register the stage holds (new, after
# 4f23ddd) against loading it from shared memory (old, 4f23ddd), by default at EBISU's sizes, two rounds alternating;
# PointKernels.* on the new build; an ncu profile of 2d9pt fp32 temporal by default (where its time goes).
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r3; mkdir -p $R; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build
mkdir -p /tmp/ab && tar xJf tmp-device/s36/old-cli.txz -C /tmp/ab && mv /tmp/ab/stencilscope-cli /tmp/ab/old-cli && cp $B/app/stencilscope-cli /tmp/ab/new-cli
nvidia-smi -L > $R/gpu.txt
(cd $B/tests && timeout 100 ./gpu_kernel_tests --gtest_filter='PointKernels.*' > $R/kernel_tests.log 2>&1; echo "point kernel tests rc $?"; tail -1 $R/kernel_tests.log)
for round in 1 2; do
  for cli in old new; do
    for c in "2d9pt 8640x8640 fp32" "2d25pt 8352x8352 fp32" "2d49pt 9000x9000 fp32" "2d9pt 8784x8784 fp64" "3d27pt 384x288x2560 fp32" "poisson 384x288x2560 fp32"; do
      set -- $c
      timeout 40 /tmp/ab/$cli-cli bench --stencil $1 --size $2 --precision $3 --variant temporal --steps 24 --warmup 1 \
          --repeats 3 > $R/$cli-$1-$3-$round.log 2>&1
      echo "$round $cli $1 $3 $(grep -E '^rate' $R/$cli-$1-$3-$round.log | awk '{print $2}')"
    done
  done
done | tee $R/ab.txt | sort -k3,4 -k2 | awk '{k=$3" "$4" "$2; v[k]=v[k]" "$5} END {for (k in v) print k":"v[k]}' | sort
timeout 150 ncu --launch-skip 4 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    /tmp/ab/new-cli bench --stencil 2d9pt --size 8640x8640 --precision fp32 --variant temporal --steps 12 --warmup 0 --repeats 1 \
    > $R/ncu_2d9pt.txt 2>&1; echo "ncu rc $?"
timeout 100 ncu --launch-skip 4 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section Occupancy --section LaunchStats \
    /tmp/ab/new-cli bench --stencil 2d5pt --size 8568x8568 --precision fp32 --variant temporal --steps 12 --warmup 0 --repeats 1 \
    > $R/ncu_2d5pt.txt 2>&1; echo "ncu rc $?"
grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|Achieved Occupancy|Registers Per|Stall|Block Size|Grid Size|Shared Memory Config|Compute \(SM\) Throughput" $R/ncu_2d9pt.txt | head -30
