#!/usr/bin/env bash
# Session 33, call 4 (two GPUs of one host): temporal strips with the trade overlapped (the G rows each neighbour
# needs launched first): the temporal strip GPU tests (bitwise one GPU), then one GPU against two with overlap on
# and off, 240 steps, and checksums.
set -o pipefail
T0=$(date +%s)
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r4; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r4.tgz -C /tmp r4' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
A=$PWD/.device-build/app/stencilscope-cli
timeout 200 .device-build/tests/gpu_multi_tests --gtest_filter='TemporalStrips.*' > $D/temporal_strips_tests.log 2>&1; at "temporal strip tests rc $?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $D/temporal_strips_tests.log | head -6
for shape in "2d:--size 12000x9000" "3d:--dims 3 --size 640x480x1200"; do
    name=${shape%%:*} args=${shape#*:}
    for run in "1:--gpus 1" "2on:--gpus 2 --overlap on" "2off:--gpus 2 --overlap off"; do
        tag=${run%%:*} flags=${run#*:}
        timeout 40 $A bench --backend cuda --variant temporal $args $flags --steps 240 --repeats 5 --warmup 1 > $D/temporal_${name}_$tag.log 2>&1
        echo "temporal $name $flags: $(grep -E '^rate' $D/temporal_${name}_$tag.log | cut -c1-30)"
    done
done | tee $D/temporal_two.txt
grep -h "^strips\|^  strip" $D/temporal_*_2on.log | cut -c1-200
for steps in 240 241; do for g in 1 2; do
    echo "2D steps $steps gpus $g: $(timeout 20 $A run --backend cuda --variant temporal --size 12000x9000 --gpus $g --steps $steps --checksum 2>&1 | grep -E '^checksum')"
    echo "3D steps $steps gpus $g: $(timeout 20 $A run --backend cuda --variant temporal --dims 3 --size 640x480x1200 --gpus $g --steps $steps --checksum 2>&1 | grep -E '^checksum')"
done; done | tee -a $D/temporal_two.txt
at done
