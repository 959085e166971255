#!/usr/bin/env bash
# Session 36, call 6 (one GPU): the point temporal kernel's launch bounds raised (STENCILSCOPE_TEMPORAL_MIN_BLOCKS)
# for the six stencils with points off the axes, by default otherwise, at EBISU's sizes: 2D blocks are 128 threads
# (9 resident by default at 56 registers), 3D 256 (4 at 62).
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r6; mkdir -p $R; trap 'tar czf $OUT/r6.tgz -C /tmp r6' EXIT
tar xJf .device-build/bin.txz -C .device-build
A=$PWD/.device-build/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
for c in "2d9pt 8640x8640 fp32:0 10 11 12" "2d25pt 8352x8352 fp32:0 10 11 12" "2d49pt 9000x9000 fp32:0 10 11 12" "2d9pt 8784x8784 fp64:0 10 11 12" \
         "3d27pt 384x288x2560 fp32:0 5 6" "3d17pt 384x288x2560 fp32:0 5 6" "poisson 384x288x2560 fp32:0 5 6" "3d27pt 384x288x2560 fp64:0 5 6"; do
  set -- ${c%%:*}
  for m in ${c#*:}; do
    n=$1-$3-m$m
    if [ $m = 0 ]; then unset STENCILSCOPE_TEMPORAL_MIN_BLOCKS; else export STENCILSCOPE_TEMPORAL_MIN_BLOCKS=$m; fi
    timeout 40 $A bench --stencil $1 --size $2 --precision $3 --variant temporal --steps 24 --warmup 1 --repeats 3 > $R/$n.log 2>&1
    echo "$n $(grep -E '^rate' $R/$n.log | awk '{print $2}') $(grep -E '^uses' $R/$n.log | cut -c10-62)"
  done
done | tee $R/minb.txt
