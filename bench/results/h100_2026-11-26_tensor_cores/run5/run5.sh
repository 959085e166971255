#!/bin/bash
# Device run 5: fp64 against fp32 at the thesis' sizes - the 2D grid at 32768^2, and a 3D R1 sweep at 1024^3.
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
timeout 250 $CLI bench --dims 2 --size 32768x32768 --precision fp32,fp64 --variant base,smem,stream --radius 1,4,16 --cf 1,2,4,8 $K --csv $OUT/r/grid2d_32768.csv > /dev/null 2>$OUT/r/err.txt
B3="--dims 3 --size 1024x1024x1024 --radius 1"
$CLI bench $B3 --precision fp32,fp64 --variant base --cf 4,8 --block heuristic,32x8x4,64x4x4,32x32x1,64x8x2 $K --csv $OUT/r/r1_base.csv > /dev/null 2>>$OUT/r/err.txt
$CLI bench $B3 --precision fp64 --variant stream --cf 1,2,4 --block heuristic,64x8,32x16,64x4,128x4,32x4 $K --csv $OUT/r/r1_stream.csv > /dev/null 2>>$OUT/r/err.txt
STENCILSCOPE_STREAM_FWD=1 $CLI bench $B3 --precision fp64 --variant stream --cf 1,2,4 --block heuristic,64x8,32x8 $K --csv $OUT/r/r1_stream_fwd.csv > /dev/null 2>>$OUT/r/err.txt
for p in 2 6 8; do
STENCILSCOPE_STREAM_PIPE=$p $CLI bench $B3 --precision fp64 --variant stream --cf 1,2 $K --csv $OUT/r/r1_stream_pipe$p.csv > /dev/null 2>>$OUT/r/err.txt
done
$CLI bench $B3 --precision fp64 --variant smem --cf 4,8 $K --csv $OUT/r/r1_smem.csv > /dev/null 2>>$OUT/r/err.txt
python3 - $OUT/r/*.csv <<'PY' | tee $OUT/r/table.txt
import csv,sys
best={}
for f in sys.argv[1:]:
    tag=f.split('/')[-1]
    for r in csv.DictReader(open(f)):
        p=float(r['pct_of_roofline'] or 0)
        if not tag.startswith('grid'):
            print(f"{tag:22s} {r['precision']} R{r['radius']:>2} {r['variant']:6s} CF{r['cf']} {r['block_x']+'x'+r['block_y']+'x'+r['block_z']:8s} {float(r['gcells_per_s']):7.1f} {p:5.1f} % regs {r['registers']}")
        k=(tag[:4], r['dims'], r['radius'],r['precision'])
        if p>best.get(k,(0,))[0]: best[k]=(p,r['variant'],r['cf'],r['block_x']+'x'+r['block_y']+'x'+r['block_z'])
for k in sorted(best): print("BEST", k, best[k])
PY
cd $OUT && tar czf r.tgz r && rm -rf r
