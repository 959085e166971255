#!/usr/bin/env bash
# expect-refusal.sh PATTERN COMMAND...: passes when COMMAND exits 2 with exactly one line on stderr that
# matches PATTERN (the programs' promise for bad input), and prints what it saw either way.
set -uo pipefail
pattern=$1
shift
err=$("$@" 2>&1 >/dev/null)
rc=$?
printf 'exit %s, stderr:\n%s\n' "$rc" "$err"
[ "$rc" -eq 2 ] || { echo "FAIL: expected exit 2"; exit 1; }
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "FAIL: expected one line"; exit 1; }
printf '%s\n' "$err" | grep -qE "$pattern" || { echo "FAIL: expected /$pattern/"; exit 1; }
