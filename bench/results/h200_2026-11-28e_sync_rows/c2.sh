#!/usr/bin/env bash
# Session 38, call 2 (one GPU): K rows (3D: planes) per barrier by CF and depth at EBISU's sizes, to choose defaults;
# the point kernel's 48-register cap now only at K = 1.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r2; mkdir -p $R; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; CLI=$B/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt; cat $R/gpu.txt
run() { # K CF DEPTH stencil size precision
  local k=$1 cf=$2 d=$3 st=$4 sz=$5 p=$6 name=$4-$6-k$1-cf$2-d$3
  STENCILSCOPE_TEMPORAL_SYNC_ROWS=$k timeout 40 $CLI bench --stencil $st --size $sz --precision $p --cf $cf --depth $d \
    --variant temporal --steps 24 --warmup 1 --repeats 3 > $R/$name.log 2>&1
  echo "$st $p k$k cf$cf d$d $(grep -E '^rate' $R/$name.log | awk '{print $2}') $(grep -oE '[0-9]+ registers' $R/$name.log | head -1 | cut -d' ' -f1) $(grep -oE '[0-9]+ B spilled' $R/$name.log | head -1 | cut -d' ' -f1)"
}
sweep() { # stencil size precision "Ks" "CFs" "depths"
  for k in $4; do for cf in $5; do for d in $6; do run $k $cf $d $1 $2 $3; done; done; done
}
{
sweep 2d5pt 8568x8568 fp32 "4 8" "1 2" "6 8 10"
sweep 2d5pt 8352x8352 fp64 "4 8" "1 2" "6 8 10"
sweep star 8352x8352 fp32 "2 4 8" "1" "6 8"
sweep star 8352x8352 fp64 "2 4 8" "1" "6 8"
sweep 2ds9pt 8064x8064 fp32 "2 4 8" "1 2" "3 4 5"
sweep 2ds9pt 8064x8064 fp64 "2 4 8" "1 2" "3 4 5"
sweep 2d9pt 8640x8640 fp32 "1 2 4" "1 2" "4 6 8"
sweep 2d9pt 8784x8784 fp64 "2 4" "1 2" "4 6"
sweep 2d25pt 8352x8352 fp32 "2 4" "1 2" "2 3 4"
sweep 2d25pt 8640x8640 fp64 "2 4" "1 2" "2 3 4"
sweep 2d49pt 9000x9000 fp32 "2 4" "1 2" "2 3"
sweep 2d49pt 9000x9000 fp64 "2 4" "1 2" "2 3"
} | tee $R/sweep2d.txt
{
sweep 3d7pt 384x288x2560 fp32 "1 2" "2 4" "4"
sweep 3d7pt 384x288x2560 fp64 "1 2" "2 4" "4"
for st in 3d27pt 3d17pt poisson; do
  sweep $st 384x288x2560 fp32 "1 2" "2 4" "2"
  sweep $st 384x288x2560 fp64 "1 2" "1 2" "2"
done
} | tee $R/sweep3d.txt
