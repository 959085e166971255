#!/usr/bin/env bash
# The GUI soak, for the GPU machine: stencilscope with CUDA-GL interop and hardware metrics on, its knobs
# changed through the control panel every few seconds (stencilscope --soak-seconds: variant, radius, CF,
# block, colour map, slice), for 10 minutes by default.
#   scripts/gui-soak.sh [--seconds S] [--interval S] [--allow-host-copy] [--log FILE] PATH/TO/stencilscope [OPTIONS]
# OPTIONS go to stencilscope after the soak's defaults (--dims 3 --size 256x256x256 --metrics on), so they
# override them (e.g. --size 512x512x512 --precision fp64, or --backend cpu for a run without a GPU).
# Passes (exit 0) when stencilscope reports PASS: resident memory grew by less than 5 % from the end of the
# first round of changes to the end, no GL error, CUDA-GL interop failure or engine failure, every change
# reached the engine, frames kept coming; and the frames went GPU -> GL through interop, unless
# --allow-host-copy (the offscreen platform and the CPU backend copy through the host).
# Needs a display: on the lent GPU machine `source .device-rt/gpu-env.sh` first (Xvfb with NVIDIA GLX,
# docs/DEVICE.md). One command there may run 10 minutes at most: use --seconds 540 in that case.
set -uo pipefail

usage() {
    sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

seconds=600
interval=3
allow_host_copy=0
log=""
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds=${2:?}; shift 2 ;;
    --interval) interval=${2:?}; shift 2 ;;
    --allow-host-copy) allow_host_copy=1; shift ;;
    --log) log=${2:?}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "gui-soak: unknown option $1 (stencilscope options go after its path)" >&2; usage ;;
    *) break ;;
    esac
done
app=${1:-}
[ -n "$app" ] || usage
shift
if [ ! -x "$app" ]; then
    echo "gui-soak: $app is not an executable stencilscope" >&2
    exit 2
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "gui-soak: no display: source .device-rt/gpu-env.sh (GPU machine), use xvfb-run, or set QT_QPA_PLATFORM" >&2
    exit 2
fi
[ -n "$log" ] || log=$(mktemp "${TMPDIR:-/tmp}/gui-soak.XXXXXX.log")

echo "gui-soak: $app for $seconds s, a change every $interval s; log $log"
# The soak stops itself; the timeout only catches a hang (start-up and the first compiles included).
timeout $((${seconds%.*} + 300)) "$app" --dims 3 --size 256x256x256 --metrics on \
    --soak-seconds "$seconds" --soak-interval "$interval" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

if [ "$status" -eq 124 ]; then
    echo "gui-soak: FAIL: stencilscope did not finish within $seconds + 300 s"
    exit 1
fi
if [ "$status" -eq 0 ] && ! grep -q '^soak: PASS' "$log"; then
    echo "gui-soak: FAIL: stencilscope exited 0 without a soak verdict"
    exit 1
fi
if [ "$status" -eq 0 ] && [ "$allow_host_copy" -eq 0 ] && ! grep -q 'frames via CUDA-GL interop' "$log"; then
    echo "gui-soak: FAIL: frames did not go through CUDA-GL interop ($(grep -m1 -o 'frames via .*' "$log" || echo 'no warm-up line'));" \
        "pass --allow-host-copy to accept that"
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "gui-soak: FAIL: stencilscope exited $status"
    exit 1
fi
echo "gui-soak: PASS"
