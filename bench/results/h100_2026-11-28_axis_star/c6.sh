#!/usr/bin/env bash
# Session 34, call 6 (one H100): EBISU's four stars beside EBISU's own binaries in one run: ours with the temporal
# defaults (--variant temporal and the size: the star's kernel, 3D CF 4 / 2 and depth 4 at R1 fp32), auto, and one
# single step; EBISU (neozhang307/EBISU-ICS23 at dd3d844, the history's build edits, built outside the repository
# for sm_90) --experiment.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r6; mkdir -p $R; trap 'tar czf $OUT/r6.tgz -C /tmp r6' EXIT
tar xJf .device-build/bin.txz -C .device-build
mkdir -p /tmp/ebisu && tar xJf tmp-device/s34/ebisu.txz -C /tmp/ebisu
nvidia-smi -L > $R/gpu.txt
EBISU_BIN=/tmp/ebisu EBISU_TIMEOUT=30 FP32_3D_SIZE=384x288x2560 SINGLE_VARIANTS=stream SINGLE_CFS=4 \
    ONLY="2d5pt 2ds9pt 3d7pt 3d13pt" timeout 520 bash bench/ebisu_suite.sh $PWD/.device-build/app/stencilscope-cli $R 3 \
    > $R/table.md 2> $R/suite.err
cat $R/table.md | head -60
# fp64 in 2D stays behind EBISU: the star's kernel by CF and depth (steps a multiple of every depth).
CLI=$PWD/.device-build/app/stencilscope-cli
timeout 90 $CLI bench --stencil 2d5pt --precision fp64 --size 8352x8352 --variant temporal --cf 1,2 --depth 6,8,12 \
    --steps 24 --warmup 1 --repeats 3 --csv $R/fp64_2d.csv > $R/fp64_2d5pt.log 2>&1
timeout 90 $CLI bench --stencil 2ds9pt --precision fp64 --size 8064x8064 --variant temporal --cf 1,2 --depth 3,4,6 \
    --steps 24 --warmup 1 --repeats 3 --csv $R/fp64_2d.csv > $R/fp64_2ds9pt.log 2>&1
grep -E "^(config|rate)" $R/fp64_2d5pt.log $R/fp64_2ds9pt.log | cut -c1-110
