#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Remote loads against halo copies for each split axis (issue 21, GPU-SM seed 003): fp32 jacobi, stream kernel,
# heuristic blocks, R 1/4/16, 2D 32768^2 (split y = slowest, x) and 3D 1024^3 (split z = slowest, y, x), copies
# and remote, overlap off (it does not apply to the faster axes; remote ignores it), median of 3 runs of 10 steps.
#   bench/split_axis.sh [CLI]            one GPU, two strips through the testing hook STENCILSCOPE_STRIPS_PER_GPU=2
#   GPUS=2 bench/split_axis.sh [CLI]     the same table on two GPUs (nvidia-h200-x2), no hook
# Each configuration's report (describe() names the split) goes to stdout; keep it as the raw log.
set -euo pipefail
cli=${1:-stencilscope-cli}
place=()
if [[ -n ${GPUS:-} ]]; then place=(--gpus "$GPUS"); else export STENCILSCOPE_STRIPS_PER_GPU=2; fi
common=(--variant stream --radius 1,4,16 --halo auto,remote --overlap off --repeats 3 --warmup 1 --steps 10)
"$cli" bench --size 32768x32768 --cf 2 --split y,x "${place[@]}" "${common[@]}"
"$cli" bench --dims 3 --size 1024x1024x1024 --split z,y,x "${place[@]}" "${common[@]}"
