#!/usr/bin/env bash
# Session 35, call 4 (one H100): EBISU's five 3D stencils beside EBISU's own binaries in one run, fp32 and fp64:
# ours with the temporal defaults (--variant temporal and the size; the point kernel now sums forward), auto, and one
# single step (stream CF 4); EBISU (neozhang307/EBISU-ICS23 at dd3d844, the history's build edits, built outside
# the repository for sm_90) --experiment.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r4; mkdir -p $R; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
tar xJf .device-build/bin.txz -C .device-build
mkdir -p /tmp/ebisu && tar xJf tmp-device/s35/ebisu.txz -C /tmp/ebisu
nvidia-smi -L > $R/gpu.txt
EBISU_BIN=/tmp/ebisu EBISU_TIMEOUT=45 FP32_3D_SIZE=384x288x2560 SINGLE_VARIANTS=stream SINGLE_CFS=4 \
    ONLY="${ONLY:-3d7pt 3d13pt 3d27pt 3d17pt poisson}" timeout 560 bash bench/ebisu_suite.sh \
    $PWD/.device-build/app/stencilscope-cli $R 3 > $R/table.md 2> $R/suite.err
cat $R/table.md | head -60
