#!/usr/bin/env bash
# Session 30, call 4 (two GPUs of one host): the staged path in pipelined pieces (STENCILSCOPE_MPI_STAGE_CHUNK_KIB)
# against the whole halo at once (0), ranks staging through host memory (STENCILSCOPE_MPI_PEER_COPIES=0, the
# machine's MPI, not CUDA-aware), beside one process; then the GPU MPI test whole (pieces bitwise).
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-500}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r4; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
source tmp-device/s30/mpi_env.sh
A=$PWD/.device-build/app/stencilscope-cli
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
run() { # NAME MODE ARGS...: inproc, or staged pieces of MODE KiB
    local name=$1 mode=$2; shift 2
    if [ $mode = inproc ]; then
        timeout 100 $A bench $common "$@" --gpus 2 --csv $D/inproc_$name.csv >> $D/inproc_$name.log 2>&1
    else
        STENCILSCOPE_MPI_PEER_COPIES=0 STENCILSCOPE_MPI_STAGE_CHUNK_KIB=$mode timeout 100 mpirun -np 2 \
            -x STENCILSCOPE_MPI_PEER_COPIES -x STENCILSCOPE_MPI_STAGE_CHUNK_KIB $A bench $common "$@" \
            --csv $D/staged${mode}_$name.csv >> $D/staged${mode}_$name.log 2>&1
    fi
    echo "$name $mode $*: rc $? $(grep -E '^rate' $D/*${mode}_$name.log | tail -1 | awk '{print $2}') $(grep -E '^halo' $D/*${mode}_$name.log | tail -1 | cut -c1-80)"
}
for shape in "3d512:--dims 3 --size 512x512x512:1 4 16" "3d1024:--dims 3 --size 1024x1024x1024:4" "2d32k:--size 32768x32768 --cf 2:16"; do
    name=${shape%%:*}; rest=${shape#*:}; args=${rest%%:*}; radii=${rest#*:}
    for r in $radii; do
        for mode in inproc 0 1024 256 4096; do
            [ $(left) -lt 280 ] && { echo "stopped before $name R$r $mode"; break 3; }
            run $name $mode $args --radius $r
        done
    done
done
grep -h "^ranks" $D/staged*.log | sort | uniq -c | cut -c1-250 | head -8
at "bench done"
timeout $(( $(left) - 5 )) bash tests/mpi/mpi_cli_test.sh $A cuda > $D/mpi_cli.log 2>&1; at "mpi cli rc $?"
grep -E "^FAIL|all passed|failed" $D/mpi_cli.log | cut -c1-300 | head -8; grep -c "^ok" $D/mpi_cli.log
