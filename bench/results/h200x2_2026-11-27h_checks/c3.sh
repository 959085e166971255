#!/usr/bin/env bash
# Session 33, call 3 (two GPUs of one host): the temporal variant on one GPU and two with the whole-wave grid and
# without (the build before it), 240 steps, strip lines kept (issue 35); the grids' device-buffer path under a
# CUDA-aware Open MPI timed beside peer copies and one process (issue 37).
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-400}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r3; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
tar xJf tmp-device/s33/old-cli.txz -C /tmp
NEW=$PWD/.device-build/app/stencilscope-cli OLD=/tmp/old/stencilscope-cli
for shape in "2d:--size 12000x9000" "3d:--dims 3 --size 640x480x1200"; do
    name=${shape%%:*} args=${shape#*:}
    for b in OLD NEW; do for g in 1 2; do
        timeout 40 ${!b} bench --backend cuda --variant temporal $args --gpus $g --steps 240 --repeats 5 --warmup 1 > $D/temporal_${name}_${b}_$g.log 2>&1
        echo "temporal $name $b gpus $g: $(grep -E '^rate' $D/temporal_${name}_${b}_$g.log | cut -c1-30) | $(grep -E '^block' $D/temporal_${name}_${b}_$g.log | grep -o '[0-9]* blocks')"
    done; done
done | tee $D/temporal_two.txt
grep -h "^  strip\|^strips" $D/temporal_2d_*_2.log | cut -c1-200
for g in 1 2; do timeout 20 $NEW run --backend cuda --variant temporal --size 12000x9000 --gpus $g --steps 240 --checksum 2>&1 | grep -E "^checksum"; done | tee -a $D/temporal_two.txt
at "temporal done"
mkdir -p /opt && tar xJf tmp-device/s33/ompi-cuda.txz -C /opt
export OPAL_PREFIX=/opt/ompi-cuda PATH=/opt/ompi-cuda/bin:$PATH LD_LIBRARY_PATH=/opt/ompi-cuda/lib:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,smcuda,vader OMPI_MCA_pml=ob1 OMPI_MCA_rmaps_base_oversubscribe=1
(command -v mpirun; mpirun --version | head -1; ompi_info --parsable --all | grep mpi_built_with_cuda_support:value) > $D/cuda_aware_which.txt 2>&1
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
b() { local name=$1; shift; timeout 60 "$@" > $D/$name.log 2>&1
    echo "$name: rc $? $(grep -E '^rate' $D/$name.log | tail -1 | cut -c1-40) | $(grep -E '^  rank' $D/$name.log | head -2 | grep -o 'exchange [0-9.]* ms' | tr '\n' ' ')"; }
for shape in "3d512r1:--dims 3 --size 512x512x512 --radius 1:1x1x2" "3d512r4:--dims 3 --size 512x512x512 --radius 4:1x1x2" \
    "3d512r16:--dims 3 --size 512x512x512 --radius 16:1x1x2" "3d1024r4:--dims 3 --size 1024x1024x1024 --radius 4:1x1x2" \
    "2d32kr4:--size 32768x32768 --cf 2 --radius 4:1x2"; do
    name=${shape%%:*} rest=${shape#*:}; args=${rest%%:*} grid=${rest#*:}
    [ $(left) -lt 40 ] && { echo "stopped before $name"; break; }
    b ${name}_inproc $NEW bench $common $args --gpus 2
    b ${name}_grid_device mpirun -np 2 -x STENCILSCOPE_MPI_PEER_COPIES=0 $NEW bench $common $args --ranks $grid
    b ${name}_grid_peer mpirun -np 2 $NEW bench $common $args --ranks $grid
done
grep -h "^ranks" $D/3d512r4_grid_device.log | cut -c1-300
at done
