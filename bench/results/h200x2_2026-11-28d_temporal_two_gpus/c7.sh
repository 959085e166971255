#!/usr/bin/env bash
# Session 37, call 7 (two GPUs): the gpu-labelled tests on main (b4e9a92) but the MPI test (call 3 ran it on the
# grid code) and the soak tests; then the soak tests while time is left.
set -o pipefail
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s37/mpi_env.sh
R=/tmp/r7; mkdir -p $R; trap 'tar czf $OUT/r7.tgz -C /tmp r7' EXIT
tar xJf .device-build/bin.txz -C .device-build
nvidia-smi -L > $R/gpu.txt
timeout 330 ctest --test-dir .device-build -L gpu -E "gpu_mpi_cli|soak" --output-on-failure > $R/ctest_gpu.log 2>&1; echo "ctest gpu rc $?"
grep -E "Test +#|tests passed|Failed|Not Run" $R/ctest_gpu.log | cut -c1-100
timeout 60 ctest --test-dir .device-build -L gpu -R soak --output-on-failure > $R/ctest_soak.log 2>&1; echo "ctest soak rc $?"
grep -E "Test +#|tests passed" $R/ctest_soak.log | cut -c1-100
