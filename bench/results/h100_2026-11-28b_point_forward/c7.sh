#!/usr/bin/env bash
# Session 35, call 7 (one H100): A/B in one run of the forward point temporal kernel without (old-cli, cf66f82) and
# with (new-cli) the block-uniform fast path, by default at EBISU's sizes, three rounds alternating.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r7; mkdir -p $R; trap 'tar czf $OUT/r7.tgz -C /tmp r7' EXIT
tar xJf .device-build/bin.txz -C .device-build
mkdir -p /tmp/ab && tar xJf tmp-device/s35/ab.txz -C /tmp/ab && chmod +x /tmp/ab/*
nvidia-smi -L > $R/gpu.txt
for round in 1 2 3; do
  for cli in old new; do
    for c in "2d9pt 8784x8784 fp64" "3d27pt 384x288x2560 fp64" "poisson 384x288x2560 fp64" "2d9pt 8640x8640 fp32" "3d27pt 384x288x2560 fp32" "poisson 384x288x2560 fp32"; do
      set -- $c
      timeout 40 /tmp/ab/$cli-cli bench --stencil $1 --size $2 --precision $3 --variant temporal --steps 24 --warmup 1 \
          --repeats 3 > $R/$cli-$1-$3-$round.log 2>&1
      echo "$round $cli $1 $3 $(grep -E '^rate' $R/$cli-$1-$3-$round.log | awk '{print $2}')"
    done
  done
done | tee $R/ab.txt | sort -k3,4 -k2 | awk '{k=$3" "$4" "$2; v[k]=v[k]" "$5} END {for (k in v) print k":"v[k]}' | sort
