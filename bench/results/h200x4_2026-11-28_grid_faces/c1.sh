#!/usr/bin/env bash
# Session 34, call 1 (four GPUs): the 2D 2x2 grid one rank per GPU, before and after its y and z faces went by the
# copy engine, with a timing build of each (trade_times.py) and the clean build beside four GPUs in one process.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s34/mpi_env.sh
R=/tmp/r1; mkdir -p $R; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
tar xJf .device-build/bin.txz -C .device-build
CLI=$PWD/.device-build/app/stencilscope-cli
tar xJf tmp-device/s34/dbg.txz -C tmp-device/s34
for v in old new; do mkdir -p /tmp/$v; cp $CLI /tmp/$v/; cp tmp-device/s34/$v-dbg-cli-mpi /tmp/$v/stencilscope-cli-mpi; done
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/topo.txt 2>&1
timeout 120 .device-build/tests/gpu_multi_tests --gtest_filter='FacePacking.*' > $R/face_packing.log 2>&1; echo "face packing rc $?" >> $R/summary.txt
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
d2="--size 32768x32768 --cf 2 --radius 4"; d3="--dims 3 --size 1024x1024x1024 --radius 4"
run() { # NAME CMD...
    local name=$1; shift
    timeout 100 "$@" > $R/$name.log 2>&1
    echo "$name rc $?: $(grep -E '^rate' $R/$name.log | head -1 | cut -c1-60)" >> $R/summary.txt
}
run 2d_one_process $CLI bench $common $d2 --gpus 4
for v in old new; do
    for g in "2x2:on" "2x2:off" "1x4:on"; do
        run 2d_${v}_${g/:/_} mpirun -np 4 /tmp/$v/stencilscope-cli bench $common $d2 --ranks ${g%:*} --overlap ${g#*:}
    done
    run 3d_${v}_1x2x2 mpirun -np 4 /tmp/$v/stencilscope-cli bench $common $d3 --ranks 1x2x2
done
run 2d_clean_default mpirun -np 4 $CLI bench $common $d2
run 3d_one_process $CLI bench $common $d3 --gpus 4
run 3d_clean_default mpirun -np 4 $CLI bench $common $d3
run 3d_clean_1x1x4 mpirun -np 4 $CLI bench $common $d3 --ranks 1x1x4
cat $R/summary.txt
grep -h "^DBG\|^  rank" $R/2d_*.log | head -60
