#!/bin/bash
# Device run 8: re-record the lessons whose kernels changed (3D stream R1 blocks, fp64 R16 CF 1 tensor cores); sanitizer on R1.
CLI=.device-build/app/stencilscope-cli
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
LESSONS=register-pressure,remote-or-copies timeout 300 bench/record_lessons.sh $CLI $OUT/recorded_h100.json > $OUT/r/record.log 2>&1; echo "record rc=$?"
tail -5 $OUT/r/record.log
timeout 200 scripts/sanitize-kernels.sh --tools memcheck,racecheck,synccheck --filter '3D R1 stream' --logs $OUT/r/san $CLI > $OUT/r/sanitize_r1.log 2>&1
tail -2 $OUT/r/sanitize_r1.log
cd $OUT && tar czf r.tgz r && rm -rf r
