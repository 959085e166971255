#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost of the MPI path on one GPU (issue 22), for the lead to run on the H100 machine: 2 ranks
# sharing the GPU (mpirun -np 2, --overlap on and off) against one process and against two strips in
# one process (STENCILSCOPE_STRIPS_PER_GPU=2, the in-process exchange on one device; skipped with
# MPI_DEVICE_SKIP_STRIPS=1), R 1/4/16, 2D 16384² and 3D 512³, fp32, stream variant; then the bitwise
# tests on --backend cuda (tests/mpi/mpi_cli_test.sh: -np 2 and -np 3 against one process), within
# MPI_DEVICE_BUDGET_S seconds of the start when set. Prints a table; CSVs and logs go to $OUT (or
# ./mpi-device-out).
#
# Here, once:  bash ../shared/device/make-runtime.sh .device-rt openmpi-bin openmpi-common libopenmpi3 \
#                  libpmix2 libhwloc15 libhwloc-plugins libevent-core-2.1-7 libevent-pthreads-2.1-7 \
#                  libfabric1 libucx0 libibverbs1 libnl-3-200 libpsm2-2 libpsm-infinipath1
# After the build (-DCMAKE_CUDA_ARCHITECTURES=90):  bash ../shared/device/slim-build.sh build .device-mpi
# There:  source .device-rt/gpu-env.sh --no-x || exit 1; bash bench/mpi_device_run.sh .device-mpi
set -uo pipefail
build=${1:-build}
cli=$build/app/stencilscope-cli
out=${OUT:-mpi-device-out}
mkdir -p "$out"
[ -x "$cli" ] || { echo "mpi_device_run: $cli not found (pass the build folder)" >&2; exit 2; }

# Open MPI: the system's, or the one unpacked from the runtime folder (relocated with OPAL_PREFIX).
if ! command -v mpirun >/dev/null; then
    for prefix in /opt/rt/usr "$PWD/.device-rt/usr"; do
        if [ -x "$prefix/bin/mpirun" ]; then
            export OPAL_PREFIX=$prefix PATH=$prefix/bin:$PATH
            export LD_LIBRARY_PATH=$prefix/lib/x86_64-linux-gnu:$prefix/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
            break
        fi
    done
fi
command -v mpirun >/dev/null || { echo "mpi_device_run: no mpirun (bring openmpi-bin in .device-rt, see the header)" >&2; exit 2; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
# One node, no network: shared memory and self only (no InfiniBand probing on a machine without it).
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_rmaps_base_oversubscribe=1
mpirun --version | head -1 | tee "$out/mpi_version.txt"
"$cli" devices | head -1

common=(--backend cuda --precision fp32 --variant stream --radius 1,4,16 --repeats 5 --warmup 1 --steps 20)
for shape in "2d --size 16384x16384 --cf 2" "3d --dims 3 --size 512x512x512 --cf 1"; do
    set -- $shape
    name=$1
    shift
    rm -f "$out/one_$name.csv" "$out/strips_$name.csv" "$out/mpi_$name.csv"
    "$cli" bench "${common[@]}" "$@" --csv "$out/one_$name.csv" >"$out/one_$name.log" 2>&1 || echo "one process $name failed (see $out/one_$name.log)"
    if [ -z "${MPI_DEVICE_SKIP_STRIPS:-}" ]; then
        STENCILSCOPE_STRIPS_PER_GPU=2 "$cli" bench "${common[@]}" "$@" --gpus 1 --csv "$out/strips_$name.csv" >"$out/strips_$name.log" 2>&1 \
            || echo "two strips $name failed (see $out/strips_$name.log)"
    fi
    # Overlap on: the exchange runs while the interior computes; off: after the step (the earlier schedule).
    timeout 540 mpirun -np 2 "$cli" bench "${common[@]}" "$@" --overlap on,off --csv "$out/mpi_$name.csv" >"$out/mpi_$name.log" 2>&1 \
        || echo "mpirun -np 2 $name failed (see $out/mpi_$name.log)"
done

python3 - "$out" <<'PY'
import csv, sys, os
out = sys.argv[1]
def rows(path):
    if not os.path.exists(path): return []
    with open(path) as f: return list(csv.DictReader(f))
print("\n2 ranks sharing one H100 (mpirun -np 2, overlap on and off) vs one process vs 2 strips in one process;"
      " fp32 stream, GCells/s")
print("| domain | R | one process | 2 strips, one process | 2 ranks, overlap off | 2 ranks, overlap on | off / one |"
      " on / one | exchange ms/step off | exchange ms/step on | halo |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for name, label in (("2d", "2D 16384²"), ("3d", "3D 512³")):
    one = {r["radius"]: r for r in rows(f"{out}/one_{name}.csv")}
    strips = {r["radius"]: r for r in rows(f"{out}/strips_{name}.csv")}
    mpi = {(r["radius"], r["overlap"]): r for r in rows(f"{out}/mpi_{name}.csv") if r.get("rank") == "all"}
    for radius in ("1", "4", "16"):
        o, s = one.get(radius), strips.get(radius)
        off, on = mpi.get((radius, "off")), mpi.get((radius, "on"))
        g = lambda r: float(r["gcells_per_s"]) if r else float("nan")
        ratio = lambda m: g(m) / g(o) if o and m else float("nan")
        ex = lambda m: m["exchange_ms_per_step"] if m else "–"
        halo = (on or off or {}).get("halo_path", "–")
        print(f"| {label} | {radius} | {g(o):.1f} | {g(s):.1f} | {g(off):.1f} | {g(on):.1f} | {ratio(off):.2f} | "
              f"{ratio(on):.2f} | {ex(off)} | {ex(on)} | {halo} |")
PY

# The bitwise tests get what is left of MPI_DEVICE_BUDGET_S (seconds since this script started), if set.
limit=600
[ -n "${MPI_DEVICE_BUDGET_S:-}" ] && limit=$((MPI_DEVICE_BUDGET_S - SECONDS))
echo
echo "bitwise on --backend cuda (mpirun -np 2 and -np 3, overlap on and off, against one process; ${limit} s left):"
if [ "$limit" -gt 10 ]; then
    timeout "$limit" bash "$(dirname "$0")/../tests/mpi/mpi_cli_test.sh" "$cli" cuda >"$out/mpi_cli_test_cuda.log" 2>&1
    echo "exit $? ($(grep -c '^ok' "$out/mpi_cli_test_cuda.log") ok, $(grep -c '^FAIL' "$out/mpi_cli_test_cuda.log") FAIL; 124: cut off by the budget)"
    grep -E "^(FAIL|mpi cli tests|SKIPPED)" "$out/mpi_cli_test_cuda.log"
fi
