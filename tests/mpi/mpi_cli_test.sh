#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest mpi_cli_cpu / gpu_mpi_cli: stencilscope-cli under mpirun is bitwise one process, and refuses bad
# input in one line with a non-zero exit, never hanging. Usage: mpi_cli_test.sh CLI cpu|cuda
# CLI is the MPI-free stencilscope-cli: under mpirun it execs stencilscope-cli-mpi from its folder, so every
# case below goes through that hand-over.
set -uo pipefail
cli=$1 backend=$2
if ! command -v mpirun >/dev/null; then
    echo "SKIPPED: mpirun not found (apt-get install openmpi-bin)"
    exit 0
fi
if [ "$backend" = cuda ] && "$cli" devices | grep -q "^no CUDA device"; then
    echo "SKIPPED: no CUDA device to run kernels on"
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_rmaps_base_oversubscribe=1 # CI machines have fewer cores than ranks
failures=0
check() { # check NAME CONDITION-RESULT MESSAGE
    if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1: $3"; failures=$((failures + 1)); fi
}
ours() { grep -c '^stencilscope-cli: ' <<<"$1"; }
checksum_of() { grep -o '^checksum [0-9a-f]*' <<<"$1" | cut -d' ' -f2; }
mpi() { timeout 120 mpirun "$@"; }

