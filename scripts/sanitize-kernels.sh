#!/usr/bin/env bash
# compute-sanitizer over the kernel matrix, on the GPU machine:
#   scripts/sanitize-kernels.sh [options] PATH/TO/stencilscope-cli
# Every configuration runs `stencilscope-cli run --backend cuda --steps 2 ... --verify` on a small domain
# under each tool (memcheck with device-leak checking, racecheck; optionally initcheck and synccheck).
# One line per configuration and tool: PASS, FAIL (sanitizer errors, a failed run or verification, a
# timeout; the log is kept) or SKIP (the CLI refuses the configuration, exit 2, e.g. smem_padded's
# block >= R rule; the reason is printed). Then a summary; the exit status is 1 on any FAIL or when
# nothing passed, 2 on bad usage or no GPU.
# The kernels are compiled at run time by NVRTC and loaded with cudaLibraryLoadData: memcheck and
# racecheck instrument such JIT-loaded code like any other (there is no line information, the kernel
# names and PCs are reported).
#
# Options:
#   --tools LIST     comma list of memcheck, racecheck, initcheck, synccheck (default memcheck,racecheck)
#   --quick          radius 1 and 4, fp32 only, no overlap/halo variations (about a quarter of the matrix)
#   --filter REGEX   only the configurations whose label matches (grep -E), e.g. '3D R16' or 'stream'
#   --timeout S      seconds per run before it counts as FAIL (default 900)
#   --logs DIR       keep every log in DIR (default: a temporary directory; failing logs are kept)
#   --list           print the configurations and exit
# Environment: COMPUTE_SANITIZER (the tool's path; else PATH, else /usr/local/cuda/bin).
set -uo pipefail

usage() {
    sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

tools=memcheck,racecheck
quick=0
filter=""
per_run_timeout=900
logs=""
list_only=0
cli=""
while [ $# -gt 0 ]; do
    case "$1" in
    --tools) tools=${2:?}; shift 2 ;;
    --quick) quick=1; shift ;;
    --filter) filter=${2:?}; shift 2 ;;
    --timeout) per_run_timeout=${2:?}; shift 2 ;;
    --logs) logs=${2:?}; shift 2 ;;
    --list) list_only=1; shift ;;
    -h | --help) usage ;;
    -*) echo "sanitize-kernels: unknown option $1" >&2; usage ;;
    *) cli=$1; shift ;;
    esac
done
[ -n "$cli" ] || usage
if [ ! -x "$cli" ]; then
    echo "sanitize-kernels: $cli is not an executable stencilscope-cli" >&2
    exit 2
fi
IFS=, read -r -a tool_list <<<"$tools"
for tool in "${tool_list[@]}"; do
    case "$tool" in
    memcheck | racecheck | initcheck | synccheck) ;;
    *) echo "sanitize-kernels: unknown tool '$tool' (memcheck, racecheck, initcheck, synccheck)" >&2; exit 2 ;;
    esac
done

# --- the matrix: "ENVIRONMENT|CLI ARGUMENTS|LABEL" -------------------------------------------------------
configs=()
add() { configs+=("$1|$2|$3"); }
radii="1 4 16"
precisions="fp32 fp64"
[ "$quick" -eq 1 ] && radii="1 4" && precisions="fp32"
for dims in 2 3; do
    # Small domains, big enough for R16 (a 2R border) and for two strips of at least R rows each.
    if [ "$dims" -eq 2 ]; then size=192x160 cf_coarse=4; else size=64x48x40 cf_coarse=2; fi
    for radius in $radii; do
        for precision in $precisions; do
            for variant in base smem smem_padded stream uncoalesced; do
                cfs="1 $cf_coarse"
                [ "$variant" = uncoalesced ] && cfs=1 # a teaching variant without coarsening
                for cf in $cfs; do
                    add "" "--stencil star --rule jacobi --dims $dims --size $size --radius $radius --variant $variant --cf $cf --precision $precision" \
                        "${dims}D R$radius $variant CF$cf $precision"
                done
            done
        done
    done
done
# Temporal blocking: --steps 3 at depth 2 runs one fused launch and one single step (arguments given here
# come after the default --steps 2, so they win). 3D R16 is refused: its halo (2 x 16) fills the 32-row tile.
for dims in 2 3; do
    if [ "$dims" -eq 2 ]; then size=192x160 cf=1; else size=64x48x40 cf=4; fi
    for radius in $radii; do
        for precision in $precisions; do
            add "" "--stencil star --rule jacobi --dims $dims --size $size --radius $radius --variant temporal --cf $cf --depth 2 --precision $precision --steps 3" \
                "${dims}D R$radius temporal CF$cf $precision depth 2"
        done
    done
