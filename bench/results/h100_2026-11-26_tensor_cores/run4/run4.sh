#!/bin/bash
# Device run 4: the tensor-core default (fp64 stream CF 1, even R >= 12) - correctness, the 3D grid at 1024^3 and 512^3.
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
{
for r in 12 14 16; do for rule in thesis jacobi wave; do for size in 150x133x70 77x61x45; do
  o=$($CLI run --dims 3 --size $size --radius $r --variant stream --cf 1 --precision fp64 --rule $rule --steps 3 --verify 2>&1)
  echo "R$r $rule $size rc=$? $(echo "$o" | grep -E '^(block|kernel|verify)' | tr '\n' ' ')"
done; done; done
for r in 2 4 6 8 10; do for rule in thesis wave; do
  o=$(STENCILSCOPE_STREAM_TC=1 $CLI run --dims 3 --size 77x61x45 --radius $r --variant stream --cf 1 --precision fp64 --rule $rule --steps 3 --verify 2>&1)
  echo "TC=1 R$r $rule rc=$? $(echo "$o" | grep -E '^(block|kernel|verify)' | tr '\n' ' ')"
done; done
for b in 8x32 16x16 8x16 64x4 16x24; do
  o=$($CLI run --dims 3 --size 150x133x70 --radius 16 --variant stream --cf 1 --precision fp64 --block $b --steps 3 --verify 2>&1)
  echo "R16 block $b rc=$? $(echo "$o" | grep -E '^(block|kernel|verify)' | tr '\n' ' ')"
done
} > $OUT/r/correct.txt 2>&1
echo "correct: $(grep -c PASS $OUT/r/correct.txt) PASS of $(wc -l < $OUT/r/correct.txt)"; grep -v PASS $OUT/r/correct.txt | head
# the 3D grid, fp32 and fp64 in one process each size: best of base, smem and stream over CF
$CLI bench --dims 3 --size 1024x1024x1024 --precision fp32,fp64 --variant base,smem,stream --radius 1,4,16 --cf 1,2,4 $K --csv $OUT/r/grid3d_1024.csv > /dev/null 2>$OUT/r/err.txt
$CLI bench --dims 3 --size 512x512x512 --precision fp32,fp64 --variant base,smem,stream --radius 16 --cf 1,2,4 $K --csv $OUT/r/grid3d_512_r16.csv > /dev/null 2>>$OUT/r/err.txt
# tensor cores off (the forward kernel) at R12 and R16 CF 1, for the default's threshold
STENCILSCOPE_STREAM_TC=0 $CLI bench --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 12,16 --cf 1,2 $K --csv $OUT/r/tc_off.csv > /dev/null 2>>$OUT/r/err.txt
$CLI bench --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 12,14 --cf 1 $K --csv $OUT/r/tc_on.csv > /dev/null 2>>$OUT/r/err.txt
STENCILSCOPE_STREAM_TC=1 $CLI bench --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 8,10 --cf 1 $K --csv $OUT/r/tc_forced.csv > /dev/null 2>>$OUT/r/err.txt
python3 bench/grid_table.py $OUT/r/grid3d_1024.csv $OUT/r/grid3d_512_r16.csv > $OUT/r/grid_tables.md 2>&1
python3 - $OUT/r/*.csv <<'PY' | tee $OUT/r/table.txt
import csv,sys
best={}
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        tag=f.split('/')[-1]
        print(f"{tag:20s} {r['nx']} {r['precision']} R{r['radius']:>2} {r['variant']:6s} CF{r['cf']} {r['block_x']+'x'+r['block_y']+'x'+r['block_z']:8s} {float(r['gcells_per_s']):7.1f} {float(r['pct_of_roofline'] or 0):5.1f} % regs {r['registers']}")
        if tag.startswith('grid'):
            k=(r['nx'],r['radius'],r['precision']); p=float(r['pct_of_roofline'] or 0)
            if p>best.get(k,(0,))[0]: best[k]=(p,r['variant'],r['cf'],r['block_x']+'x'+r['block_y'])
for k in sorted(best): print("BEST", k, best[k])
PY
cd $OUT && tar czf r.tgz r && rm -rf r
