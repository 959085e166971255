#!/usr/bin/env bash
# Session 35, call 5 (four GPUs): (1) where the 2D 2x2 grid's x push goes: the probe build (trade_times.py +
# push_probe.py) times each push on the GPU (CUDA events) beside the host's wait, with the x faces by kernel (rows
# under 512 B) and by the copy engine (DBG_CE_ROW_BYTES=0), and a 2x1 grid of the 2x2's boxes; (2) the strip tests
# of point stencils after the forward temporal kernel (PointStrips.*).
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s35/mpi_env.sh
R=/tmp/r5; mkdir -p $R; trap 'tar czf $OUT/r5.tgz -C /tmp r5' EXIT
tar xJf .device-build/bin.txz -C .device-build
tar xJf tmp-device/s35/dbg2.txz -C tmp-device/s35
mkdir -p /tmp/new; cp .device-build/app/stencilscope-cli /tmp/new/; cp tmp-device/s35/new-dbg-cli-mpi /tmp/new/stencilscope-cli-mpi
nvidia-smi -L > $R/gpu.txt
common="--backend cuda --precision fp32 --variant stream --repeats 2 --warmup 1 --steps 10 --cf 2 --radius 4"
run() { # NAME NP ARGS...
    local name=$1 np=$2; shift 2
    timeout 60 mpirun ${DBG_CE_ROW_BYTES:+-x DBG_CE_ROW_BYTES} -np $np /tmp/new/stencilscope-cli bench $common "$@" > $R/$name.log 2>&1
    echo "== $name rc $?: $(grep -E '^rate' $R/$name.log | cut -c1-30) $*"
    grep -E "^DBG" $R/$name.log | sort | tail -$np
}
big="--size 32768x32768"
run 2x2_off 4 $big --ranks 2x2 --overlap off
DBG_CE_ROW_BYTES=0 run 2x2_off_ce 4 $big --ranks 2x2 --overlap off
run 2x1_half 2 --size 32768x16384 --ranks 2x1 --overlap off
run 2x2_24k_off 4 --size 24576x24576 --ranks 2x2 --overlap off
DBG_CE_ROW_BYTES=0 run 2x2_on_ce 4 $big --ranks 2x2 --overlap on
(cd .device-build/tests && timeout 240 ./gpu_multi_tests --gtest_filter='PointStrips.*' > $R/point_strips.log 2>&1; echo "point strips rc $?"; tail -3 $R/point_strips.log)
