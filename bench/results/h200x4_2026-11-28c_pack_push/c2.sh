#!/usr/bin/env bash
# Session 36, call 2 (four GPUs): faces of short rows (x faces) packed, pushed contiguous into the neighbour's
# inbox and unpacked there (build after 15ac1ab). The 2D 2x2 grid against one process and 1x4, 3D grids cutting x,
# then the whole GPU MPI test over four GPUs.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s36/mpi_env.sh
R=/tmp/r2; mkdir -p $R; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
tar xJf .device-build/bin.txz -C .device-build
A=$PWD/.device-build/app/stencilscope-cli
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/topo.txt 2>&1
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
d2="--size 32768x32768 --cf 2 --radius 4"; d3="--dims 3 --size 1024x1024x1024 --radius 4"
run() { # NAME CMD...
    local name=$1; shift
    timeout 100 "$@" > $R/$name.log 2>&1
    echo "$name rc $?: $(grep -E '^rate' $R/$name.log | head -1 | cut -c1-40) $(grep -E '^exchange|^halo' $R/$name.log | head -2 | tr '\n' ' ' | cut -c1-120)"
}
run 2d_one_process $A bench $common $d2 --gpus 4
run 2d_2x2_on mpirun -np 4 $A bench $common $d2 --ranks 2x2 --overlap on
run 2d_2x2_off mpirun -np 4 $A bench $common $d2 --ranks 2x2 --overlap off
run 2d_1x4 mpirun -np 4 $A bench $common $d2 --ranks 1x4
run 2d_4x1 mpirun -np 4 $A bench $common $d2 --ranks 4x1
run 2d_2x2_r1 mpirun -np 4 $A bench $common --size 32768x32768 --cf 2 --radius 1 --ranks 2x2
run 2d_one_r1 $A bench $common --size 32768x32768 --cf 2 --radius 1 --gpus 4
run 3d_one_process $A bench $common $d3 --gpus 4
run 3d_default mpirun -np 4 $A bench $common $d3
run 3d_2x2x1 mpirun -np 4 $A bench $common $d3 --ranks 2x2x1
run 3d_2x1x2 mpirun -np 4 $A bench $common $d3 --ranks 2x1x2
cat $R/*.log | grep -E "^  rank" | head -40 > $R/ranks.txt
timeout 330 bash tests/mpi/mpi_cli_test.sh $A cuda > $R/mpi_cli.log 2>&1; echo "mpi cli rc $?"; tail -3 $R/mpi_cli.log
