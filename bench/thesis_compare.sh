#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# StencilScope's thesis variants side by side with the thesis' own kernels (github.com/mrfarstad/thesis,
# issue 19). No thesis code enters this repository: `build` compiles a checkout of it that lives elsewhere.
#
#   bench/thesis_compare.sh build THESIS_SRC OUT [JOBS]
#       here (no GPU needed): for every configuration below, nvcc the thesis' kernels, launch code and
#       block heuristic (its compile-time -D flags, as its Makefile passes them, for sm_90) with
#       bench/thesis_timer.cu as main, into OUT/thesis_<2|3>d_<variant>_cf<CF>_r<R> (logs in OUT/logs).
#       THESIS_SRC: git clone https://github.com/mrfarstad/thesis (outside this tree).
#   bench/thesis_compare.sh run THESIS_BUILD CLI OUT [only-thesis|only-stencilscope]
#       on the GPU: runs every thesis binary in THESIS_BUILD (a folder from `build`, or a .tar.xz of one)
#       and `CLI bench` on the same configurations, writes OUT/thesis.csv and OUT/stencilscope_{2,3}d.csv,
#       and prints the ratio table (bench/thesis_table.py).
#
# Configurations (issue 19): variant {base, smem, smem_padded} x CF {1,2,4,8} x R {1,2,4,8,16} x 2D/3D,
# fp32, the thesis' sizes (32768², 1024³) and update rule (`--rule thesis`), heuristic blocks, 8 steps per
# timed run, one warm-up and the median of 3 timed runs on both sides.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
variants="base smem smem_padded" cfs="1 2 4 8" radii="1 2 4 8 16"
steps=8 repeats=3

build_one() { # SRC OUT DIMS VARIANT CF R
    local src=$1 out=$2 dims=$3 v=$4 cf=$5 r=$6
    local name="thesis_${dims}d_${v}_cf${cf}_r${r}" dim=32768 smem="" padded=false
    [ "$dims" = 3 ] && dim=1024
    [ "$v" != base ] && smem="-D SMEM=true"
    [ "$v" = smem_padded ] && padded=true
    # BLOCK_* only seed the heuristic (HEURISTIC=1: listing 3.18 picks the block at run time). The thesis'
    # Makefile also passes -lineinfo; it changes no code but triples the binaries (line tables of every kernel).
    # SASS for sm_90 only (no PTX): the binaries travel to the GPU machine.
    # shellcheck disable=SC2086
    if "${NVCC:-nvcc}" "$here/thesis_timer.cu" -O3 -o "$out/$name" -I"$src" -rdc=true -cudart shared \
        -lcudadevrt -gencode arch=compute_90,code=sm_90 -Xptxas -v \
        -D BLOCK_X=32 -D BLOCK_Y=32 -D BLOCK_Z=1 -D DIM=$dim -D RADIUS="$r" $smem -D NGPUS=1 -D ITERATIONS=$steps \
        -D REPEATS=$repeats -D DIMENSIONS="$dims" -D COARSEN_X="$cf" -D SMEM_PAD=0 -D PADDED=$padded \
        -D REGISTER=false -D HEURISTIC=1 >"$out/logs/$name.log" 2>&1; then
        echo "built $name"
    else
        echo "FAILED $name (see $out/logs/$name.log)"
    fi
}

case ${1:-} in
build)
    [ $# -ge 3 ] || { echo "usage: $0 build THESIS_SRC OUT [JOBS]" >&2; exit 2; }
    src=$(cd "$2" && pwd) out=$3 jobs=${4:-$(nproc)}
    [ -f "$src/src/stencil_dispatch.cu" ] || { echo "$src is not a checkout of mrfarstad/thesis" >&2; exit 2; }
    mkdir -p "$out/logs"
    out=$(cd "$out" && pwd)
    export -f build_one
    export here steps repeats
    for dims in 2 3; do for v in $variants; do for cf in $cfs; do for r in $radii; do
        [ -x "$out/thesis_${dims}d_${v}_cf${cf}_r${r}" ] || echo "$src $out $dims $v $cf $r"
    done; done; done; done | xargs -r -P "$jobs" -L 1 bash -c 'build_one "$@"' _
    ;;
run)
    [ $# -ge 4 ] || { echo "usage: $0 run THESIS_BUILD CLI OUT [only-thesis|only-stencilscope]" >&2; exit 2; }
    build=$2 cli=$3 out=$4 only=${5:-}
    mkdir -p "$out"
    if [[ $build == *.tar.xz ]]; then
        unpacked=$(mktemp -d)
        tar -xJf "$build" -C "$unpacked"
        build=$(dirname "$(find "$unpacked" -name 'thesis_2d_base_cf1_r1' | head -1)")
    fi
    # The thesis side: one process per configuration (its sizes are compile-time constants).
    if [ "$only" != only-stencilscope ]; then
        csv=$out/thesis.csv
        echo "dims,variant,cf,radius,block,ms_per_step_runs,ms_per_step" >"$csv"
        for dims in 2 3; do for v in $variants; do for cf in $cfs; do for r in $radii; do
            name="thesis_${dims}d_${v}_cf${cf}_r${r}"
            if [ ! -x "$build/$name" ]; then
                echo "$dims,$v,$cf,$r,,not built," >>"$csv"
                continue
            fi
            log=$("$build/$name" 2>&1) && rc=0 || rc=$?
            block=$(sed -nE 's/.*BLOCK_X=([0-9]+) BLOCK_Y=([0-9]+) BLOCK_Z=([0-9]+).*/\1x\2x\3/p' <<<"$log" | head -1)
            runs=$(sed -nE 's/^ms_per_step ([0-9.]+)$/\1/p' <<<"$log" | paste -sd ' ')
            if [ $rc -ne 0 ] || [ -z "$runs" ]; then
                # the thesis exits 1 without a message when its smem_padded rule (every block dim >= R) fails
                echo "$dims,$v,$cf,$r,$block,refused (exit $rc),"
            else
                echo "$dims,$v,$cf,$r,$block,$runs,$(tr ' ' '\n' <<<"$runs" | sort -g | sed -n "$(((repeats + 1) / 2))p")"
            fi >>"$csv"
            tail -1 "$csv"
        done; done; done; done
    fi
    # StencilScope: one process per dimensionality, so the field is generated once and the copy roofline
    # is measured once in the same process.
    if [ "$only" != only-thesis ]; then
        common=(bench --rule thesis --precision fp32 --radius 1,2,4,8,16 --variant base,smem,smem_padded
            --cf 1,2,4,8 --steps $steps --repeats $repeats --warmup 1)
        rm -f "$out/stencilscope_2d.csv" "$out/stencilscope_3d.csv"
        "$cli" "${common[@]}" --dims 2 --size 32768x32768 --csv "$out/stencilscope_2d.csv" >"$out/stencilscope_2d.log"
        "$cli" "${common[@]}" --dims 3 --size 1024x1024x1024 --csv "$out/stencilscope_3d.csv" >"$out/stencilscope_3d.log"
    fi
    if [ -f "$out/thesis.csv" ] && [ -f "$out/stencilscope_3d.csv" ]; then
        python3 "$here/thesis_table.py" "$out/thesis.csv" "$out/stencilscope_2d.csv" "$out/stencilscope_3d.csv"
    fi
    ;;
*)
    sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
