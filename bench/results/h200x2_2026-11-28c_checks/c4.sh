#!/usr/bin/env bash
# Session 36, call 4 (two GPUs): (1) 35: temporal on two GPUs, 2D 12000x9000 and 3D 640x480x1200 by default, and
# the 2D one with other wave counts; (2) 35: 2d9pt fp32 temporal with its launch bounds raised
# (STENCILSCOPE_TEMPORAL_MIN_BLOCKS) and other blocks; (3) 37: two ranks as 2x1 / 1x2 grids (x faces packed)
# against one process; (4) the whole GPU MPI test over the two GPUs.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s36/mpi_env.sh
R=/tmp/r4; mkdir -p $R; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
tar xJf .device-build/bin.txz -C .device-build
A=$PWD/.device-build/app/stencilscope-cli
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/topo.txt 2>&1
line() { echo "$1 rc $2: $(grep -E '^rate' $R/$1.log | head -1 | cut -c1-28) $(grep -E '^block|^uses' $R/$1.log | cut -c1-70 | tr '\n' ' ')"; }
t2="bench --backend cuda --precision fp32 --variant temporal --steps 240 --repeats 3 --warmup 1"
for g in 1 2; do timeout 60 $A $t2 --size 12000x9000 --gpus $g > $R/t2d_g$g.log 2>&1; line t2d_g$g $?; done
for w in 2 8 16; do STENCILSCOPE_TEMPORAL_WAVES=$w timeout 60 $A $t2 --size 12000x9000 --gpus 2 > $R/t2d_g2_w$w.log 2>&1; line t2d_g2_w$w $?; done
STENCILSCOPE_TEMPORAL_WAVES=8 timeout 60 $A $t2 --size 12000x9000 --gpus 1 > $R/t2d_g1_w8.log 2>&1; line t2d_g1_w8 $?
for g in 1 2; do timeout 90 $A $t2 --dims 3 --size 640x480x1200 --gpus $g > $R/t3d_g$g.log 2>&1; line t3d_g$g $?; done
p="bench --backend cuda --stencil 2d9pt --size 8640x8640 --precision fp32 --variant temporal --steps 24 --repeats 3 --warmup 1"
timeout 40 $A $p > $R/p_default.log 2>&1; line p_default $?
for m in 10 12 14; do STENCILSCOPE_TEMPORAL_MIN_BLOCKS=$m timeout 40 $A $p > $R/p_minb$m.log 2>&1; line p_minb$m $?; done
for b in 64x1x1 256x1x1; do timeout 40 $A $p --block $b > $R/p_block$b.log 2>&1; line p_block$b $?; done
s="bench --backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10 --size 32768x32768 --cf 2 --radius 4"
timeout 60 $A $s --gpus 2 > $R/g_one.log 2>&1; line g_one $?
for g in 2x1 1x2; do timeout 90 mpirun -np 2 $A $s --ranks $g > $R/g_$g.log 2>&1; line g_$g $?; done
timeout 420 bash tests/mpi/mpi_cli_test.sh $A cuda > $R/mpi_cli.log 2>&1; echo "mpi cli rc $? ok $(grep -c '^ok' $R/mpi_cli.log) fail $(grep -c '^FAIL' $R/mpi_cli.log)"
