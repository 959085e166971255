#!/usr/bin/env bash
# Call 5 (two GPUs): point stream/temporal compiled for the block (default) against generic (STENCILSCOPE_FIX_BLOCK=0),
# one lane per GPU at once; the point kernels' tests on the default first; the star-or-box recording last.
set -o pipefail
T0=$(date +%s)
source .device-rt/gpu-env.sh --no-x || exit 1
unxz_to() { tar xJf "$1" -C "$2" 2>/dev/null || python3 -c "import sys,tarfile; tarfile.open(sys.argv[1], 'r:xz').extractall(sys.argv[2])" "$1" "$2"; }
unxz_to .device-build/bin.txz .device-build
R=/tmp/res5; rm -rf $R; mkdir -p $R
trap 'tar czf $OUT/res5.tgz -C /tmp res5' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt
A=$PWD/.device-build/app/stencilscope-cli
benches() { # benches TAG
  $A bench --stencil box --radius 1 --size 16384x16384 --variant stream --cf 1,2,4 --steps 20 --repeats 5 --csv $R/ab_$1.csv
  $A bench --stencil box --radius 1 --dims 3 --size 512x512x512 --variant stream --cf 1,2 --steps 20 --repeats 5 --csv $R/ab_$1.csv
  for s in 2d5pt:8568x8568:fp32 2d9pt:8640x8640:fp32 2d25pt:8352x8352:fp32 2d5pt:8352x8352:fp64 3d7pt:768x288x2560:fp32 3d27pt:768x288x2560:fp32 3d7pt:384x288x2560:fp64; do
    IFS=: read -r st sz p <<<"$s"
    $A bench --stencil $st --size $sz --precision $p --variant temporal --steps 24 --repeats 3 --csv $R/ab_$1.csv
  done
}
(
  export CUDA_VISIBLE_DEVICES=0
  .device-build/tests/gpu_kernel_tests --gtest_filter='Point*:*Point*' > $R/point_tests.log 2>&1; echo "0 point tests rc $? $(grep -E '^\[  (PASSED|FAILED) ' $R/point_tests.log | tr '\n' ' ') at $(( $(date +%s) - T0 )) s"
  benches specialised 2>&1 | grep -E "^config|^rate|^kernel|refus|rror" > $R/specialised.txt; echo "0 benches at $(( $(date +%s) - T0 )) s"
) > $R/lane0.txt 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1
  STENCILSCOPE_FIX_BLOCK=0 benches generic 2>&1 | grep -E "^config|^rate|^kernel|refus|rror" > $R/generic.txt; echo "1 benches at $(( $(date +%s) - T0 )) s"
  $A run --stencil 2d25pt --size 2048x2048 --variant stream --cf 2 --steps 7 --verify > $R/verify.txt 2>&1
  $A run --stencil 3d27pt --size 256x256x256 --variant temporal --steps 6 --verify >> $R/verify.txt 2>&1; echo "1 verify rc $?"
) > $R/lane1.txt 2>&1 &
wait
LESSONS=star-or-box timeout 60 bash bench/record_lessons.sh $A $R/recorded_h100.json > $R/record.log 2>&1; echo "record rc $?"
cat $R/lane0.txt $R/lane1.txt; grep -E "verify|refus" $R/verify.txt
python3 - $R/ab_generic.csv $R/ab_specialised.csv <<'PY'
import csv, sys
g = list(csv.DictReader(open(sys.argv[1]))); s = list(csv.DictReader(open(sys.argv[2])))
for a, b in zip(g, s):
    print("%-8s %-4s %-14s %-8s CF%s depth %-2s generic %8.1f  specialised %8.1f  x%.2f  regs %s->%s" % (a["stencil_name"] or a["stencil"], a["precision"], a["nx"]+"x"+a["ny"]+"x"+a["nz"], a["variant"], a["cf"], a["depth"], float(a["gcells_per_s"] or 0), float(b["gcells_per_s"] or 0), float(b["gcells_per_s"] or 0)/max(float(a["gcells_per_s"] or 1e-9),1e-9), a["registers"], b["registers"]))
PY
tail -5 $R/record.log
