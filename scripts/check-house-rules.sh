#!/usr/bin/env bash
# House rules as a test (ctest house_rules). Layers, bottom up, each a folder and a CMake target:
#   gpu/ (engine) < reports/ (shared core) < session/ (live session) < widgets/ < app/ (the programs)
# An include may point down or stay in its own layer, never up or sideways: widgets -> app,
# session -> widgets, reports -> session, gpu -> anything above it all fail, and so do app/cli <-> app/gui.
# Qt: none in gpu/, reports/ or app/cli/; Qt Core only in session/ (its target links Qt6::Core alone, so a
# bare <QWidget> does not compile; this catches module-qualified includes). CUDA headers: gpu/ only.
# Widgets never start engine work nor include the engine thread: they go through session/Session.
# Inside gpu/, rooms by role in the same way (rule 6). Plus: the pinned clang-format 14 is applied.
# Files: none over 500 lines outside gpu/kernels/ (one screenful of purpose, readable whole).
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
fail() {
    echo "$1"
    shift
    printf '  %s\n' "$@"
    status=1
}
rank() {
    case "$1" in
    gpu) echo 0 ;; reports) echo 1 ;; session) echo 2 ;; widgets) echo 3 ;; app) echo 4 ;; *) echo -1 ;;
    esac
}

sources=$(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' 2>/dev/null \
    || find app gpu reports session widgets tests -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh')
layered=$(printf '%s\n' $sources | grep -E '^(gpu|reports|session|widgets|app)/')

