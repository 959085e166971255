#!/usr/bin/env bash
# Session 35, call 1 (c3.sh of session 34, rebuilt timing binary) (four GPUs): where the 2D 2x2 grid's exchange goes, with the timing build (trade_times.py, now
# printing before MPI_Finalize) of the copy-engine change: push and MPI's word per axis, beside 2x1, 1x2, 4x1, a
# smaller domain and the staged path.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s35/mpi_env.sh
R=/tmp/r1; mkdir -p $R; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
tar xJf .device-build/bin.txz -C .device-build
tar xJf tmp-device/s35/dbg.txz -C tmp-device/s35
CLI=$PWD/.device-build/app/stencilscope-cli
mkdir -p /tmp/new; cp $CLI /tmp/new/; cp tmp-device/s35/new-dbg-cli-mpi /tmp/new/stencilscope-cli-mpi
common="--backend cuda --precision fp32 --variant stream --repeats 2 --warmup 1 --steps 10 --cf 2 --radius 4"
run() { # NAME NP ARGS...
    local name=$1 np=$2; shift 2
    timeout 90 mpirun -np $np /tmp/new/stencilscope-cli bench $common "$@" > $R/$name.log 2>&1
    echo "== $name rc $?: $(grep -E '^rate' $R/$name.log | cut -c1-30) $*"
    grep -E "^DBG" $R/$name.log | sort | tail -$np
    grep -E "^  rank" $R/$name.log | sed 's/GPU . on [a-z0-9-]* //'
}
big="--size 32768x32768"
run 2x2_off 4 $big --ranks 2x2 --overlap off
run 2x2_on 4 $big --ranks 2x2 --overlap on
run 2x1 2 $big --ranks 2x1
run 1x2_off 2 $big --ranks 1x2 --overlap off
run 4x1 4 $big --ranks 4x1
run 2x2_small_off 4 --size 16384x16384 --ranks 2x2 --overlap off
run 2x2_staged_off 4 $big --ranks 2x2 --overlap off --halo staged
nvidia-smi topo -m > $R/topo.txt 2>&1; nvidia-smi -L >> $R/topo.txt
