#!/usr/bin/env bash
# EBISU's ten beside EBISU, the stencils spread over four GPUs (each lane its own stencils); one tar back.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
unxz_to() { tar xJf "$1" -C "$2" 2>/dev/null || python3 -c "import sys,tarfile; tarfile.open(sys.argv[1], 'r:xz').extractall(sys.argv[2])" "$1" "$2"; }
[ -x .device-build/app/stencilscope-cli ] || unxz_to .device-build/bin.txz .device-build
[ -x /tmp/ebisu_bin/2d5pt_ebisu.exe ] || unxz_to tmp-device/s27/ebisu.txz /tmp
A=$PWD/.device-build/app/stencilscope-cli
R=/tmp/res2; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $R/device.txt
lanes=("2d5pt 3d27pt poisson" "2ds9pt 2d49pt 3d7pt" "2d9pt 3d13pt" "2d25pt 3d17pt")
for i in 0 1 2 3; do
  ( CUDA_VISIBLE_DEVICES=$i ONLY="${lanes[$i]}" EBISU_BIN=/tmp/ebisu_bin timeout 540 bash bench/ebisu_suite.sh $A $R/lane$i 3 > $R/lane$i.txt 2>&1; echo "lane $i rc $?" >> $R/lane$i.txt ) &
done
wait
head -1 $R/lane0/ebisu_suite.csv > $R/ebisu_suite.csv; for i in 0 1 2 3; do tail -n +2 $R/lane$i/ebisu_suite.csv >> $R/ebisu_suite.csv; cat $R/lane$i/ebisu.tsv >> $R/ebisu.tsv; done
cp $R/lane0/roofline.jsonl $R/
python3 bench/ebisu_table.py $R/ebisu_suite.csv $R/roofline.jsonl $R/ebisu.tsv | tee $R/table.md
tail -2 $R/lane*.txt
tar czf $OUT/res2.tgz -C /tmp res2
