#!/bin/bash
# Device run 1 (2026-11-26 b): lean addresses (STENCILSCOPE_STREAM_LEAN_ADDR) - correctness, speed A/B, sanitizer.
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
KNOB=STENCILSCOPE_STREAM_LEAN_ADDR
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $OUT/r/device.txt
date -u +%FT%TZ >> $OUT/r/device.txt
# 1. correctness: knob off/on give the same checksum, both verify against the fp64 CPU reference
{
for p in fp32 fp64; do for r in 2 4 8 16; do for cf in 1 2 4; do for size in 150x133x70 $([ $r = 16 ] && echo 160x144x96); do
  for x in 0 1; do
    o=$(env $KNOB=$x $CLI run --dims 3 --size $size --radius $r --variant stream --cf $cf --precision $p --steps 3 --verify --checksum 2>&1)
    echo "$p R$r CF$cf $size lean=$x rc=$? $(echo "$o" | grep -E '^(block|kernel|verify|checksum)' | tr '\n' ' ')"
  done
done; done; done; done
} > $OUT/r/correct.txt 2>&1
python3 - <<'PY' | tee $OUT/r/correct_summary.txt | tail -3
import re,os
lines=open(os.environ['OUT']+'/r/correct.txt').read().splitlines()
bad=0; pairs=0
for a,b in zip(lines[0::2],lines[1::2]):
    ca=re.search(r'checksum\s+(\S+)',a); cb=re.search(r'checksum\s+(\S+)',b)
    ok = ca and cb and ca.group(1)==cb.group(1) and 'PASS' in a and 'PASS' in b
    pairs+=1
    if not ok: bad+=1; print("MISMATCH", a, "|||", b)
print(pairs,"pairs", bad, "bad")
PY
# 2. speed A/B, heuristic blocks
bench/knob_ab.sh $KNOB $CLI $OUT/r/ab1024 --dims 3 --size 1024x1024x1024 --precision fp32,fp64 --variant stream --radius 4,8,16 --cf 1,2,4 $K > $OUT/r/ab1024.md 2>&1
cat $OUT/r/ab1024.md
bench/knob_ab.sh $KNOB $CLI $OUT/r/ab512 --dims 3 --size 512x512x512 --precision fp32,fp64 --variant stream --radius 4,8,16 --cf 1,2,4 $K > $OUT/r/ab512.md 2>&1
cat $OUT/r/ab512.md
# fp64 R16 CF 2 blocks with the knob on
bench/knob_ab.sh $KNOB $CLI $OUT/r/ab1024_blocks --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 16 --cf 2 --block 8x16,8x32,16x16 $K > $OUT/r/ab1024_blocks.md 2>&1
cat $OUT/r/ab1024_blocks.md
# 3. sanitizer with the knob on
env $KNOB=1 timeout 200 scripts/sanitize-kernels.sh --tools memcheck,racecheck,synccheck --filter '3D R(8|16) stream' --logs $OUT/r/san $CLI > $OUT/r/sanitize_lean.log 2>&1
tail -3 $OUT/r/sanitize_lean.log
cd $OUT && tar czf r.tgz r && rm -rf r
