#!/usr/bin/env bash
# Session 33, call 1 (two GPUs of one host), most needed first: the GPU MPI test over both GPUs (the review mends of
# b9965cb: strips and grids by peer copies, staged); the grids' device-buffer path under a CUDA-aware Open MPI
# (bitwise one process, then timed); the temporal variant on one GPU and two (issue 35); the staged path with Open
# MPI's CMA single copy; the 2D grids with overlap on and off, and 4 ranks on 2 GPUs (2x2 against 1x4 and 4x1).
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-575}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r1; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r1.tgz -C /tmp r1' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
(date -u; nvidia-smi topo -m) > $D/topology.txt 2>&1
A=$PWD/.device-build/app/stencilscope-cli
common="--backend cuda --precision fp32 --variant stream --repeats 3 --warmup 1 --steps 10"
(
    source tmp-device/s33/mpi_env.sh; (command -v mpirun; mpirun --version | head -1) > $D/mpi_version.txt
    timeout ${MPI_TEST_S:-280} bash tests/mpi/mpi_cli_test.sh $A cuda > $D/mpi_cli.log 2>&1; at "mpi cli (two GPUs) rc $?"
    grep -E "^FAIL|passed|failed" $D/mpi_cli.log | cut -c1-300 | head -8
)
(
    # A CUDA-aware Open MPI: its own mpirun and libraries, smcuda for device buffers; peer copies off = MPI's device path.
    mkdir -p /opt && tar xJf tmp-device/s33/ompi-cuda.txz -C /opt || exit 0
    export OPAL_PREFIX=/opt/ompi-cuda PATH=/opt/ompi-cuda/bin:$PATH LD_LIBRARY_PATH=/opt/ompi-cuda/lib:${LD_LIBRARY_PATH:-}
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,smcuda,vader OMPI_MCA_pml=ob1 OMPI_MCA_rmaps_base_oversubscribe=1
    (command -v mpirun; mpirun --version | head -1; ompi_info --parsable --all | grep mpi_built_with_cuda_support:value) > $D/cuda_aware_which.txt 2>&1
    tail -1 $D/cuda_aware_which.txt
    pass=0 fail=0
    for entry in "--size 90x77 --radius 2 --steps 6:2x1 1x2 2x2" "--stencil box --radius 2 --size 45x38 --steps 5:2x2" \
        "--stencil 3d27pt --size 30x28x33 --precision fp64 --steps 5:1x1x2 2x1x1 1x2x2" "--dims 3 --size 26x24x29 --radius 2 --rule wave --steps 4:2x1x2"; do
        c=${entry%%:*}; one=$($A run --backend cuda $c --checksum 2>&1 | grep -o '^checksum [0-9a-f]*')
        for grid in ${entry#*:}; do n=$(($(tr x '*' <<<"$grid"))); for ov in on off; do
            out=$(timeout 60 mpirun -np $n -x STENCILSCOPE_MPI_PEER_COPIES=0 $A run --backend cuda $c --ranks $grid --overlap $ov --checksum 2>&1)
            if [ -n "$one" ] && [ "$(grep -o '^checksum [0-9a-f]*' <<<"$out")" = "$one" ] && grep -q "halo MPI device buffers (faces packed on the GPU; CUDA-aware MPI)" <<<"$out"; then
                pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL device path $grid $ov: $c"; echo "$out" | head -5 | cut -c1-250; fi
        done; done
    done > $D/device_path_checks.txt 2>&1; head -12 $D/device_path_checks.txt
    echo "device-buffer grids: $pass passed, $fail failed (one-process $one)" | tee -a $D/device_path_checks.txt
    at "device checks done"
    b() { local name=$1 np=$2; shift 2; timeout 60 mpirun -np $np "$@" > $D/$name.log 2>&1
        echo "$name: rc $? $(grep -E '^rate' $D/$name.log | tail -1 | cut -c1-40) | $(grep -E '^  rank' $D/$name.log | head -2 | grep -o 'exchange [0-9.]* ms' | tr '\n' ' ')"; }
    for r in 1 4 16; do [ $(left) -lt 300 ] && break; b ca_dev_3d512_r$r 2 -x STENCILSCOPE_MPI_PEER_COPIES=0 $A bench $common --dims 3 --size 512x512x512 --radius $r --ranks 1x1x2; done
    [ $(left) -gt 290 ] && b ca_dev_3d1024_r4 2 -x STENCILSCOPE_MPI_PEER_COPIES=0 $A bench $common --dims 3 --size 1024x1024x1024 --radius 4 --ranks 1x1x2
    [ $(left) -gt 280 ] && b ca_dev_2d_r4 2 -x STENCILSCOPE_MPI_PEER_COPIES=0 $A bench $common --size 32768x32768 --cf 2 --radius 4 --ranks 1x2
    [ $(left) -gt 270 ] && b ca_peer_3d512_r4 2 $A bench $common --dims 3 --size 512x512x512 --radius 4 --ranks 1x1x2
    grep -h "^ranks" $D/ca_dev_3d512_r4.log | cut -c1-300
)
timeout 60 $A bench $common --dims 3 --size 512x512x512 --radius 4 --gpus 2 > $D/inproc_3d512_r4.log 2>&1; grep -E '^rate' $D/inproc_3d512_r4.log
# Issue 35: the temporal variant on one GPU and two (strips, defaults), short and long runs, and bitwise.
for steps in 24 240; do
    for shape in "--size 12000x9000" "--dims 3 --size 640x480x1200"; do
        for g in 1 2; do
            timeout 40 $A bench --backend cuda --variant temporal $shape --gpus $g --steps $steps --repeats 5 --warmup 1 > $D/temporal_${g}_$steps.log 2>&1
            echo "temporal $shape gpus $g steps $steps: $(grep -E '^rate' $D/temporal_${g}_$steps.log | cut -c1-30)"
        done
    done
done | tee $D/temporal_two.txt
for g in 1 2; do timeout 20 $A run --backend cuda --variant temporal --size 12000x9000 --gpus $g --steps 240 --checksum 2>&1 | grep -E "^checksum"; done | tee -a $D/temporal_two.txt
at "temporal done"
(
    source tmp-device/s33/mpi_env.sh
    b() { local name=$1 np=$2; shift 2; timeout 60 mpirun -np $np "$@" > $D/$name.log 2>&1
        echo "$name: rc $? $(grep -E '^rate' $D/$name.log | tail -1 | cut -c1-40) | $(grep -E '^  rank' $D/$name.log | head -4 | grep -o 'exchange [0-9.]* ms' | tr '\n' ' ')"; }
    # The staged path with Open MPI's shared memory as set up, then with its single-copy mechanism CMA asked for.
    for r in 4 16; do [ $(left) -lt 130 ] && break
        b staged_3d512_r$r 2 -x STENCILSCOPE_MPI_PEER_COPIES=0 $A bench $common --dims 3 --size 512x512x512 --radius $r
        b staged_cma_3d512_r$r 2 --mca btl_vader_single_copy_mechanism cma -x STENCILSCOPE_MPI_PEER_COPIES=0 $A bench $common --dims 3 --size 512x512x512 --radius $r
    done
    grep -h -i "single.copy\|cma\|process_vm" $D/staged_cma_*.log | head -3
    two="--size 32768x32768 --cf 2 --radius 4"
    timeout 60 $A bench $common $two --gpus 2 > $D/2d_inproc2.log 2>&1; grep -E '^rate' $D/2d_inproc2.log
    for g in 2x2 1x4 4x1; do for ov in on off; do [ $(left) -lt 20 ] && break 2; b 2d4_${g}_$ov 4 $A bench $common $two --ranks $g --overlap $ov; done; done
    for g in 1x2 2x1; do for ov in on off; do [ $(left) -lt 15 ] && break 2; b 2d_${g}_$ov 2 $A bench $common $two --ranks $g --overlap $ov; done; done
    grep -h "^ranks\|^  rank" $D/2d4_2x2_on.log $D/2d4_1x4_on.log 2>/dev/null | cut -c1-240
)
at done
