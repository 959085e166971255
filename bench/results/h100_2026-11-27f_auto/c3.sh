#!/usr/bin/env bash
# Session 30, call 3 (one H100): issue 35's --variant auto on all twenty of EBISU's cases with the point stream kernel
# at CF 8 among its candidates in 2D and now 3D (EBISU's sizes; 3D fp32 at 384x288x2560, where its fp32 3D binaries
# run), and the 3D point stream kernel at CF 8 timed alone.
T0=$(date +%s)
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r3; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
A=.device-build/app/stencilscope-cli
size_of() { case "$1:$2" in
    2d5pt:fp32) echo 8568x8568 ;;  2d5pt:fp64) echo 8352x8352 ;; 2ds9pt:*) echo 8064x8064 ;;
    2d9pt:fp32) echo 8640x8640 ;;  2d9pt:fp64) echo 8784x8784 ;; 2d25pt:fp32) echo 8352x8352 ;;
    2d25pt:fp64) echo 8640x8640 ;; 2d49pt:*) echo 9000x9000 ;; *) echo 384x288x2560 ;; esac; }
for s in 3d7pt 3d13pt 3d27pt 3d17pt poisson 2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt; do for p in fp32 fp64; do
  [ $(( $(date +%s) - T0 )) -gt ${BUDGET:-420} ] && { echo "stopped before $s $p"; break 2; }
  timeout 45 $A bench --stencil $s --precision $p --size $(size_of $s $p) --variant auto --steps 24 --warmup 1 --repeats 3 --csv $D/auto.csv > $D/auto_${s}_$p.txt 2>&1
  line="$s $p: auto $(grep -E '^rate' $D/auto_${s}_$p.txt | head -1 | awk '{print $2}') ($(grep -E '^chosen' $D/auto_${s}_$p.txt | head -1 | cut -c10-120))"
  if [[ $s == 3d* || $s == poisson ]]; then
    timeout 30 $A bench --stencil $s --precision $p --size $(size_of $s $p) --variant stream --cf 8 --steps 24 --warmup 1 --repeats 3 --csv $D/stream_cf8.csv > $D/cf8_${s}_$p.txt 2>&1
    line="$line; stream CF 8 $(grep -E '^rate' $D/cf8_${s}_$p.txt | head -1 | awk '{print $2}')"
  fi
  echo "$line"
done; done
echo "done at $(( $(date +%s) - T0 )) s"
