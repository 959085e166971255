#!/usr/bin/env bash
# Session 33, call 7 (two GPUs): where a 2x2 grid's exchange goes (a build timing each trade's push and number).
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s33/mpi_env.sh
A=$PWD/tmp-device/s33/dbg/stencilscope-cli
common="--backend cuda --precision fp32 --variant stream --repeats 2 --warmup 1 --steps 10 --size 32768x32768 --cf 2 --radius 4"
for run in "4:2x2:on" "4:2x2:off" "4:1x4:on" "2:1x2:on" "2:1x2:off" "2:2x1:on"; do
    IFS=: read np grid ov <<<"$run"
    out=$(timeout 60 mpirun -np $np $A bench $common --ranks $grid --overlap $ov 2>&1)
    echo "== $grid overlap $ov: $(grep -E '^rate' <<<"$out" | cut -c1-30)"
    grep "^DBG" <<<"$out" | sort | uniq | tail -8
done
