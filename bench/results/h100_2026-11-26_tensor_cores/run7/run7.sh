#!/bin/bash
# Device run 7: the final build - gpu tests, the 3D grid (fp32 and fp64 in one process per size), R1 verify.
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
for p in fp32 fp64; do for cf in 1 2 4 8; do
  o=$($CLI run --dims 3 --size 150x133x70 --radius 1 --variant stream --cf $cf --precision $p --steps 3 --verify 2>&1)
  echo "R1 $p CF$cf rc=$? $(echo "$o" | grep -E '^(block|verify)' | tr '\n' ' ')"
done; done > $OUT/r/verify_r1.txt
grep -c PASS $OUT/r/verify_r1.txt
$CLI bench --dims 3 --size 1024x1024x1024 --precision fp32,fp64 --variant base,smem,stream --radius 1,4,16 --cf 1,2,4 $K --csv $OUT/r/grid3d_1024.csv > /dev/null 2>$OUT/r/err.txt
$CLI bench --dims 3 --size 512x512x512 --precision fp32,fp64 --variant base,smem,stream --radius 1,4,16 --cf 1,2,4 $K --csv $OUT/r/grid3d_512.csv > /dev/null 2>>$OUT/r/err.txt
python3 - $OUT/r/grid3d_*.csv <<'PY' | tee $OUT/r/best.txt
import csv,sys
best={}
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        k=(int(r['nx']),int(r['radius']),r['precision']); p=float(r['pct_of_roofline'] or 0)
        if p>best.get(k,(0,))[0]: best[k]=(round(p,1),r['variant'],'CF'+r['cf'],r['block_x']+'x'+r['block_y']+'x'+r['block_z'],r['gcells_per_s'])
for k in sorted(best): print(k, best[k])
PY
cd .device-build && timeout 330 ctest -L gpu --output-on-failure --timeout 320 > $OUT/r/ctest_gpu.log 2>&1; echo "ctest rc=$?"
grep -E "tests passed|Passed|Failed|FAILED" $OUT/r/ctest_gpu.log | tail -12
cd $OUT && tar czf r.tgz r && rm -rf r
