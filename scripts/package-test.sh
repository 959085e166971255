#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian package, end to end: build it (cpack), lint it (lintian: any error fails), install it with
# apt-get, then run the installed programs (stencilscope-cli --version and a short CPU run with --verify,
# stencilscope --version, a one-frame scripted GUI run on Qt's offscreen platform) twice: with the CUDA
# toolkit as it is, and with it hidden (a tmpfs over every /usr/local/cuda* folder in a private mount
# namespace, `unshare -m`), where both programs must still start, say NVRTC is missing, and run on the CPU.
# Where MPI was built, stencilscope-mpi (stencilscope-cli-mpi) is a second package: stencilscope alone must
# neither depend on Open MPI nor link it, and refuse an mpirun start in one line; with stencilscope-mpi
# installed too, stencilscope-cli under mpirun hands over to stencilscope-cli-mpi and splits the run.
# Where unshare is not permitted, the hidden run falls back to STENCILSCOPE_CUDA_LIBS pointing nowhere
# (NVRTC and CUPTI are then looked for there only) and, everything else passed, ends with a SKIPPED line
# that makes ctest report the test Skipped (visible in CI). The package is removed again at the end.
#   scripts/package-test.sh BUILD_DIR
# It installs system-wide, so it runs only where asked: in CI (CI=true) or with STENCILSCOPE_PACKAGE_TEST=1;
# ctest's package_test reports Skipped otherwise.
set -euo pipefail
build=$(cd "${1:?usage: package-test.sh BUILD_DIR}" && pwd)
if [ "${CI:-}" != true ] && [ "${STENCILSCOPE_PACKAGE_TEST:-}" != 1 ]; then
    echo "SKIPPED: the package test installs system-wide; it runs in CI or with STENCILSCOPE_PACKAGE_TEST=1"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if ! sudo -n true 2>/dev/null; then
        echo "SKIPPED: installing the package needs root (or sudo without a password)"
        exit 0
    fi
    SUDO="sudo -n"
