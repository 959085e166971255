#!/usr/bin/env bash
# Session 30, call 1 (two GPUs of one host): issue 37's peer-copy path (CUDA IPC) checked bitwise over two GPUs and
# measured against two GPUs in one process and against the staged path (STENCILSCOPE_MPI_PEER_COPIES=0); the point
# kernels' GPU tests (3D stream rows at CF 8 never run before).
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-560}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r1; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
(date -u; nvidia-smi topo -m; nvidia-smi topo -p2p r) > $D/topology.txt 2>&1
source tmp-device/s30/mpi_env.sh; mpirun --version | head -1 > $D/mpi_version.txt
A=$PWD/.device-build/app/stencilscope-cli
# 1. the point kernels on GPU 0
CUDA_VISIBLE_DEVICES=0 timeout 150 .device-build/tests/gpu_kernel_tests --gtest_filter='PointKernels.*' > $D/point_tests.log 2>&1
at "point tests rc $?"; grep -E "^\[  (PASSED|FAILED) " $D/point_tests.log | head -5
# 2. bitwise under mpirun over the two GPUs: peer copies and staged, 2 and 3 ranks
timeout 200 bash tests/mpi/mpi_cli_test.sh $A cuda > $D/mpi_cli.log 2>&1; at "mpi cli rc $?"
grep -E "^FAIL|all passed|failed" $D/mpi_cli.log | cut -c1-300 | head -8
# 3. ranks against one process, fp32 stream, overlap on (the default)
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
run() { # NAME MODE ARGS...: MODE inproc | ipc | staged
    local name=$1 mode=$2; shift 2
    case $mode in
    inproc) timeout 100 $A bench $common "$@" --gpus 2 --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    ipc) timeout 100 mpirun -np 2 $A bench $common "$@" --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    staged) STENCILSCOPE_MPI_PEER_COPIES=0 timeout 100 mpirun -np 2 -x STENCILSCOPE_MPI_PEER_COPIES $A bench $common "$@" --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    esac
    echo "$name $mode $*: rc $? $(grep -E '^rate' $D/${mode}_$name.log | tail -1 | cut -c1-40)"
}
for shape in "3d512:--dims 3 --size 512x512x512" "2d32k:--size 32768x32768 --cf 2" "3d1024:--dims 3 --size 1024x1024x1024"; do
    name=${shape%%:*}; args=${shape#*:}
    for r in 1 4 16; do
        for mode in inproc ipc staged; do
            [ $(left) -lt 30 ] && { echo "stopped before $name R$r $mode"; break 3; }
            run $name $mode $args --radius $r
        done
    done
done
grep -h "^ranks\|^halo" $D/ipc_*.log $D/staged_*.log | sort | uniq -c | sort -rn | head -8 | cut -c1-260
at done
