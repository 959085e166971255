#!/usr/bin/env bash
# Session 38, call 1 (one GPU): 2D temporal kernels taking K rows per barrier (STENCILSCOPE_TEMPORAL_SYNC_ROWS),
# K = 1, 2, 4, by default at EBISU's sizes; fp64 2d5pt by CF and depth; kernel tests at K = 2 and 4.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r1; mkdir -p $R; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt; cat $R/gpu.txt
run() { # K name args...
  local k=$1 name=$2; shift 2
  STENCILSCOPE_TEMPORAL_SYNC_ROWS=$k timeout 40 $CLI bench "$@" --variant temporal --steps 24 --warmup 1 --repeats 3 > $R/$name-k$k.log 2>&1
  echo "$name k$k $(grep -E '^rate' $R/$name-k$k.log | awk '{print $2}') $(grep -oE '[0-9]+ registers' $R/$name-k$k.log | head -1)"
}
for k in 1 2 4; do
  for c in "2d5pt 8568x8568 fp32" "2d5pt 8352x8352 fp64" "2ds9pt 8064x8064 fp32" "2ds9pt 8064x8064 fp64" \
           "2d9pt 8640x8640 fp32" "2d9pt 8784x8784 fp64" "2d25pt 8352x8352 fp32" "2d25pt 8640x8640 fp64" \
           "2d49pt 9000x9000 fp32" "2d49pt 9000x9000 fp64"; do
    set -- $c; run $k $1-$3 --stencil $1 --size $2 --precision $3
  done
done | tee $R/defaults.txt
for k in 1 2 4; do for cf in 1 2; do for d in 6 8 12; do
  run $k 2d5pt-fp64-cf$cf-d$d --stencil 2d5pt --size 8352x8352 --precision fp64 --cf $cf --depth $d
done; done; done | tee $R/fp64_sweep.txt
(cd $B/tests && STENCILSCOPE_TEMPORAL_SYNC_ROWS=4 timeout 200 ./gpu_kernel_tests --gtest_filter='TemporalKernel.*:PointKernels.*' > $R/tests-k4.log 2>&1; echo "tests k4 rc $?"; tail -1 $R/tests-k4.log)
(cd $B/tests && STENCILSCOPE_TEMPORAL_SYNC_ROWS=2 timeout 80 ./gpu_kernel_tests --gtest_filter='TemporalKernel.ManualBlocks*:PointKernels.SmemStream*' > $R/tests-k2.log 2>&1; echo "tests k2 rc $?"; tail -1 $R/tests-k2.log)
