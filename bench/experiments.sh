#!/usr/bin/env bash
# The thesis' figures redone by the app (docs/EXPERIMENTS.md): headless sweeps on the GPU machine,
# charted anywhere afterwards with `stencilscope --open-sweep FILE.csv --sweep-png FILE.png`.
# Usage: bench/experiments.sh CLI OUTDIR PART...   PART: radius | cf | autotuned | autotune-timing
# Domains: the thesis' D = 8 GiB (32768², 1024³) for the radius and CF sweeps, its D = 128 MiB
# (4096², 256³) for the autotuned comparison (a block search per CF and radius).
set -euo pipefail
cli=$1 out=$2
shift 2
mkdir -p "$out"
big2=32768x32768 big3=1024x1024x1024 small2=4096x4096 small3=256x256x256
sweep() { # NAME ARGS...
    local name=$1
    shift
    echo "== sweep $name: $*"
    local t0=$SECONDS
    "$cli" sweep --rule thesis --csv "$out/$name.csv" "$@" | tail -n +1
    echo "== $name took $((SECONDS - t0)) s"
}
for part in "$@"; do
    case $part in
    radius)
        sweep radius2d --experiment radius --dims 2 --size $big2 --counters on
        sweep radius3d --experiment radius --dims 3 --size $big3 --counters on ;;
    cf)
        sweep cf2d --experiment cf --dims 2 --size $big2 --counters on
        sweep cf3d --experiment cf --dims 3 --size $big3 --counters on ;;
    autotuned)
        sweep autotuned2d --experiment autotuned --dims 2 --size $small2 --counters on
        sweep autotuned3d --experiment autotuned --dims 3 --size $small3 --counters on ;;
    autotune-timing)
        for args in "--dims 2 --size $small2 --radius 4 --variant smem" \
            "--dims 3 --size $small3 --radius 4 --variant smem_padded"; do
            echo "== autotune $args"
            # shellcheck disable=SC2086
            /usr/bin/time -f "wall %e s" "$cli" autotune --no-cache $args --csv "$out/autotune.csv" | head -4
        done ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
    esac
done
