#!/usr/bin/env bash
# Session 36, call 5 (two GPUs): (1) 35: temporal on one and two GPUs by depth (2D 12000x9000, 3D 640x480x1200):
# does a deeper launch (fewer trades and launches per step) lift two GPUs to 1.9x of one GPU's default? (2) 2d9pt
# fp32 temporal with its launch bounds raised (STENCILSCOPE_TEMPORAL_MIN_BLOCKS, now passed to the point kernel).
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
R=/tmp/r5; mkdir -p $R; trap 'tar czf $OUT/r5.tgz -C /tmp r5' EXIT
tar xJf .device-build/bin.txz -C .device-build
A=$PWD/.device-build/app/stencilscope-cli
nvidia-smi -L > $R/gpu.txt
line() { echo "$1 rc $2: $(grep -E '^rate' $R/$1.log | head -1 | cut -c1-28) $(grep -E '^config|^uses' $R/$1.log | cut -c1-70 | tr '\n' ' ')"; }
t2="bench --backend cuda --precision fp32 --variant temporal --steps 360 --repeats 3 --warmup 1"
for d in 6 9 12; do for g in 1 2; do timeout 60 $A $t2 --size 12000x9000 --gpus $g --depth $d > $R/t2d_g${g}_d$d.log 2>&1; line t2d_g${g}_d$d $?; done; done
for d in 4 6; do for g in 1 2; do timeout 60 $A $t2 --dims 3 --size 640x480x1200 --gpus $g --depth $d > $R/t3d_g${g}_d$d.log 2>&1; line t3d_g${g}_d$d $?; done; done
p="bench --backend cuda --stencil 2d9pt --size 8640x8640 --precision fp32 --variant temporal --steps 24 --repeats 3 --warmup 1"
timeout 40 $A $p > $R/p_default.log 2>&1; line p_default $?
for m in 10 12 14; do STENCILSCOPE_TEMPORAL_MIN_BLOCKS=$m timeout 40 $A $p > $R/p_minb$m.log 2>&1; line p_minb$m $?; done
