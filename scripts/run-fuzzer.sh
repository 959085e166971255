#!/usr/bin/env bash
# Fuzzes the setup and lesson loader, and the sweep CSV reader, for a bounded time (ctest: fuzz_setup_loader,
# label fuzz).
#   scripts/run-fuzzer.sh FUZZ_BUILD_DIR [SECONDS]
# Seeds: the lessons (resources/presets) and the inputs of past findings and file cases
# (tests/fuzz/regressions, sweep CSVs among them), which therefore replay first on every run. New inputs
# go into FUZZ_BUILD_DIR/corpus (kept between runs, never into the source tree), a failing input into
# FUZZ_BUILD_DIR/artifacts. Exit status: libFuzzer's, non-zero on a crash, a sanitizer report, a broken
# invariant of the target, a leak or a slow input.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: run-fuzzer.sh FUZZ_BUILD_DIR [SECONDS]}
seconds=${2:-45}
fuzzer=$build/setup_loader_fuzzer
if [ ! -x "$fuzzer" ]; then
    echo "SKIPPED: $fuzzer is not built (scripts/setup-and-build.sh builds it with clang)"
    exit 0
fi
mkdir -p "$build/corpus" "$build/artifacts"
echo "fuzzing the setup loader for $seconds s: $fuzzer"
# -timeout: one input taking seconds is a finding (the loader reads at most 1 MiB); -rss_limit_mb:
# the same for memory; -max_len: the largest lesson is about 1 KiB, leave room to grow.
"$fuzzer" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -dict="$root/tests/fuzz/setup.dict" -artifact_prefix="$build/artifacts/" \
    "$build/corpus" "$root/resources/presets" "$root/tests/fuzz/regressions" 2>&1 |
    grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|# Uses: [0-9]+$' # short log: the summary and any report
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || echo "FAILED: the fuzzer exited with $status; the input is in $build/artifacts"
exit "$status"
