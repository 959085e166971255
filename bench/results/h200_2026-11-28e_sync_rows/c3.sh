#!/usr/bin/env bash
# Session 38, call 3 (one GPU): the new defaults (rows per barrier by configuration; star's 2D CF 1; point kernel's 2D
# depths 4 / 2) beside EBISU's own 2D binaries (built outside the repository for sm_90), the stars by default, 3d7pt,
# then the gpu kernel tests on this build.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r3; mkdir -p $R; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
mkdir -p /tmp/ebisu && tar xJf tmp-device/s38/ebisu.txz -C /tmp/ebisu
nvidia-smi -L > $R/gpu.txt; cat $R/gpu.txt
EBISU_BIN=/tmp/ebisu EBISU_TIMEOUT=25 SINGLE_VARIANTS=stream SINGLE_CFS=4 ONLY="2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt" \
    timeout 330 bash bench/ebisu_suite.sh $CLI $R 3 > $R/table.md 2> $R/suite.err
for c in "star 8352x8352 fp32" "star 8352x8352 fp64" "star 12000x9000 fp32" "3d7pt 384x288x2560 fp32" "3d7pt 384x288x2560 fp64"; do
  set -- $c
  timeout 40 $CLI bench --stencil $1 --size $2 --precision $3 --variant temporal --steps 24 --warmup 1 --repeats 3 > $R/def-$1-$2-$3.log 2>&1
  echo "$1 $2 $3 $(grep -E '^rate' $R/def-$1-$2-$3.log | awk '{print $2}') | $(grep -E '^defaults' $R/def-$1-$2-$3.log)"
done | tee $R/defaults.txt
(cd $B/tests && timeout 200 ./gpu_kernel_tests > $R/kernel_tests.log 2>&1; echo "kernel tests rc $?"; grep -E "FAILED|PASSED" $R/kernel_tests.log | head)
