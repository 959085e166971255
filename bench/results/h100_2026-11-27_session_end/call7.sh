#!/usr/bin/env bash
# Final GPU check of this session's main: ctest -L gpu (point stencils, split counters on strips), the kernel
# listing (PTX and SASS with the toolkit's disassembler) and the point kernels' verify from the CLI.
set -o pipefail
source .device-rt/gpu-env.sh --no-x || exit 1
tar xzf .device-build/gpu-tests.tgz -C .device-build
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
export PATH=$PATH:/usr/local/cuda/bin
.device-build/tests/kernel_listing_tests > $OUT/kernel_listing.log 2>&1; echo "kernel_listing rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $OUT/kernel_listing.log | tr '\n' ' ')"
A=.device-build/app/stencilscope-cli
for s in box 2d25pt 2d49pt 3d27pt poisson 3d17pt; do $A run --stencil $s --size 2048x2048 --steps 4 --verify 2>&1 | grep -E "^config|^kernel|verify|refus" ; done > $OUT/points_verify.txt 2>&1
$A run --stencil 3d27pt --size 256x256x256 --steps 4 --verify --precision fp64 >> $OUT/points_verify.txt 2>&1
ctest --test-dir .device-build -L gpu --output-on-failure > $OUT/ctest.log 2>&1; echo "ctest rc $?"
tail -16 $OUT/ctest.log; cat $OUT/points_verify.txt | grep -E "verify|refus|error" | head -20