done
# The wave rule reads u(t-1) from the buffer it writes: one configuration per kernel family.
for variant in base smem_padded stream; do
    add "" "--stencil star --rule wave --dims 3 --size 64x48x40 --radius 4 --variant $variant --precision fp32" \
        "3D R4 $variant CF1 fp32 wave"
done
# The fourth-order diffusion ladder (periodic halo refreshed every step).
for dims in 2 3; do
    if [ "$dims" -eq 2 ]; then size=192x160; else size=64x48x40; fi
    for precision in $precisions; do
        for variant in naive merged notemp smem; do
            add "" "--stencil diffusion4 --dims $dims --size $size --variant $variant --precision $precision" \
                "${dims}D diffusion4 $variant $precision"
        done
    done
done
# Multi-GPU code paths on one device: two strips with ghost rows (STENCILSCOPE_STRIPS_PER_GPU=2).
strips="STENCILSCOPE_STRIPS_PER_GPU=2"
add "$strips" "--dims 2 --size 192x160 --radius 4 --variant base --cf 1" "2D R4 base CF1 fp32 2 strips"
add "$strips" "--dims 2 --size 192x160 --radius 16 --variant stream --cf 4" "2D R16 stream CF4 fp32 2 strips"
add "$strips" "--dims 3 --size 64x48x40 --radius 4 --variant smem_padded --cf 2 --precision fp64" \
    "3D R4 smem_padded CF2 fp64 2 strips"
add "$strips" "--dims 3 --size 64x48x80 --radius 16 --variant stream --cf 2" "3D R16 stream CF2 fp32 2 strips"
add "$strips" "--stencil diffusion4 --dims 3 --size 64x48x40 --variant smem" "3D diffusion4 smem fp32 2 strips"
# Temporal strips: ghost rows of R x depth, traded after the fused launch and after the single step (--steps 3).
add "$strips" "--dims 2 --size 192x160 --radius 2 --variant temporal --cf 1 --depth 2 --steps 3" \
    "2D R2 temporal CF1 fp32 depth 2 2 strips"
add "$strips" "--dims 3 --size 64x48x40 --radius 1 --variant temporal --cf 4 --depth 2 --precision fp64 --steps 3" \
    "3D R1 temporal CF4 fp64 depth 2 2 strips"
if [ "$quick" -eq 0 ]; then
    add "$strips" "--dims 3 --size 64x48x40 --radius 4 --variant stream --overlap off" \
        "3D R4 stream CF1 fp32 2 strips overlap off"
    add "$strips" "--dims 3 --size 64x48x40 --radius 4 --variant base --halo staged" \
        "3D R4 base CF1 fp32 2 strips staged halo"
    add "$strips" "--dims 3 --size 64x48x40 --radius 2 --variant temporal --cf 4 --depth 3 --halo staged --steps 4" \
        "3D R2 temporal CF4 fp32 depth 3 2 strips staged halo"
fi