fi
export DEBIAN_FRONTEND=noninteractive
work=$(mktemp -d)
installed_here=0
cleanup() {
    if [ "$installed_here" = 1 ]; then $SUDO apt-get remove -y -qq stencilscope stencilscope-mpi >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
step() { echo "package-test: $*"; }
fail() {
    echo "package-test: FAIL: $*" >&2
    exit 1
}

step "building the package"
with_mpi=0
cmake --build "$build" --target help | grep -q '^[^ ]*stencilscope-cli-mpi:' && with_mpi=1
targets=(stencilscope stencilscope-cli package_files)
[ $with_mpi = 0 ] || targets+=(stencilscope-cli-mpi)
cmake --build "$build" --target "${targets[@]}" >/dev/null
(cd "$build" && rm -f stencilscope_*.deb stencilscope-mpi_*.deb && cpack -G DEB >"$work/cpack.log" 2>&1) || {
    cat "$work/cpack.log"
    fail "cpack failed"
}
deb=$(ls "$build"/stencilscope_*.deb)
debs=("$deb")
[ $with_mpi = 0 ] || debs+=("$(ls "$build"/stencilscope-mpi_*.deb)")
for d in "${debs[@]}"; do dpkg-deb --field "$d" Package Version Depends Recommends Suggests; done
# The main package must not bring Open MPI: a laptop installs it without MPI.
if dpkg-deb --field "$deb" Depends Recommends | grep -qi mpi; then fail "stencilscope depends on or recommends MPI"; fi

command -v lintian >/dev/null || $SUDO apt-get install -y -qq --no-install-recommends lintian >/dev/null
for d in "${debs[@]}"; do
    step "lintian $(basename "$d")"
    # Errors fail; warnings and the rest are printed (as root, lintian adds a note that it prefers not to be).
    set +e
    lintian --fail-on error "$d" >"$work/lintian.txt" 2>&1
    status=$?
    set -e
    grep -v "running with root privileges" "$work/lintian.txt" || true
    if [ "$status" -ne 0 ] || grep -q '^E: ' "$work/lintian.txt"; then fail "lintian reports errors (exit $status)"; fi
    step "lintian: no errors"
done

if dpkg -s stencilscope >/dev/null 2>&1 || dpkg -s stencilscope-mpi >/dev/null 2>&1; then
    step "stencilscope is installed already: it is replaced by this build and left installed"
else
    installed_here=1
fi
step "apt-get install $deb"
$SUDO apt-get install -y -qq "$deb" >"$work/apt.log" 2>&1 || {
    cat "$work/apt.log"
    fail "apt-get install failed"
}
if ldd /usr/bin/stencilscope-cli | grep -q libmpi; then
    ldd /usr/bin/stencilscope-cli | grep libmpi
    fail "the installed stencilscope-cli links MPI"
fi
for f in /usr/bin/stencilscope /usr/bin/stencilscope-cli /usr/share/man/man1/stencilscope.1.gz \
    /usr/share/man/man1/stencilscope-cli.1.gz /usr/share/doc/stencilscope/copyright \
    /usr/share/doc/stencilscope/changelog.gz; do
    [ -e "$f" ] || fail "$f is not installed"
done
# Every page and picture the installed README and user guide link to is installed beside them.
doc=/usr/share/doc/stencilscope
for page in README.md USER_GUIDE.md; do
    for target in $(grep -oE '\]\([^)# ]+' "$doc/$page" | cut -c3- | grep -vE '^[a-z]+:'); do
        [ -e "$doc/$target" ] || fail "the installed $page links to $target, which is not installed"
    done
done
step "the installed README and user guide: every link resolves"

# MPI: stencilscope alone refuses an mpirun start in one line; with stencilscope-mpi it hands over and splits.
if [ $with_mpi = 1 ] && command -v mpirun >/dev/null; then
    under_mpirun() {
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
            timeout 120 mpirun -np 2 /usr/bin/stencilscope-cli run --backend cpu --size 96x64 --steps 4 2>&1
    }
    if ! dpkg -s stencilscope-mpi >/dev/null 2>&1; then
        set +e
        out=$(under_mpirun)
        rc=$?
        set -e
        if [ $rc -eq 0 ] || [ "$(grep -c '^stencilscope-cli: runs under mpirun need stencilscope-cli-mpi' <<<"$out")" -ne 1 ]; then
            echo "$out"
            fail "stencilscope alone under mpirun: not one refusal line and a non-zero exit (exit $rc)"
        fi
        step "stencilscope alone under mpirun: refused in one line"
    fi
    mpi_deb=${debs[1]}
    step "apt-get install $mpi_deb"
    $SUDO apt-get install -y -qq "$mpi_deb" >"$work/apt.log" 2>&1 || {
        cat "$work/apt.log"
        fail "apt-get install of stencilscope-mpi failed"
    }
    [ -x /usr/bin/stencilscope-cli-mpi ] && [ -e /usr/share/man/man1/stencilscope-cli-mpi.1.gz ] \
        && [ -e /usr/share/doc/stencilscope-mpi/copyright ] || fail "stencilscope-mpi's files are not installed"
    out=$(under_mpirun) || { echo "$out"; fail "stencilscope-cli under mpirun with stencilscope-mpi exited $?"; }
    [ "$(grep -c '^ranks  *2 MPI processes' <<<"$out")" -eq 1 ] && [ "$(grep -c '^  rank ' <<<"$out")" -eq 2 ] \
        || { echo "$out"; fail "stencilscope-cli under mpirun did not split the run over 2 ranks"; }
    step "stencilscope-cli under mpirun, stencilscope-mpi installed: handed over, one report for 2 ranks"
fi

# The installed programs, run from $work; $1 names the case, $2 the word the NVRTC line must carry.
cat >"$work/run-installed.sh" <<'EOF'
set -euo pipefail
case_name=$1 nvrtc_expected=$2 out=$3
fail() { echo "package-test: FAIL ($case_name): $*" >&2; exit 1; }
programs=(/usr/bin/stencilscope /usr/bin/stencilscope-cli)
[ ! -e /usr/bin/stencilscope-cli-mpi ] || programs+=(/usr/bin/stencilscope-cli-mpi)
if ldd "${programs[@]}" | grep -q 'not found'; then
    ldd "${programs[@]}" | grep 'not found'
    fail "a shared library is missing"
fi
/usr/bin/stencilscope-cli --version >"$out/cli-version.txt" || fail "stencilscope-cli --version exited $?"
cat "$out/cli-version.txt"
# A CPU-only build (-DSTENCILSCOPE_CUDA=OFF) looks for no CUDA library: it says so instead.
grep -q '^CUDA: this build has no CUDA backend' "$out/cli-version.txt" && nvrtc_expected=""
[ -z "$nvrtc_expected" ] || grep -qE "^  NVRTC 13 +$nvrtc_expected" "$out/cli-version.txt" \
    || fail "the NVRTC line does not say '$nvrtc_expected'"
/usr/bin/stencilscope-cli run --backend cpu --size 96x64 --steps 4 --verify >"$out/cli-run.txt" \
    || fail "stencilscope-cli run exited $?"
grep -q 'verify .*PASS' "$out/cli-run.txt" || fail "the CPU run did not verify"
/usr/bin/stencilscope --version >"$out/gui-version.txt" || fail "stencilscope --version exited $?"
grep -q '^stencilscope [0-9]' "$out/gui-version.txt" || fail "stencilscope --version printed no version"
[ -z "$nvrtc_expected" ] || grep -qE "^  NVRTC 13 +$nvrtc_expected" "$out/gui-version.txt" \
    || fail "the GUI's NVRTC line does not say '$nvrtc_expected'"
rm -f "$out/frame.png"
QT_QPA_PLATFORM=offscreen /usr/bin/stencilscope --size 96x64 --frames 1 --screenshot "$out/frame.png" \
    >"$out/gui-run.txt" 2>&1 || { cat "$out/gui-run.txt"; fail "the one-frame GUI run exited non-zero"; }
[ -s "$out/frame.png" ] || fail "the one-frame GUI run wrote no screenshot"
echo "package-test: $case_name: cli --version, cli run --verify, stencilscope --version, one GUI frame: ok"
EOF

step "installed programs, the CUDA toolkit as it is"
if [ -e /usr/local/cuda/lib64/libnvrtc.so.13 ] || ldconfig -p | grep -q 'libnvrtc.so.13 '; then
    toolkit_nvrtc=/ # its path
else
    toolkit_nvrtc="not found"
fi
bash "$work/run-installed.sh" "toolkit present" "$toolkit_nvrtc" "$work"

step "installed programs, the CUDA toolkit hidden"
hide=""
for d in /usr/local/cuda /usr/local/cuda-*; do
    [ -e "$d" ] && hide="$hide $(readlink -f "$d")"
done
hide=$(echo "$hide" | tr ' ' '\n' | sort -u | tr '\n' ' ')
mounts=""
for d in $hide; do mounts="$mounts mount -t tmpfs stencilscope-no-cuda $d &&"; done
# The probe mounts too: a container may allow the namespace but not the mount.
if [ -n "$hide" ] && $SUDO unshare -m sh -c "$mounts true" 2>/dev/null; then
    step "unshare -m: tmpfs over$hide"
    $SUDO unshare -m sh -c "$mounts test ! -e /usr/local/cuda/bin/nvcc && bash $work/run-installed.sh 'toolkit hidden' 'not found' $work"
elif [ -z "$hide" ]; then
    step "no /usr/local/cuda* here: the run above was already without the toolkit"
    STENCILSCOPE_CUDA_LIBS=/nonexistent-stencilscope bash "$work/run-installed.sh" "no toolkit" "not found" "$work"
else
    step "unshare -m is not permitted here: FALLBACK, the toolkit stays mounted and STENCILSCOPE_CUDA_LIBS points"
    step "nowhere, so NVRTC and CUPTI are looked for there only (the driver, if any, is still found)"
    STENCILSCOPE_CUDA_LIBS=/nonexistent-stencilscope bash "$work/run-installed.sh" "toolkit hidden by STENCILSCOPE_CUDA_LIBS" \
        "not found" "$work"
    # Everything passed, but the toolkit was not really hidden: ctest reports the test Skipped, with why.
    echo "SKIPPED: all checks passed, but unshare -m was not permitted: the run without the toolkit used"
    echo "STENCILSCOPE_CUDA_LIBS=/nonexistent-stencilscope instead of hiding /usr/local/cuda*"
    exit 0
fi
echo "package-test: PASS"
