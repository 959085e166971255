#!/usr/bin/env bash
# Session 29, call 6 (one H100): issue 35's side-by-side on the H100, EBISU's own binaries (built outside this
# repository, tmp-device/s27) beside ours (temporal with its defaults, --variant auto, one single-step row).
# PART=2d: the five 2D stencils; PART=3d: the five 3D ones with EBISU's 3D binaries rebuilt without a build type.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
R=/tmp/r6$PART; rm -rf $R; mkdir -p $R; trap 'tar czf $OUT/r6$PART.tgz -C /tmp r6$PART' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt; cat $R/device.txt
A=$PWD/.device-build/app/stencilscope-cli
if [ "$PART" = 2d ]; then
  tar xJf tmp-device/s27/ebisu.txz -C /tmp; BIN=/tmp/ebisu_bin; list="2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt"
else
  tar xJf tmp-device/s27/ebisu3d_norel.txz -C /tmp; BIN=/tmp/ebisu3d_norel; list=${LIST:-"3d7pt 3d13pt 3d27pt 3d17pt poisson"}
fi
for s in $list; do
  [ $(left) -lt 60 ] && { echo "stopped before $s"; break; }
  ONLY=$s EBISU_BIN=$BIN EBISU_TIMEOUT=30 SINGLE_VARIANTS=stream SINGLE_CFS=2 timeout $(( $(left) - 10 )) bash bench/ebisu_suite.sh $A $R/suite 3 > $R/suite_$s.txt 2>&1
  echo "$s at $(( $(date +%s) - T0 )) s"
done
python3 bench/ebisu_table.py $R/suite/ebisu_suite.csv $R/suite/roofline.jsonl $R/suite/ebisu.tsv 2>&1 | tail -12
grep -A3 "^== " $R/suite/ebisu.log | grep -vE "^[0-9]+[[:space:]]" | head -30