# The plain program links no MPI; copied where no stencilscope-cli-mpi is beside it, it refuses in one line.
! ldd "$cli" | grep -q libmpi
check "$(basename "$cli") links no MPI" $? "$(ldd "$cli" | grep libmpi)"
alone=$(mktemp -d)
cp "$cli" "$alone/stencilscope-cli"
out=$(mpi -np 2 "$alone/stencilscope-cli" run --backend "$backend" --size 64x64 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'runs under mpirun need stencilscope-cli-mpi beside' <<<"$out"
check "without stencilscope-cli-mpi beside it: one line, non-zero exit" $? "rc $rc: $out"
rm -rf "$alone"

# Bitwise: the checksum of the final field is the one-process checksum, for 2 and 3 ranks.
cases=("--size 200x173 --radius 4 --steps 9"
    "--dims 3 --size 40x36x47 --radius 2 --rule wave --precision fp64 --init gaussian --steps 5"
    "--dims 3 --size 48x40x37 --radius 1 --variant stream --cf 2 --steps 6"
    "--stencil diffusion4 --dims 3 --size 32x32x7 --steps 4"
    "--stencil 2d25pt --size 90x77 --steps 6"
    "--stencil 3d27pt --size 30x28x33 --precision fp64 --steps 5"
    "--stencil box --dims 3 --radius 2 --size 24x22x29 --variant smem --steps 4")
[ "$backend" = cuda ] && cases+=("--size 1000x999 --radius 16 --variant smem_padded --steps 5"
    "--dims 3 --size 128x128x131 --radius 4 --variant stream --steps 5")
for c in "${cases[@]}"; do
    one=$(checksum_of "$("$cli" run --backend "$backend" $c --checksum)")
    [ -n "$one" ]
    check "one process prints a checksum: $c" $? "no checksum line"
    for n in 2 3; do
        for overlap in on off; do
            out=$(mpi -np "$n" --oversubscribe "$cli" run --backend "$backend" $c --overlap $overlap --checksum 2>&1)
            got=$(checksum_of "$out")
            [ -n "$got" ] && [ "$got" = "$one" ]
            check "-np $n overlap $overlap equals one process: $c" $? "checksum '$got' vs '$one': $(tail -3 <<<"$out")"
            [ "$(grep -c '^ranks ' <<<"$out")" -eq 1 ] && [ "$(grep -c '^  rank ' <<<"$out")" -eq "$n" ]
            check "-np $n overlap $overlap prints one report with a line per rank: $c" $? "$out"
            # The report says what ran: overlapped on CUDA, after the step on the CPU backend.
            want="overlap $overlap"
            [ "$backend" = cpu ] && [ $overlap = on ] && want="overlap off (the CPU backend exchanges after the step)"
            grep -q "^ranks .*, $want" <<<"$out"
            check "-np $n overlap $overlap: the report says '$want'" $? "$(grep '^ranks ' <<<"$out")"
        done
    done
done
# Ranks on one node copy their rows into their neighbours' ghost rows (CUDA IPC, issue 37), bitwise as the staged
# path (--halo staged), which the report names too.
if [ "$backend" = cuda ]; then
    c="--dims 3 --size 64x60x67 --radius 4 --variant stream --steps 7"
    one=$(checksum_of "$("$cli" run $c --checksum)")
    for n in 2 3; do
        for overlap in on off; do
            out=$(mpi -np "$n" "$cli" run $c --overlap $overlap --checksum 2>&1)
            [ "$(checksum_of "$out")" = "$one" ] && grep -q "^ranks .*, halo CUDA IPC peer copies (each rank copies" <<<"$out"
            check "-np $n overlap $overlap: CUDA IPC peer copies, bitwise one process" $? "$out"
            out=$(mpi -np "$n" "$cli" run $c --overlap $overlap --halo staged --checksum 2>&1)
            [ "$(checksum_of "$out")" = "$one" ] && grep -q "^ranks .*, halo MPI host buffers (--halo staged: staged" <<<"$out"
            check "-np $n overlap $overlap --halo staged: staged through host, bitwise one process" $? "$out"
            # The staged rows in pieces of 16 KiB (4 of this halo's 61.9 KiB), pipelined with overlap on.
            out=$(STENCILSCOPE_MPI_STAGE_CHUNK_KIB=16 mpi -np "$n" "$cli" run $c --overlap $overlap --halo staged --checksum 2>&1)
            want="staged through pinned host memory)"
            [ $overlap = on ] && want="staged through pinned host memory, in 4 pipelined pieces of 15 KiB)"
            [ "$(checksum_of "$out")" = "$one" ] && grep -qF "$want" <<<"$out"
            check "-np $n overlap $overlap --halo staged in 16 KiB pieces: bitwise one process, the report says '$want'" $? "$out"
        done
    done
fi
# Process grids (--ranks PxQ[xR], issue 37): boxes trading faces axis by axis, bitwise one process too; the box and
# point stencils read the corners, which arrive through two or three trades. Overlap on trades the slowest axis
# first (during the step on CUDA), so its corners travel in the other order. On CUDA the boxes 300 cells wide move
# their y and z faces by the copy engine (rows of 512 bytes or more), the narrower ones and every x face by a kernel.
grid_halo='MPI host buffers (faces packed)'
[ "$backend" = cuda ] && grid_halo="CUDA IPC peer copies (each rank copies its faces over the GPUs' link"
grid_cases=("--size 90x77 --radius 2 --steps 6:2x1 1x3 2x2 3x2"
    "--stencil box --radius 2 --size 45x38 --steps 5:2x2 3x2"
    "--stencil 3d27pt --size 30x28x33 --precision fp64 --steps 5:1x2x3 2x2x1"
    "--dims 3 --size 26x24x29 --radius 2 --rule wave --steps 4:2x1x2"
    "--size 600x90 --radius 2 --steps 6:2x2"
    "--dims 3 --size 300x20x24 --radius 1 --precision fp64 --variant stream --steps 5:2x1x2"
    "--dims 3 --size 40x45x30 --radius 3 --variant stream --cf 4 --steps 4:1x2x1 1x2x2")
for entry in "${grid_cases[@]}"; do
    c=${entry%%:*}
    one=$(checksum_of "$("$cli" run --backend "$backend" $c --checksum)")
    for grid in ${entry#*:}; do
        n=$(($(tr x '*' <<<"$grid")))
        for overlap in on off; do
            # A step finishes z's and (in 3D) y's faces first: a grid cutting neither trades after the step.
            IFS=x read -r -a counts <<<"$grid"
            early=$((counts[${#counts[@]} - 1] > 1 || (${#counts[@]} == 3 && counts[1] > 1)))
            if [ $overlap = off ]; then
                want='overlap off$'
            elif [ $early -eq 0 ]; then
                want='overlap off (the grid does not cut'
            elif [ "$backend" = cuda ]; then
                want='overlap on (the \(z and y\|z\|y\) faces travel while the rest of the box computes'
            else
                want='overlap off (the CPU backend trades after the step, \(z and y\|z\|y\) first)'
            fi
            out=$(mpi -np "$n" "$cli" run --backend "$backend" $c --ranks "$grid" --overlap $overlap --checksum 2>&1)
            got=$(checksum_of "$out")
            [ -n "$got" ] && [ "$got" = "$one" ] && [ "$(grep -c '^  rank ' <<<"$out")" -eq "$n" ] \
                && grep -q "^ranks    $n MPI processes on .* in a $grid grid, boxes of .*, halo $grid_halo.*, $want" <<<"$out"
            check "--ranks $grid overlap $overlap equals one process and says the grid: $c" $? \
                "checksum '$got' vs '$one' (want '$want'): $out"
        done
    done
done
# On GPUs the faces go by peer copies (one node); --halo staged packs them on the GPU and stages them.
if [ "$backend" = cuda ]; then
    c="--stencil 3d27pt --size 30x28x33 --precision fp64 --steps 5"
    one=$(checksum_of "$("$cli" run --backend cuda $c --checksum)")
    for overlap in on off; do
        out=$(mpi -np 4 "$cli" run --backend cuda $c --ranks 1x2x2 --overlap $overlap --halo staged --checksum 2>&1)
        [ "$(checksum_of "$out")" = "$one" ] && grep -q "^ranks .*halo MPI host buffers (faces packed on the GPU, staged through pinned host memory; --halo staged)" <<<"$out"
        check "--ranks 1x2x2 --halo staged overlap $overlap: bitwise one process, packed on the GPU" $? "$out"
    done
fi
# Without --ranks, four ranks take MPI_Dims_create's 2x2 (the most ranks on the longest axis), bitwise one process.
c="--size 90x77 --radius 2 --steps 6"
one=$(checksum_of "$("$cli" run --backend "$backend" $c --checksum)")
out=$(mpi -np 4 "$cli" run --backend "$backend" $c --checksum 2>&1)
[ "$(checksum_of "$out")" = "$one" ] && grep -q "^ranks    4 MPI processes on .* in a 2x2 grid (MPI_Dims_create's" <<<"$out"
check "-np 4 without --ranks runs the 2x2 grid, bitwise one process" $? "$out"
out=$(mpi -np 4 "$cli" run --backend "$backend" --size 64x64 --ranks 3x2 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(ours "$out")" -eq 1 ] && grep -q -- '--ranks 3x2: the grid holds 6 ranks, the run has 4' <<<"$out"
check "a grid that is not the rank count: one line, exit 2" $? "rc $rc: $out"
start=$(date +%s)
out=$(STENCILSCOPE_MPI_TIMEOUT_S=2 STENCILSCOPE_MPI_TEST_SILENT_RANK=1 STENCILSCOPE_MPI_TEST_SILENT_AFTER=2 \
    mpi -np 4 "$cli" run --backend "$backend" --size 64x64 --steps 6 --ranks 2x2 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'no ghost rows from rank 1 within 2 s at exchange 3 ' <<<"$out"
check "a grid rank silent from the 3rd exchange ends the job ($(($(date +%s) - start)) s)" $? "rc $rc: $out"

a=$(checksum_of "$("$cli" run --backend "$backend" --size 200x173 --radius 4 --steps 8 --checksum)")
b=$(checksum_of "$("$cli" run --backend "$backend" --size 200x173 --radius 4 --steps 9 --checksum)")
[ "$a" != "$b" ]
check "the checksum sees one more step" $? "both $a"

# The CSV: one row per rank plus the total, written once (by rank 0).
csv=$(mktemp -d)/mpi.csv
mpi -np 3 "$cli" bench --backend "$backend" --size 256x200 --radius 2 --repeats 2 --warmup 1 --csv "$csv" >/dev/null 2>&1
[ "$(wc -l <"$csv")" -eq 5 ] && tail -1 "$csv" | grep -q ',3,all,'
check "bench CSV: header, 3 rank rows, the total" $? "$(cat "$csv" 2>&1)"

# profile: each rank profiles its own strip in turn; rank 0 reports every rank and writes the CSV.
if [ "$backend" = cuda ]; then
    csv=$(mktemp -d)/profile.csv
    out=$(mpi -np 2 "$cli" profile --size 512x500 --radius 2 --steps 3 --launches 2 --csv "$csv" 2>&1)
    rc=$?
    [ $rc -eq 0 ] && [ "$(grep -c '^rank [01]: launch [12] (step [0-9]*) on GPU' <<<"$out")" -eq 4 ] \
        && grep -q '^rank 0: launch 1 (step 4) on GPU [0-9]* (.*, rows 0-249 along y)' <<<"$out" \
        && grep -q '^rank 1: launch 2 (step 8) on GPU [0-9]* (.*, rows 250-499 along y)' <<<"$out"
    check "profile under mpirun: a report per rank and launch, each on its own rows" $? "rc $rc: $out"
    # Two ranks on one GPU form no whole-run figure; on two GPUs the total follows each launch.
    shared=$(grep -c 'ranks share a GPU' <<<"$out")
    rows=$((1 + 4 + (shared == 0 ? 2 : 0)))
    [ "$(wc -l <"$csv")" -eq $rows ] && grep -q ',2,1$' "$csv"
    check "profile CSV: header and a row per rank and launch ($rows lines)" $? "$(cat "$csv" 2>&1)"
else
    out=$(mpi -np 2 "$cli" profile --backend cpu --size 64x64 2>&1)
    rc=$?
    [ $rc -eq 2 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'profile reads GPU counters: use --backend cuda' <<<"$out"
    check "profile under mpirun on the CPU backend" $? "rc $rc: $out"
fi
# profile --continuous: each rank samples its own GPU while the ranks step; a line per rank, then the job. Ranks
# sharing a GPU are refused in one line (one sampler per GPU); the CPU backend has no counters.
csv=$(mktemp -d)/continuous.csv
out=$(mpi -np 2 "$cli" profile --backend "$backend" --continuous 1 --dims 3 --size 256x256x256 --radius 2 --csv "$csv" 2>&1)
rc=$?
if [ "$backend" = cpu ]; then
    [ $rc -eq 2 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'profile reads GPU counters: use --backend cuda' <<<"$out"
    check "profile --continuous under mpirun on the CPU backend" $? "rc $rc: $out"
elif grep -q 'samples each GPU from one rank' <<<"$out"; then
    [ $rc -eq 2 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'rank 1 shares .* GPU 0 with another: start one rank per GPU' <<<"$out"
    check "profile --continuous, two ranks on one GPU: one line, exit 2" $? "rc $rc: $out"
else
    [ $rc -eq 0 ] && [ "$(grep -c '^  rank [01] GPU [0-9]* on .*: [1-9][0-9]* samples over .*DRAM read' <<<"$out")" -eq 2 ] \
        && grep -q '^job      DRAM read [1-9]' <<<"$out" && [ "$(wc -l <"$csv")" -eq 4 ] && tail -1 "$csv" | grep -q '^2,all,'
    check "profile --continuous under mpirun: a line per rank and the job, CSV rows per rank and all" $? "rc $rc: $out"
fi

# Bad input: one line from rank 0 (mpirun adds its own report), exit 2, no hang.
out=$(mpi -np 1 "$cli" run --backend "$backend" --size 64x64 : -np 1 "$cli" run --backend "$backend" --size 64x65 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'started with different options' <<<"$out"
check "options differing between ranks" $? "rc $rc: $out"
out=$(mpi -np 3 "$cli" run --backend "$backend" --size 64x12 --radius 4 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'too small for 3 ranks' <<<"$out"
check "a domain too small for the ranks" $? "rc $rc: $out"
out=$(mpi -np 2 "$cli" run --backend "$backend" --size 64x64 --verify 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(ours "$out")" -eq 1 ] && grep -q -- '--verify is not available under mpirun' <<<"$out"
check "--verify under mpirun" $? "rc $rc: $out"
if [ "$backend" = cpu ] && "$cli" devices | grep -q "^no CUDA device"; then
    out=$(mpi -np 2 "$cli" run --backend cuda --size 64x64 2>&1)
    rc=$?
    [ $rc -ne 0 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'rank 0: --backend cuda, but this rank has no CUDA device' <<<"$out"
    check "--backend cuda on ranks without a GPU" $? "rc $rc: $out"
fi
start=$(date +%s)
out=$(STENCILSCOPE_MPI_TIMEOUT_S=3 STENCILSCOPE_MPI_TEST_SILENT_RANK=1 mpi -np 2 "$cli" run --backend "$backend" --size 64x64 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(ours "$out")" -eq 1 ] && [ "$(grep -c 'no ghost rows' <<<"$out")" -eq 1 ] \
    && grep -q 'no ghost rows from rank 1 within 3 s at exchange 1 ' <<<"$out"
check "a silent rank ends the job after the first exchange's timeout ($(($(date +%s) - start)) s)" $? "rc $rc: $out"
for overlap in on off; do # a stall later on ends the job too
    start=$(date +%s)
    out=$(STENCILSCOPE_MPI_TIMEOUT_S=2 STENCILSCOPE_MPI_TEST_SILENT_RANK=0 STENCILSCOPE_MPI_TEST_SILENT_AFTER=4 \
        mpi -np 3 "$cli" run --backend "$backend" --size 64x64 --steps 9 --overlap $overlap 2>&1)
    rc=$?
    # Ranks 0 and 2 time out too, one exchange later: only the rank nearest the stall says it.
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(ours "$out")" -eq 1 ] && [ "$(grep -c 'no ghost rows' <<<"$out")" -eq 1 ] \
        && grep -q 'rank 1: no ghost rows from rank 0 within 2 s at exchange 5 ' <<<"$out"
    check "overlap $overlap: a rank silent from the 5th exchange ends the job ($(($(date +%s) - start)) s)" $? "rc $rc: $out"
done

# Issue 36: checked before the work. A list whose later combination is too small for the ranks runs nothing and
# writes nothing; a command that does not split a domain, and a knob value not taken, are refused in one line.
csv=$(mktemp -d)/list.csv
out=$(mpi -np 3 "$cli" run --backend "$backend" --size 64x30 --radius 1,8 --csv "$csv" 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'combination 2 of 2 .*too small for 3 ranks' <<<"$out" \
    && [ ! -e "$csv" ] && ! grep -q '^config' <<<"$out"
check "a list with a later combination too small for the ranks: refused before the first runs" $? "rc $rc: $out"
out=$(mpi -np 3 "$cli" sweep --experiment radius --backend "$backend" --size 64x64 --radius 1 --repeats 1 2>&1)
rc=$?
[ $rc -ne 0 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'under mpirun only run, bench and profile' <<<"$out" \
    && ! grep -q '^sweep ' <<<"$out"
check "sweep under mpirun: one line, nothing run" $? "rc $rc: $out"
out=$(STENCILSCOPE_MPI_TIMEOUT_S=inf mpi -np 2 "$cli" run --backend "$backend" --size 64x64 2>&1)
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(ours "$out")" -eq 1 ] && grep -q 'STENCILSCOPE_MPI_TIMEOUT_S=inf' <<<"$out"
check "STENCILSCOPE_MPI_TIMEOUT_S=inf: one line, no wait" $? "rc $rc: $out"

[ $failures -eq 0 ] && echo "mpi cli tests: all passed" || echo "mpi cli tests: $failures failed"
exit $((failures > 0))