selected=()
for config in "${configs[@]}"; do
    label=${config##*|}
    if [ -z "$filter" ] || grep -qE -- "$filter" <<<"$label"; then selected+=("$config"); fi
done
if [ "$list_only" -eq 1 ]; then
    for config in "${selected[@]}"; do echo "${config##*|}"; done
    echo "${#selected[@]} configurations x ${#tool_list[@]} tools"
    exit 0
fi
if [ "${#selected[@]}" -eq 0 ]; then
    echo "sanitize-kernels: no configuration matches --filter '$filter'" >&2
    exit 2
fi

# --- the tool and the device ------------------------------------------------------------------------------
sanitizer=${COMPUTE_SANITIZER:-}
if [ -z "$sanitizer" ]; then
    sanitizer=$(command -v compute-sanitizer || true)
    for candidate in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
        [ -z "$sanitizer" ] && [ -x "$candidate" ] && sanitizer=$candidate
    done
fi
if [ -z "$sanitizer" ] || [ ! -x "$sanitizer" ]; then
    echo "sanitize-kernels: compute-sanitizer not found (PATH, /usr/local/cuda/bin; or set COMPUTE_SANITIZER)" >&2
    exit 2
fi
if ! devices=$("$cli" devices 2>&1) || grep -q '^no CUDA device' <<<"$devices"; then
    echo "sanitize-kernels: no CUDA device: $devices" >&2
    exit 2
fi
if [ -z "$logs" ]; then
    logs=$(mktemp -d "${TMPDIR:-/tmp}/sanitize-kernels.XXXXXX")
    keep_all=0
else
    mkdir -p "$logs"
    keep_all=1
fi
echo "compute-sanitizer: $sanitizer ($("$sanitizer" --version 2>/dev/null | grep -m1 -oE 'Version [0-9.]+' || echo 'version unknown'))"
echo "stencilscope-cli:  $cli"
echo "device:            $(head -n1 <<<"$devices")"
echo "matrix:            ${#selected[@]} configurations x tools $tools; logs in $logs"
echo

# --- run ------------------------------------------------------------------------------------------------
sanitizer_errors=99 # --error-exitcode: tells sanitizer findings from the CLI's own exit codes (0, 1, 2)
declare -A tool_options=([memcheck]="--leak-check full" [racecheck]="" [initcheck]="" [synccheck]="")
pass=0 fail=0 skip=0
failed=()
index=0
started=$SECONDS
for config in "${selected[@]}"; do
    environment=${config%%|*}
    rest=${config#*|}
    arguments=${rest%%|*}
    label=${rest#*|}
    index=$((index + 1))
    for tool in "${tool_list[@]}"; do
        log=$(printf '%s/%03d-%s.log' "$logs" "$index" "$tool")
        t0=$SECONDS
        # shellcheck disable=SC2086 # the arguments and options are word lists on purpose
        env $environment timeout "$per_run_timeout" "$sanitizer" --tool "$tool" ${tool_options[$tool]} \
            --error-exitcode "$sanitizer_errors" "$cli" run --backend cuda --steps 2 $arguments --verify >"$log" 2>&1
        rc=$?
        seconds=$((SECONDS - t0))
        refusal=$(grep -m1 '^stencilscope-cli: ' "$log" | sed 's/^stencilscope-cli: //')
        errors=$(grep -m1 -oE '(ERROR SUMMARY: [0-9]+ errors?|RACECHECK SUMMARY: .*)' "$log")
        if [ "$rc" -eq 2 ] && ! grep -qE 'ERROR SUMMARY: [1-9]|\(([1-9][0-9]*) errors' "$log"; then
            printf 'SKIP  %-9s %-46s refused: %s\n' "$tool" "$label" "${refusal:-exit 2}"
            skip=$((skip + 1))
            [ "$keep_all" -eq 1 ] || rm -f "$log"
            # the CLI refuses before any kernel runs: the other tools would be refused alike
            for other in "${tool_list[@]}"; do
                [ "$other" = "$tool" ] && continue
                printf 'SKIP  %-9s %-46s refused (as above)\n' "$other" "$label"
                skip=$((skip + 1))
            done
            break
        fi
        verdict=FAIL
        if [ "$rc" -eq 0 ] && grep -qE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards|\(0 errors' "$log" &&
            ! grep -qE 'ERROR SUMMARY: [1-9]|\(([1-9][0-9]*) errors' "$log"; then
            verdict=PASS
        fi
        if [ "$verdict" = PASS ]; then
            warnings=$(grep -m1 -oE '[1-9][0-9]* warnings?' "$log")
            printf 'PASS  %-9s %-46s %3d s%s\n' "$tool" "$label" "$seconds" "${warnings:+ ($warnings)}"
            pass=$((pass + 1))
            [ "$keep_all" -eq 1 ] || rm -f "$log"
        else
            case "$rc" in
            "$sanitizer_errors") why="${errors:-sanitizer errors}" ;;
            124) why="timed out after $per_run_timeout s" ;;
            0) why="no sanitizer summary in the log" ;;
            *) why="exit $rc${refusal:+: $refusal}${errors:+ ($errors)}" ;;
            esac
            printf 'FAIL  %-9s %-46s %3d s  %s; log: %s\n' "$tool" "$label" "$seconds" "$why" "$log"
            fail=$((fail + 1))
            failed+=("$tool $label")
        fi
    done
done

echo
minutes=$(((SECONDS - started + 59) / 60))
echo "summary: $pass PASS, $fail FAIL, $skip SKIP (refused by the CLI) in about $minutes min"
for f in "${failed[@]}"; do echo "  FAIL $f"; done
if [ "$fail" -gt 0 ] || [ "$pass" -eq 0 ]; then
    echo "sanitize-kernels: FAILED (logs in $logs)"
    exit 1
fi
[ "$keep_all" -eq 1 ] || rm -rf "$logs"
echo "sanitize-kernels: all sanitized runs are clean"
exit 0
