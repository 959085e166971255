#!/usr/bin/env bash
# Session 30, call 2 (two GPUs of one host): the GPU MPI test in full (peer copies and staged bitwise, profile
# --continuous under mpirun, the refusals and silent ranks the first call's limit cut), the autotune GPU tests, and
# the paths under a CUDA-aware Open MPI (4.1.4 built with --with-cuda here, bench/build_cuda_aware_openmpi.sh):
# peer copies (the default) and MPI's own device-buffer path (STENCILSCOPE_MPI_PEER_COPIES=0), beside one process.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r2; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
A=$PWD/.device-build/app/stencilscope-cli
(
    source tmp-device/s30/mpi_env.sh
    (command -v mpirun; mpirun --version | head -1; ldd .device-build/app/stencilscope-cli-mpi | grep -E "libmpi|open-pal") > $D/mpi_which.txt 2>&1
    timeout 300 bash tests/mpi/mpi_cli_test.sh $A cuda > $D/mpi_cli.log 2>&1; at "mpi cli rc $?"
    grep -E "^FAIL|all passed|failed" $D/mpi_cli.log | cut -c1-300 | head -8
    grep -A4 "continuous" $D/mpi_cli.log | head -3 | cut -c1-200
)
CUDA_VISIBLE_DEVICES=0 timeout 80 .device-build/tests/gpu_autotune_tests > $D/autotune_tests.log 2>&1; at "autotune tests rc $?"
grep -E "^\[  (PASSED|FAILED) " $D/autotune_tests.log | head -3
# A CUDA-aware Open MPI: its own mpirun and libraries, smcuda for device buffers.
mkdir -p /opt && tar xJf tmp-device/s30/ompi-cuda.txz -C /opt
export OPAL_PREFIX=/opt/ompi-cuda PATH=/opt/ompi-cuda/bin:$PATH LD_LIBRARY_PATH=/opt/ompi-cuda/lib:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,smcuda,vader OMPI_MCA_pml=ob1
(command -v mpirun; mpirun --version | head -1; ldd .device-build/app/stencilscope-cli-mpi | grep -E "libmpi|open-pal"; ompi_info --parsable --all | grep mpi_built_with_cuda_support:value) > $D/cuda_aware_which.txt 2>&1
cat $D/cuda_aware_which.txt | tail -2
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
run() { # NAME MODE ARGS...
    local name=$1 mode=$2; shift 2
    case $mode in
    inproc) timeout 100 $A bench $common "$@" --gpus 2 --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    peer) timeout 100 mpirun -np 2 $A bench $common "$@" --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    device) timeout 100 mpirun -np 2 -x STENCILSCOPE_MPI_PEER_COPIES=0 $A bench $common "$@" --csv $D/${mode}_$name.csv >> $D/${mode}_$name.log 2>&1 ;;
    esac
    echo "$name $mode $*: rc $? $(grep -E '^rate' $D/${mode}_$name.log | tail -1 | cut -c1-40)"
}
for shape in "3d512:--dims 3 --size 512x512x512:1 4 16" "3d1024:--dims 3 --size 1024x1024x1024:4" "2d32k:--size 32768x32768 --cf 2:4"; do
    name=${shape%%:*}; rest=${shape#*:}; args=${rest%%:*}; radii=${rest#*:}
    for r in $radii; do
        for mode in inproc peer device; do
            [ $(left) -lt 25 ] && { echo "stopped before $name R$r $mode"; break 3; }
            run $name $mode $args --radius $r
        done
    done
done
grep -h "^ranks" $D/peer_*.log $D/device_*.log | sort | uniq -c | cut -c1-220 | head -6
at done
