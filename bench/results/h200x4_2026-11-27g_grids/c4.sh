#!/usr/bin/env bash
# Session 31, call 4 (four GPUs of one host): process grids of 4 ranks (peer copies, overlap on) against 4 GPUs in
# one process and the 1-axis cut, fp32 stream.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-200}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r4; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
(date -u; nvidia-smi topo -m) > $D/topology.txt 2>&1
source tmp-device/s31/mpi_env.sh
A=$PWD/.device-build/app/stencilscope-cli
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
run() { # NAME GRID|inproc ARGS...
    local name=$1 grid=$2; shift 2
    if [ "$grid" = inproc ]; then
        timeout 60 $A bench $common "$@" --gpus 4 --csv $D/${name}_inproc.csv > $D/${name}_inproc.log 2>&1
    elif [ "$grid" = default ]; then
        timeout 60 mpirun -np 4 $A bench $common "$@" --csv $D/${name}_default.csv > $D/${name}_default.log 2>&1
    else
        timeout 60 mpirun -np 4 $A bench $common "$@" --ranks $grid --csv $D/${name}_$grid.csv > $D/${name}_$grid.log 2>&1
    fi
    echo "$name $grid $*: rc $? $(grep -E '^rate' $D/${name}_$grid.log | tail -1 | cut -c1-40)"
}
for g in inproc default 1x1x4 2x2x1; do [ $(left) -lt 20 ] && break; run 3d1024_r4 $g --dims 3 --size 1024x1024x1024 --radius 4; done
for g in inproc default 1x4; do [ $(left) -lt 15 ] && break; run 2d32k_r4 $g --size 32768x32768 --cf 2 --radius 4; done
grep -h "^ranks" $D/*default.log | cut -c1-260
at done
