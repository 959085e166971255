#!/bin/bash
# Device run 12: gpu tests on the final build (tensor cores from R10), R10 verify with the default.
CLI=.device-build/app/stencilscope-cli
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
for rule in thesis jacobi wave; do
  o=$($CLI run --dims 3 --size 77x61x45 --radius 10 --variant stream --cf 1 --precision fp64 --rule $rule --steps 3 --verify 2>&1)
  echo "R10 $rule rc=$? $(echo "$o" | grep -E '^(block|kernel|verify)' | tr '\n' ' ')"
done | tee $OUT/r/verify_r10.txt | cut -c1-200
cd .device-build && timeout 330 ctest -L gpu --output-on-failure --timeout 320 > $OUT/r/ctest_gpu.log 2>&1; echo "ctest rc=$?"
grep -E "tests passed|Passed|Failed|FAILED" $OUT/r/ctest_gpu.log | tail -12
cd $OUT && tar czf r.tgz r && rm -rf r
