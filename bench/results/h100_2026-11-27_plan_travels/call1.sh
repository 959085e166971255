#!/usr/bin/env bash
# Device call 1 (issue 33): GPU tests, and the generated kernel texts unchanged by the plan (the after build finds
# every kernel the before build put into a fresh disk cache: the cache key is the whole source text).
set -o pipefail
source .device-rt/gpu-env.sh --no-x || exit 1
tar xzf .device-build/gpu-tests.tgz -C .device-build
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/device.txt
export XDG_CACHE_HOME=/tmp/kc
B=.device-before/stencilscope-cli A=.device-build/app/stencilscope-cli
{
while read -r line; do
  for cli in $B $A; do echo "== ${cli%%/*} $line"; $cli run $line --steps 2 2>&1 | grep -E "^kernel|^block|^uses|refus|error"; done
done < tmp-device/configs.txt
for hook in "--dims 3 --size 128x128x128 --radius 4 --variant stream --cf 2" "--size 1024x1024 --radius 4 --halo remote" \
            "--dims 3 --size 128x128x128 --radius 2 --split x" "--size 1024x1024 --radius 1 --variant temporal"; do
  for cli in $B $A; do echo "== ${cli%%/*} STRIPS_PER_GPU=2 $hook"
    STENCILSCOPE_STRIPS_PER_GPU=2 $cli run $hook --steps 2 --verify 2>&1 | grep -E "^kernel|^block|^uses|verif|refus|error"; done
done
} > $OUT/text_identity.log 2>&1
{ echo "after-build 'uses' lines: $(grep -c '^uses' $OUT/text_identity.log) in all; after-build ones not from the cache:"
  awk '/^== /{who=$2} /^uses/ && who==".device-build" && !/from cache/' $OUT/text_identity.log; } >> $OUT/text_identity.log
ctest --test-dir .device-build -L gpu --output-on-failure > $OUT/ctest.log 2>&1; echo "ctest rc $?" >> $OUT/ctest.log
tail -15 $OUT/ctest.log; tail -3 $OUT/text_identity.log
