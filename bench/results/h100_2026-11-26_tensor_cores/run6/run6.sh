#!/bin/bash
# Device run 6: gpu tests with the tensor-core default, sanitizer, and the R1 gathering kernel's blocks (fp32, fp64).
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
for s in 1024x1024x1024 512x512x512; do
$CLI bench --dims 3 --size $s --radius 1 --precision fp32,fp64 --variant stream --cf 1,2,4 --block 32x8,64x8,128x4,128x2 $K --csv $OUT/r/r1_blocks_${s%%x*}.csv > /dev/null 2>>$OUT/r/err.txt
done
python3 - $OUT/r/r1_blocks_*.csv <<'PY' | tee $OUT/r/r1_table.txt
import csv,sys
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        print(f"{r['nx']} {r['precision']} CF{r['cf']} {r['block_x']+'x'+r['block_y']:6s} {float(r['gcells_per_s']):7.1f} {float(r['pct_of_roofline']):5.1f} % regs {r['registers']}")
PY
STENCILSCOPE_STREAM_TC= timeout 100 scripts/sanitize-kernels.sh --tools memcheck,racecheck,synccheck --filter '3D R16 stream CF1 fp64' --logs $OUT/r/san $CLI > $OUT/r/sanitize_tc.log 2>&1
tail -2 $OUT/r/sanitize_tc.log
cd .device-build && timeout 400 ctest -L gpu --output-on-failure --timeout 390 > $OUT/r/ctest_gpu.log 2>&1; echo "ctest rc=$?"
tail -15 $OUT/r/ctest_gpu.log
cd $OUT && tar czf r.tgz r && rm -rf r
