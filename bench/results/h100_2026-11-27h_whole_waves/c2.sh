#!/usr/bin/env bash
# Session 33, call 2 (one H100): the temporal grid in whole waves (temporal_chunks) against the build before it, on
# EBISU's twenty cases with the temporal defaults, same device run; the temporal and point kernels' GPU tests; then
# --variant auto on the 2D cases with the new build.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r2; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
mkdir -p /tmp/old && tar xJf tmp-device/s33/old-cli.txz -C /tmp && cp .device-build/app/*.so* /tmp/old/ 2>/dev/null
NEW=.device-build/app/stencilscope-cli OLD=/tmp/old/stencilscope-cli
timeout 170 .device-build/tests/gpu_kernel_tests --gtest_filter='TemporalKernel.*:PointKernels.*' > $D/kernel_tests.log 2>&1; at "temporal+point kernel tests rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran" $D/kernel_tests.log | head -5
size_of() { case "$1:$2" in
    2d5pt:fp32) echo 8568x8568 ;;  2d5pt:fp64) echo 8352x8352 ;; 2ds9pt:*) echo 8064x8064 ;;
    2d9pt:fp32) echo 8640x8640 ;;  2d9pt:fp64) echo 8784x8784 ;; 2d25pt:fp32) echo 8352x8352 ;;
    2d25pt:fp64) echo 8640x8640 ;; 2d49pt:*) echo 9000x9000 ;; *) echo 384x288x2560 ;; esac; }
rate() { grep -E '^rate' $1 | head -1 | awk '{print $2}'; }
blocks() { grep -E '^block' $1 | head -1 | grep -o '[0-9]* blocks'; }
for s in 2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt 3d7pt 3d13pt 3d27pt 3d17pt poisson; do for p in fp32 fp64; do
    [ $(left) -lt 120 ] && { echo "stopped before $s $p"; break 2; }
    for b in OLD NEW; do
        timeout 40 ${!b} bench --stencil $s --precision $p --size $(size_of $s $p) --variant temporal --steps 24 --warmup 1 --repeats 3 --csv $D/temporal_$b.csv > $D/t_${b}_${s}_$p.txt 2>&1
    done
    echo "$s $p temporal defaults: old $(rate $D/t_OLD_${s}_$p.txt) ($(blocks $D/t_OLD_${s}_$p.txt)), new $(rate $D/t_NEW_${s}_$p.txt) ($(blocks $D/t_NEW_${s}_$p.txt)) $(grep -E '^config' $D/t_NEW_${s}_$p.txt | grep -o 'depth [0-9]*')"
done; done | tee $D/temporal_old_new.txt
at "temporal done"
for s in 2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt; do for p in fp32 fp64; do
    [ $(left) -lt 15 ] && { echo "stopped before auto $s $p"; break 2; }
    timeout 45 $NEW bench --stencil $s --precision $p --size $(size_of $s $p) --variant auto --steps 24 --warmup 1 --repeats 3 --csv $D/auto.csv > $D/auto_${s}_$p.txt 2>&1
    echo "$s $p: auto $(rate $D/auto_${s}_$p.txt) ($(grep -E '^chosen' $D/auto_${s}_$p.txt | head -1 | cut -c10-110))"
done; done | tee $D/auto.txt
at done
