#!/usr/bin/env bash
# ctest clang_tidy: the curated checks of .clang-tidy on the project's own sources (the five layers' .cpp files,
# not tests, not generated code), from BUILD/compile_commands.json. Any finding fails. Skips visibly without
# clang-tidy 14 (the setup script installs it) or without a compilation database.
#   scripts/run-clang-tidy.sh BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tidy=$(command -v run-clang-tidy-14 || true)
if [ -z "$tidy" ] || ! command -v clang-tidy-14 >/dev/null; then
    echo "SKIPPED: clang-tidy 14 not installed (apt-get install clang-tidy-14)"
    exit 0
fi
if [ ! -f "$build/compile_commands.json" ]; then
    echo "SKIPPED: no $build/compile_commands.json"
    exit 0
fi
root=$(pwd)
# -Wno-unknown-warning-option: GCC's -Wno-restrict is in the database; clang does not know it.
log=$(mktemp)
"$tidy" -p "$build" -j "$(nproc)" -quiet -clang-tidy-binary "$(command -v clang-tidy-14)" \
    -extra-arg=-Wno-unknown-warning-option "^$root/(gpu|reports|session|widgets|app)/.*\.cpp$" >"$log" 2>&1
status=$?
findings=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^/.*: (warning|error): ' | sort -u)
if [ $status -ne 0 ] || [ -n "$findings" ]; then
    echo "clang-tidy findings (.clang-tidy lists the checks):"
    [ -n "$findings" ] && echo "$findings" || tail -40 "$log"
    rm -f "$log"
    exit 1
fi
rm -f "$log"
echo "clang-tidy: no findings"
