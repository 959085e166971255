#!/usr/bin/env bash
# The host and GUI tests of the CPU-only build (-DSTENCILSCOPE_CUDA=OFF, built into build-cpu by
# setup-and-build.sh), run from the main build's ctest (test cpu_only_build_tests) so that CI's second
# command covers both configurations. The sanitizer, fuzz and package tests belong to the main build, and
# house_rules reads the same sources there.
#   scripts/run-cpu-only-tests.sh CPU_ONLY_BUILD_DIR [extra ctest arguments]
set -uo pipefail
build=${1:?usage: run-cpu-only-tests.sh CPU_ONLY_BUILD_DIR [ctest arguments]}
shift
if [ ! -f "$build/CTestTestfile.cmake" ]; then
    echo "SKIPPED: no CPU-only build in $build (scripts/setup-and-build.sh builds it: cmake -DSTENCILSCOPE_CUDA=OFF)"
    exit 0
fi
if ! "$build/app/stencilscope-cli" --version 2>&1 | grep -q '^CUDA: this build has no CUDA backend'; then
    echo "FAILED: $build/app/stencilscope-cli is missing or not from a CPU-only build (-DSTENCILSCOPE_CUDA=OFF)"
    exit 1
fi
ctest --test-dir "$build" -L "host|gui" -LE "sanitizers|fuzz|package" -E "^house_rules$" --output-on-failure "$@"
