#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 35's two-GPU line: the temporal variant with its defaults on one GPU and on two (strips, overlap on and
# off) at 2D 12000x9000 and 3D 640x480x1200 R1 fp32, then `run --checksum` on one and two GPUs after a multiple of
# the depth and after one more step (a single-step launch on the strips). Needs two GPUs.
# Usage: bench/temporal_two_gpus.sh CLI [STEPS=240] [REPEATS=5]
set -uo pipefail
cli=${1:?usage: bench/temporal_two_gpus.sh CLI [STEPS] [REPEATS]}
steps=${2:-240} repeats=${3:-5}
rate() { grep -E '^rate' <<<"$1" | awk '{print $2}'; }
checksum() { grep -o '^checksum [0-9a-f]*' <<<"$1" | cut -d' ' -f2; }
for shape in "2D:--size 12000x9000" "3D:--dims 3 --size 640x480x1200"; do
    name=${shape%%:*} args=${shape#*:}
    one=$("$cli" bench --backend cuda --variant temporal $args --gpus 1 --steps "$steps" --repeats "$repeats" --warmup 1 2>&1)
    on=$("$cli" bench --backend cuda --variant temporal $args --gpus 2 --steps "$steps" --repeats "$repeats" --warmup 1 2>&1)
    off=$("$cli" bench --backend cuda --variant temporal $args --gpus 2 --overlap off --steps "$steps" --repeats "$repeats" \
        --warmup 1 2>&1)
    echo "$name one GPU $(rate "$one"), two GPUs overlap on $(rate "$on"), off $(rate "$off") GCells/s" \
        "($(awk -v a="$(rate "$on")" -v b="$(rate "$one")" 'BEGIN { if (b > 0) printf "%.2fx", a / b }'))"
    for n in "$steps" $((steps + 1)); do
        c1=$(checksum "$("$cli" run --backend cuda --variant temporal $args --gpus 1 --steps "$n" --checksum 2>&1)")
        c2=$(checksum "$("$cli" run --backend cuda --variant temporal $args --gpus 2 --steps "$n" --checksum 2>&1)")
        echo "$name $n steps: checksum one GPU $c1, two GPUs $c2: $([ -n "$c1" ] && [ "$c1" = "$c2" ] && echo equal || echo DIFFERENT)"
    done
done
