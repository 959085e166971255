#!/usr/bin/env bash
# Session 36, call 1 (four GPUs): pack_probe.py on top of trade_times.py and push_probe.py (build 15ac1ab): is a
# local pack of the 2x2 grid's x face (strided reads of the own field, contiguous local writes) as slow as its push?
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s36/mpi_env.sh
R=/tmp/r1; mkdir -p $R; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
mkdir -p /tmp/new; tar xJf tmp-device/s36/probe.txz -C /tmp/new
nvidia-smi -L > $R/gpu.txt; nvidia-smi topo -m > $R/topo.txt
common="--backend cuda --precision fp32 --variant stream --repeats 2 --warmup 1 --steps 10 --cf 2 --radius 4"
run() { # NAME NP ARGS...
    local name=$1 np=$2; shift 2
    timeout 60 mpirun ${DBG_CE_ROW_BYTES:+-x DBG_CE_ROW_BYTES} -np $np /tmp/new/probe-cli-mpi bench $common "$@" > $R/$name.log 2>&1
    echo "== $name rc $?: $(grep -E '^rate' $R/$name.log | cut -c1-30) $*"
    grep -E "^DBG" $R/$name.log | sort | tail -$np
}
big="--size 32768x32768"
run 2x2_off 4 $big --ranks 2x2 --overlap off
DBG_CE_ROW_BYTES=0 run 2x2_off_ce 4 $big --ranks 2x2 --overlap off
run 2x1_half 2 --size 32768x16384 --ranks 2x1 --overlap off
run 2x2_16k_off 4 --size 16384x16384 --ranks 2x2 --overlap off
run 1x4_off 4 $big --ranks 1x4 --overlap off
