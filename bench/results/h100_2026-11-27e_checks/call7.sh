#!/usr/bin/env bash
# Session 29, call 7 (one H100): --variant auto with the point stream kernel's CF 2 and 4 among its candidates.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r7; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r7.tgz -C /tmp r7' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader
A=.device-build/app/stencilscope-cli
for c in "3d27pt fp32 384x288x2560" "poisson fp32 384x288x2560" "3d17pt fp32 384x288x2560" "3d13pt fp64 384x288x2560" "2d25pt fp32 8352x8352" "2d49pt fp64 9000x9000"; do
  set -- $c
  timeout 60 $A bench --stencil $1 --precision $2 --size $3 --variant auto --steps 24 --warmup 1 --repeats 3 --csv $R/auto.csv > $R/auto_$1_$2.txt 2>&1
  echo "$1 $2 $3: $(grep -E '^rate' $R/auto_$1_$2.txt | head -1) | $(grep -iE 'chose|auto' $R/auto_$1_$2.txt | head -1 | cut -c1-160)"
done
