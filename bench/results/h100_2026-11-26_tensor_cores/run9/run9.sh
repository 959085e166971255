#!/bin/bash
# Device run 9: compute-sanitizer on the final tensor-core kernel (default R16, forced R4, remote box strips along x).
CLI=.device-build/app/stencilscope-cli
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
$CLI run --dims 3 --size 150x133x70 --radius 16 --variant stream --cf 1 --precision fp64 --steps 1 2>&1 | grep -E "^(block|kernel)" | tee $OUT/r/kernel_r16.txt
timeout 150 scripts/sanitize-kernels.sh --tools memcheck,racecheck,synccheck,initcheck --filter '3D R16 stream CF1 fp64' --logs $OUT/r/san16 $CLI > $OUT/r/sanitize_tc_r16.log 2>&1
tail -2 $OUT/r/sanitize_tc_r16.log
STENCILSCOPE_STREAM_TC=1 timeout 150 scripts/sanitize-kernels.sh --tools memcheck,racecheck,synccheck --filter '3D R4 stream CF1 fp64' --logs $OUT/r/san4 $CLI > $OUT/r/sanitize_tc_r4_forced.log 2>&1
tail -2 $OUT/r/sanitize_tc_r4_forced.log
for tool in memcheck racecheck; do
STENCILSCOPE_STRIPS_PER_GPU=2 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $CLI run --dims 3 --size 72x72x33 --radius 12 --variant stream --cf 1 --precision fp64 --gpus 2 --split x --overlap off --halo remote --steps 2 --verify > $OUT/r/sanitize_strips_$tool.log 2>&1; echo "strips $tool rc=$?"
tail -3 $OUT/r/sanitize_strips_$tool.log
done
cd $OUT && tar czf r.tgz r && rm -rf r
