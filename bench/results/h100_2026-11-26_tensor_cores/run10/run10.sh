#!/bin/bash
# Device run 10: compute-sanitizer on tensor-core box strips (2 strips on one GPU, remote loads, split x and y).
CLI=.device-build/app/stencilscope-cli
mkdir -p $OUT/r
for split in x y; do for tool in memcheck racecheck; do
STENCILSCOPE_STRIPS_PER_GPU=2 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $CLI run --dims 3 --size 72x72x33 --radius 12 --variant stream --cf 1 --precision fp64 --gpus 1 --split $split --overlap off --halo remote --steps 2 --verify > $OUT/r/sanitize_strips_${split}_$tool.log 2>&1; echo "strips $split $tool rc=$?"
grep -E "strips|verify|SUMMARY" $OUT/r/sanitize_strips_${split}_$tool.log | head -4
done; done
cd $OUT && tar czf r.tgz r && rm -rf r
