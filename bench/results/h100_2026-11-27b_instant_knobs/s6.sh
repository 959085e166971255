#!/usr/bin/env bash
# call 6: the gpu suite (soaks, autotune and split counters aside) on this session's main.
source .device-rt/gpu-env.sh --no-x || exit 1
tar xzf .device-build/bin.tgz -C .device-build
export XDG_CACHE_HOME=/tmp/kc PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
ctest --test-dir .device-build -L gpu -E "soak|autotune|split" --output-on-failure > $OUT/ctest.log 2>&1; echo "ctest rc $?"
grep -E "Test +#|tests passed|Failed|FAILED" $OUT/ctest.log | tail -20
