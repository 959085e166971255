#!/usr/bin/env bash
# expect-pngs.sh FILE... -- COMMAND...: passes when COMMAND exits 0 and leaves every FILE as a PNG image (each is
# removed first, so that a picture of an earlier run cannot pass). Prints the command's output, then "PNGs: ..."
# only when all is well (a test's PASS_REGULAR_EXPRESSION, which ignores the exit status, can end with it).
set -uo pipefail
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    files+=("$1")
    shift
done
[ $# -gt 1 ] && [ ${#files[@]} -gt 0 ] || { echo "usage: expect-pngs.sh FILE... -- COMMAND..."; exit 1; }
shift
rm -f -- "${files[@]}"
"$@"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
for f in "${files[@]}"; do
    signature=$(head -c 8 -- "$f" 2>/dev/null | od -An -tx1 | tr -d ' \n')
    [ "$signature" = "89504e470d0a1a0a" ] || { echo "FAIL: $f is not a PNG image"; exit 1; }
done
echo "PNGs: ${files[*]}"
