#!/usr/bin/env bash
# Issue 38: the window's headline (kernel GCells/s, GPU-timed) in the first second, against bench, five runs each,
# counters on: the temporal lesson (8352² R1 depth 9, 18 steps per frame) and 4096² R4.
set -o pipefail
source .device-rt/gpu-env.sh || exit 1
G=.device-build/app/gui/stencilscope A=.device-build/app/stencilscope-cli
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
lesson="--size 8352x8352 --radius 1 --variant temporal --depth 9 --rule jacobi"
r4="--size 4096x4096 --radius 4 --rule jacobi"
for name in lesson r4; do
  opts=${!name}
  $A bench $opts --steps 36 --repeats 5 --warmup 1 2>&1 | grep -E "^rate|^time|^kernel" | sed "s/^/$name bench: /"
  spf=""; [ $name = lesson ] && spf="--steps-per-frame 18"
  for i in 1 2 3 4 5; do
    $G $opts $spf --metrics on --benchmark-seconds 1 2>$OUT/err_${name}_$i.txt | grep -E "kernel GCells|^GCells" | tr '\n' ' ' | sed "s/^/$name window run $i (1 s, counters on): /"; echo
  done
  for i in 1 2; do
    $G $opts $spf --metrics off --benchmark-seconds 1 2>/dev/null | grep -E "kernel GCells" | sed "s/^/$name window run $i (1 s, counters off): /"
  done
done | tee $OUT/headline.txt
tar xzf .device-build/gpu-tests.tgz -C .device-build
ctest --test-dir .device-build -R "gpu_kernel|gpu_multi|gpu_split|gpu_profiler|gpu_cli_verify" --output-on-failure > $OUT/ctest.log 2>&1; echo "ctest rc $?"; grep -E "Test #|tests passed" $OUT/ctest.log
