#!/usr/bin/env bash
# Session 38, call 6 (one GPU): depths that do not divide 24 again, with steps a multiple of the depth (the sweep of
# call 2 ran 24 steps: depth 5, 7, 10 ran 4 single steps each); then the gpu kernel tests.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r6; mkdir -p $R; trap 'tar czf $OUT/r6.tgz -C /tmp r6' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; A=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt; cat $R/gpu.txt
run() { # K CF DEPTH stencil size precision
  local name=$4-$6-k$1-cf$2-d$3 steps=$(( $3 * 6 ))
  STENCILSCOPE_TEMPORAL_SYNC_ROWS=$1 timeout 40 $A bench --stencil $4 --size $5 --precision $6 --cf $2 --depth $3 \
    --variant temporal --steps $steps --warmup 1 --repeats 3 > $R/$name.log 2>&1
  echo "$4 $6 k$1 cf$2 d$3 steps$steps $(grep -E '^rate' $R/$name.log | awk '{print $2}') $(grep -oE '[0-9]+ registers' $R/$name.log | head -1 | cut -d' ' -f1)"
}
{
for d in 4 5 6 7; do run 2 2 $d 2d9pt 8640x8640 fp32; done
for d in 5 7; do run 3 2 $d 2d9pt 8640x8640 fp32; run 2 1 $d 2d9pt 8640x8640 fp32; run 4 1 $d 2d9pt 8640x8640 fp32; done
for d in 4 5; do run 2 2 $d 2d9pt 8784x8784 fp64; done; run 2 1 5 2d9pt 8784x8784 fp64; run 2 1 7 2d9pt 8784x8784 fp64
for d in 6 8 9 10; do run 8 1 $d 2d5pt 8568x8568 fp32; run 8 1 $d star 8352x8352 fp32; done
for d in 6 7 8 9 10; do run 4 1 $d 2d5pt 8352x8352 fp64; done; for d in 9 10; do run 4 1 $d star 8352x8352 fp64; done
for d in 4 5; do run 4 1 $d 2ds9pt 8064x8064 fp32; run 4 1 $d 2ds9pt 8064x8064 fp64; done
for d in 2 3; do run 4 2 $d 2d25pt 8352x8352 fp32; run 4 2 $d 2d25pt 8640x8640 fp64; done
} | tee $R/depths.txt
(cd $B/tests && timeout 150 ./gpu_kernel_tests > $R/kernel_tests.log 2>&1; echo "kernel tests rc $?"; grep -E "^\[  (PASSED|FAILED)" $R/kernel_tests.log | head -4)
