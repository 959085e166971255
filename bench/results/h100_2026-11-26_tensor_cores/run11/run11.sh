#!/bin/bash
# Device run 11: the tensor-core threshold - forward kernel against tensor cores at R10 and R14 (fp64 1024^3).
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
STENCILSCOPE_STREAM_TC=0 $CLI bench --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 10,12,14,16 --cf 1,2,4 $K --csv $OUT/r/tc_off.csv > /dev/null 2>$OUT/r/err.txt
STENCILSCOPE_STREAM_TC=1 $CLI bench --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 10,12,14,16 --cf 1 $K --csv $OUT/r/tc_on.csv > /dev/null 2>>$OUT/r/err.txt
python3 - $OUT/r/tc_off.csv $OUT/r/tc_on.csv <<'PY' | tee $OUT/r/table.txt
import csv,sys
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        print(f"{f.split('/')[-1]:10s} R{r['radius']:>2} CF{r['cf']} {r['block_x']+'x'+r['block_y']:6s} {float(r['gcells_per_s']):7.1f} {float(r['pct_of_roofline']):5.1f} % regs {r['registers']}")
PY
cd $OUT && tar czf r.tgz r && rm -rf r
