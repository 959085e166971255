#!/usr/bin/env bash
# Device call 2: the floors of docs/PERFORMANCE.md, before (726a438) and after alternating; profile --continuous
# streams its rows (issue 39).
set -o pipefail
source .device-rt/gpu-env.sh --no-x || exit 1
A=.device-build/app/stencilscope-cli
bench/build_ab.sh .device-before/stencilscope-cli $A /tmp/ab 2 \
  -- --size 32768x32768 --variant stream --radius 1 --cf 8 --repeats 3 --warmup 1 \
  -- --dims 3 --size 1024x1024x1024 --variant stream --radius 4 --cf 4 --steps 8 --repeats 3 --warmup 1 \
  -- --dims 3 --size 1024x1024x1024 --variant stream --radius 16 --cf 2 --steps 8 --repeats 3 --warmup 1 \
  -- --size 8568x8568 --radius 1 --variant temporal --steps 36 --repeats 3 --warmup 1 > $OUT/ab_table.md 2>&1
tar czf $OUT/ab.tgz -C /tmp ab
cat $OUT/ab_table.md
# Rows while it runs: a file's rows counted at 2 s, 4 s and at the end of a 6 s run.
{ timeout 60 $A profile --continuous 6 --size 8192x8192 --steps 20 --csv /tmp/s.csv -q & pid=$!
  for t in 2 4; do sleep 2; echo "at ${t} s: $(wc -l < /tmp/s.csv 2>/dev/null) lines"; done
  wait $pid; echo "exit $? at the end: $(wc -l < /tmp/s.csv) lines"; } > $OUT/continuous.txt 2>&1
# Ctrl-C mid-run: exit 130, whole rows.
timeout 60 $A profile --continuous 20 --size 8192x8192 --steps 20 --csv /tmp/c.csv -q & pid=$!
sleep 4; kill -INT $pid; wait $pid
echo "SIGINT: exit $? rows $(wc -l < /tmp/c.csv) last_fields $(tail -1 /tmp/c.csv | awk -F, '{print NF}') header_fields $(head -1 /tmp/c.csv | awk -F, '{print NF}') ends_with_newline $(tail -c1 /tmp/c.csv | od -An -c)" >> $OUT/continuous.txt
# A pipe: the first rows, then the reader goes away.
timeout 60 $A profile --continuous 6 --size 8192x8192 --steps 20 --csv - -q 2>>$OUT/continuous.txt | head -3 >> $OUT/continuous.txt
echo "pipe: exit ${PIPESTATUS[0]}" >> $OUT/continuous.txt
head -c 3000 /tmp/s.csv > $OUT/continuous_head.csv
cat $OUT/continuous.txt
