#!/usr/bin/env bash
# House rules as a test: the pinned clang-format is applied, gpu/ is Qt-free, widgets/ is CUDA-free.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
if grep -rEl '#\s*include\s*[<"]Q[A-Za-z]' gpu >/dev/null 2>&1; then
    echo "gpu/ includes Qt headers:"; grep -rEl '#\s*include\s*[<"]Q[A-Za-z]' gpu; status=1
fi
if grep -rEl '#\s*include\s*[<"](cuda|cupti|nvrtc)' widgets >/dev/null 2>&1; then
    echo "widgets/ includes CUDA headers:"; grep -rEl '#\s*include\s*[<"](cuda|cupti|nvrtc)' widgets; status=1
fi
if command -v clang-format >/dev/null && clang-format --version | grep -q 'version 14\.'; then
    files=$(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' 2>/dev/null || find app gpu widgets tests -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh')
    bad=$(for f in $files; do clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"; done)
    if [ -n "$bad" ]; then echo "not formatted with the pinned clang-format 14:"; echo "$bad"; status=1; fi
else
    echo "SKIPPED: clang-format 14 not installed, formatting not checked"
fi
[ $status -eq 0 ] && echo "house rules: ok"
exit $status
