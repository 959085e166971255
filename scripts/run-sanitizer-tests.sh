#!/usr/bin/env bash
# The host tests of the ASan + UBSan build (preset asan, built into build-asan by setup-and-build.sh), run
# from the main build's ctest (test sanitizers) so that CI's second command covers them.
#   scripts/run-sanitizer-tests.sh ASAN_BUILD_DIR [extra ctest arguments]
# Fails on a failing test and on any sanitizer report, whatever the exit codes said: ASan and LSan reports
# of every process (cli_tests starts stencilscope-cli) go to log files, UBSan halts on its first report
# (-fno-sanitize-recover) and prints it, and the whole verbose ctest log is searched for reports.
# nvrtc_compile_tests is left out: NVRTC itself is not instrumented and the test took 8 min under ASan on
# two cores (the main build runs it). mpi_cli_cpu is left out too: Open MPI's own allocations at MPI_Init
# and MPI_Finalize are reported by LeakSanitizer, from frames it cannot symbolise; the MPI driver is
# tested by the main build's mpi_cli_cpu, and its strips (gpu/backends/rank_strip) by engine_host_tests here.
set -uo pipefail
build=${1:?usage: run-sanitizer-tests.sh ASAN_BUILD_DIR [ctest arguments]}
shift
if [ ! -f "$build/CTestTestfile.cmake" ]; then
    echo "SKIPPED: no sanitizer build in $build (scripts/setup-and-build.sh builds it: cmake --preset asan)"
    exit 0
fi
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
# protect_shadow_gap=0: the CUDA driver maps memory in ASan's shadow gap when a GPU is present.
# intercept_tls_get_addr=0: NVRTC, loaded with dlopen, has thread-local storage; GCC 12's runtime guesses the
# bounds of such blocks from their address and, for some layouts, reads a bogus range, and LeakSanitizer's
# tracer then crashes at exit ("Tracer caught signal 11", DTLS at 0x803-...). Leaks are still checked; only
# the dynamic TLS of dlopen'd libraries is not scanned as a root.
export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_string_checks=1:protect_shadow_gap=0:intercept_tls_get_addr=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
log=$reports/ctest.log
ctest --test-dir "$build" -L host -LE "nvrtc|mpi" -V "$@" >"$log" 2>&1
status=$?
grep -E '^ *[0-9]+/[0-9]+ Test +#|tests passed|Total Test time' "$log" # the summary, as ctest prints it
if [ "$status" -ne 0 ]; then
    echo "FAILED: ctest exited with $status; its verbose log:"
    cat "$log"
fi
if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: [A-Za-z]+Sanitizer' "$log"; then
    echo "FAILED: a sanitizer reported in the test output:"
    grep -E -B2 -A20 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"
    status=1
fi
for report in "$reports"/asan*; do
    [ -e "$report" ] || continue
    echo "FAILED: sanitizer report $(basename "$report"):"
    cat "$report"
    status=1
done
[ "$status" -eq 0 ] && echo "sanitizers: every host test passed without a report"
exit "$status"
