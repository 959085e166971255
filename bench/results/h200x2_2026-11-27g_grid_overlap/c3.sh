#!/usr/bin/env bash
# Session 31, call 3 (two GPUs of one host): the GPU MPI test whole over the two GPUs (process grids with peer copies
# and overlap, strips), then what call 2 left.
set -o pipefail
T0=$(date +%s); END=$((T0 + ${BUDGET:-575}))
left() { echo $((END - $(date +%s))); }
at() { echo "$1 at $(( $(date +%s) - T0 )) s"; }
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
tar xJf .device-build/bin.txz -C .device-build 2>/dev/null || python3 -c "import tarfile; tarfile.open('.device-build/bin.txz','r:xz').extractall('.device-build')"
D=/tmp/r3; rm -rf $D; mkdir -p $D; trap 'tar czf $OUT/r3.tgz -C /tmp r3' EXIT
nvidia-smi --query-gpu=index,name,driver_version --format=csv > $D/device.txt; cat $D/device.txt
source tmp-device/s31/mpi_env.sh
A=$PWD/.device-build/app/stencilscope-cli
timeout ${MPI_TEST_S:-400} bash tests/mpi/mpi_cli_test.sh $A cuda > $D/mpi_cli_two_gpus.log 2>&1
at "mpi test on two GPUs rc $?"; echo "$(grep -c '^ok' $D/mpi_cli_two_gpus.log) ok, $(grep -c '^FAIL' $D/mpi_cli_two_gpus.log) FAIL"
grep -E "^FAIL|all passed|failed" $D/mpi_cli_two_gpus.log | cut -c1-400 | head -6
[ -n "${EXTRA:-}" ] && bash -c "$EXTRA"
at done
