#!/usr/bin/env bash
# Session 36, call 8 (one GPU): where 2d9pt fp32 temporal's time goes, ours by default (ss_points_temporal_2d) beside
# EBISU's own kernel (--experiment), ncu on one launch of each: stall reasons, issue, instructions, occupancy.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r8; mkdir -p $R; trap 'tar czf $OUT/r8.tgz -C /tmp r8' EXIT
tar xJf .device-build/bin.txz -C .device-build
mkdir -p /tmp/ebisu && tar xJf tmp-device/s36/ebisu.txz -C /tmp/ebisu
nvidia-smi -L > $R/gpu.txt
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats --section Occupancy --section LaunchStats"
timeout 90 ncu -k regex:ss_points_temporal --launch-skip 1 --launch-count 1 $S --print-details all \
    .device-build/app/stencilscope-cli bench --stencil 2d9pt --size 8640x8640 --precision fp32 --variant temporal \
    --steps 12 --warmup 0 --repeats 1 > $R/ncu_ours.txt 2>&1; echo "ours rc $?"
timeout 90 ncu --launch-skip 2 --launch-count 1 $S --print-details all /tmp/ebisu/2d9pt_ebisu.exe --fp32 --experiment > $R/ncu_ebisu.txt 2>&1; echo "ebisu rc $?"
for f in ours ebisu; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|Duration|Registers Per|Block Size|Grid Size|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Executed Instructions  |Stall [A-Z]|Shared Memory Per|Dynamic Shared" $R/ncu_$f.txt | head -40; done