# 1. Includes point down.
upward=()
for f in $layered; do
    layer=${f%%/*}
    mine=$(rank "$layer")
    while IFS= read -r target; do
        [ -n "$target" ] || continue
        other=${target%%/*}
        theirs=$(rank "$other")
        [ "$theirs" -lt 0 ] && continue
        if [ "$theirs" -gt "$mine" ]; then upward+=("$f -> $target"); fi
        if [ "$layer" = app ] && [ "$other" = app ]; then
            mine_sub=$(echo "$f" | cut -d/ -f2)
            their_sub=$(echo "$target" | cut -d/ -f2)
            [ "$mine_sub" != "$their_sub" ] && upward+=("$f -> $target (app/cli and app/gui are separate programs)")
        fi
    done < <(sed -nE 's@^\s*#\s*include\s*"([a-z_]+/[^"]+)".*@\1@p' "$f")
done
[ ${#upward[@]} -gt 0 ] && fail "includes that point up or sideways across layers:" "${upward[@]}"

# 2. Qt where it belongs.
qt_free=$(printf '%s\n' $layered | grep -E '^(gpu|reports|app/cli)/')
bad=$(for f in $qt_free; do grep -lE '^\s*#\s*include\s*[<"]Q[A-Za-z]' "$f"; done)
[ -n "$bad" ] && fail "Qt in a Qt-free layer (gpu/, reports/, app/cli/):" $bad
bad=$(for f in $(printf '%s\n' $layered | grep '^session/'); do
    grep -lE '^\s*#\s*include\s*<Qt(Gui|Widgets|OpenGL|OpenGLWidgets|Charts|Svg)/' "$f"
done)
[ -n "$bad" ] && fail "session/ is Qt Core only:" $bad

# 3. CUDA headers in the engine only.
bad=$(for f in $(printf '%s\n' $layered | grep -vE '^gpu/'); do
    grep -lE '^\s*#\s*include\s*[<"](cuda|cupti|nvrtc|nvperf|cuda_runtime)' "$f"
done)
[ -n "$bad" ] && fail "CUDA headers outside gpu/:" $bad

# 4. Widgets observe and write the session; they never start engine work themselves.
engine_calls='\b(create_simulation|can_implement|query_devices|device_free_memory|measure_copy_bandwidth|create_metrics_collector|run_experiment|autotune_cached|repartition|plan_strips|make_launch_plan)\s*\('
bad=$(for f in $(printf '%s\n' $layered | grep '^widgets/'); do grep -lE "$engine_calls" "$f"; done)
[ -n "$bad" ] && fail "widgets/ calls the engine (go through the Session):" $bad
bad=$(for f in $(printf '%s\n' $layered | grep '^widgets/'); do
    grep -lE '#\s*include\s*"session/engine_(controller|worker)\.h"' "$f"
done)
[ -n "$bad" ] && fail "widgets/ includes the engine thread (use session/session.h):" $bad

# 5. Files small enough to read whole (generated kernels' text aside: gpu/kernels/ is CUDA source).
bad=$(for f in $sources; do
    case $f in gpu/kernels/*) continue ;; esac
    lines=$(wc -l <"$f")
    [ "$lines" -gt 500 ] && echo "$f ($lines lines)"
done)
[ -n "$bad" ] && fail "C++ files over 500 lines (split by what they hold):" $bad

# 6. Inside the engine, rooms by role, bottom up; an include points down or stays in its room:
#   problem (what is computed, on what) < io (files) < plan (config + device -> what runs) < backends (cpu, cuda)
#   < profiler (CUPTI, the figures) < studies (autotune, experiments, EBISU's model). kernels/ is CUDA text, not
#   included. No file sits in gpu/ itself: each belongs to a room.
room_rank() {
    case "$1" in
    problem) echo 0 ;; io) echo 1 ;; plan) echo 2 ;; backends) echo 3 ;; profiler) echo 4 ;; studies) echo 5 ;;
    kernels) echo 6 ;; *) echo -1 ;;
    esac
}
upward=()
for f in $(printf '%s\n' $layered | grep '^gpu/'); do
    room=$(echo "$f" | cut -d/ -f2)
    mine=$(room_rank "$room")
    if [ "$mine" -lt 0 ]; then
        upward+=("$f (not in a room: problem, io, plan, backends, profiler, studies, kernels)")
        continue
    fi
    while IFS= read -r target; do
        [ -n "$target" ] || continue
        theirs=$(room_rank "$(echo "$target" | cut -d/ -f2)")
        [ "$theirs" -gt "$mine" ] && upward+=("$f -> $target")
    done < <(sed -nE 's@^\s*#\s*include\s*"(gpu/[^"]+)".*@\1@p' "$f")
done
[ ${#upward[@]} -gt 0 ] && fail "engine includes that point up across its rooms (gpu/problem < io < plan < backends < profiler < studies):" "${upward[@]}"

# 7. The plan decides, once (gpu/plan/launch_plan.h, kernel_plan.h, rank_plan.h): the backends build and run what a
#    plan says and never ask the policy's deciding functions themselves (the factories plan a bare configuration
#    with make_launch_plan, which is the plan room's own entry).
deciding='\b(can_implement|check_rank_split|rank_split_config|plan_strips|single_gpu_equivalent|stream_layout|choose_(gpu_)?kernel|specialise_for_block|fix_block_mode|occupancy_block|heuristic_block|blocks_per_sm_without_registers|stream_pipeline|stream_min_blocks_per_sm|stream_lean_addresses|stream_max_halo|temporal_(loads_ahead|fast_path|adjacent_rows|min_blocks_per_sm))\s*\('
bad=$(for f in $(printf '%s\n' $layered | grep '^gpu/backends/'); do
    sed -E 's@//.*@@' "$f" | grep -qE "$deciding" && echo "$f"
done)
[ -n "$bad" ] && fail "backends that decide what the plan decides (read the LaunchPlan / KernelPlan):" $bad

# 8. Formatting with the pinned clang-format.
if command -v clang-format >/dev/null && clang-format --version | grep -q 'version 14\.'; then
    bad=$(for f in $sources; do clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"; done)
    [ -n "$bad" ] && fail "not formatted with the pinned clang-format 14:" $bad
else
    echo "SKIPPED: clang-format 14 not installed, formatting not checked"
    exit $status
fi
[ $status -eq 0 ] && echo "house rules: ok"
exit $status
