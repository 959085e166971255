#!/usr/bin/env bash
# Session 31, call 1 (two GPUs of one host): the GPU tests on one of them (CUDA_VISIBLE_DEVICES=0: two ranks sharing
# a GPU take the peer copies within one device; the process grids' overlap and GPU packing bitwise), then process
# grids against strips and one process on the two GPUs.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-570}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r1; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
(date -u; nvidia-smi topo -m) > $D/topology.txt 2>&1
source tmp-device/s31/mpi_env.sh; (command -v mpirun; mpirun --version | head -1) > $D/mpi_version.txt
A=$PWD/.device-build/app/stencilscope-cli
CUDA_VISIBLE_DEVICES=0 timeout ${CTEST_S:-380} ctest --test-dir .device-build -L gpu -E soak --output-on-failure > $D/ctest_one_gpu.log 2>&1
at "ctest on GPU 0 rc $?"; grep -E "Test +#|tests passed|Total Test" $D/ctest_one_gpu.log | head -14
grep -E "^FAIL" $D/ctest_one_gpu.log | cut -c1-300 | head -6
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
run() { # NAME MODE ARGS...
    local name=$1 mode=$2; shift 2
    case $mode in
    inproc) timeout 100 $A bench $common "$@" --gpus 2 --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    strips) timeout 100 mpirun -np 2 $A bench $common "$@" --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    staged) timeout 100 mpirun -np 2 -x STENCILSCOPE_MPI_PEER_COPIES=0 $A bench $common "$@" --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    zon) timeout 100 mpirun -np 2 $A bench $common "$@" --ranks $ZGRID --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    zoff) timeout 100 mpirun -np 2 $A bench $common "$@" --ranks $ZGRID --overlap off --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    x) timeout 100 mpirun -np 2 $A bench $common "$@" --ranks $XGRID --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    esac
    echo "$name $mode $*: rc $? $(grep -E '^rate' $D/${mode}_$name.log | tail -1 | cut -c1-40)"
}
for shape in "3d512:--dims 3 --size 512x512x512:1 4 16" "3d1024:--dims 3 --size 1024x1024x1024:4" "2d32k:--size 32768x32768 --cf 2:4"; do
    name=${shape%%:*}; rest=${shape#*:}; args=${rest%%:*}; radii=${rest#*:}
    case $name in 3d*) ZGRID=1x1x2 XGRID=2x1x1 ;; *) ZGRID=1x2 XGRID=2x1 ;; esac
    for r in $radii; do
        for mode in inproc staged zon zoff x; do
            [ $(left) -lt 25 ] && { echo "stopped before $name R$r $mode"; break 3; }
            run ${name}_r$r $mode $args --radius $r
        done
    done
done
grep -h "^ranks\|^halo" $D/zon_*.log $D/x_*.log | sort | uniq -c | cut -c1-300 | head -8
at done
