#!/usr/bin/env bash
# Session 37, call 2 (two GPUs): 37, y's faces traded during the step (3D): (1) RankBoxes.* (the overlapped boxes on
# one GPU, bitwise one GPU) and the kernel tests (every 3D kernel now steps by PLANE_STRIDE); (2) the 3D kernels
# before (old, 811026a) and after the stride change, by default, two rounds alternating; (3) two ranks on two GPUs,
# 3D 1024^3 and 512^3 stream fp32: --ranks 1x2x1 overlap on (y hidden, new) and off (the old behaviour for a grid
# that leaves z whole), 1x1x2 on, against one process on two GPUs.
source .device-rt/gpu-env.sh --no-x >/dev/null 2>&1 || exit 1
source tmp-device/s37/mpi_env.sh
R=/tmp/r2; mkdir -p $R; trap 'tar czf $OUT/r2.tgz -C /tmp r2' EXIT
tar xJf .device-build/bin.txz -C .device-build
B=$PWD/.device-build; A=$B/app/stencilscope-cli
mkdir -p /tmp/ab && tar xJf tmp-device/s37/old-cli.txz -C /tmp/ab && mv /tmp/ab/stencilscope-cli /tmp/ab/old-cli && cp $A /tmp/ab/new-cli
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/topo.txt 2>&1
(cd $B/tests && timeout 240 ./gpu_multi_tests --gtest_filter='RankBoxes.*' > $R/rank_boxes.log 2>&1; echo "rank boxes rc $?"; grep -E "PASSED|FAILED|Failure|first difference" $R/rank_boxes.log | head -8)
(cd $B/tests && timeout 150 ./gpu_kernel_tests > $R/kernel_tests.log 2>&1; echo "kernel tests rc $?"; tail -1 $R/kernel_tests.log)
for round in 1 2; do
  for cli in old new; do
    for c in "--radius 1 --precision fp32 --variant stream" "--radius 4 --precision fp32 --variant stream" "--radius 4 --precision fp64 --variant stream" "--radius 2 --precision fp32 --variant smem" "--stencil 3d27pt --precision fp32 --variant stream"; do
      n=$(echo $c | tr -d ' -' | cut -c1-40)
      timeout 40 /tmp/ab/$cli-cli bench --dims 3 --size 512x512x512 $c --steps 20 --warmup 1 --repeats 3 > $R/ab-$cli-$n-$round.log 2>&1
      echo "$round $cli $n $(grep -E '^rate' $R/ab-$cli-$n-$round.log | awk '{print $2}')"
    done
  done
done | tee $R/ab.txt | sort -k3,3 -k2 | awk '{k=$3" "$2; v[k]=v[k]" "$4} END {for (k in v) print k":"v[k]}' | sort
line() { echo "$1 rc $2: $(grep -E '^rate' $R/$1.log | head -1 | cut -c1-30) | $(grep -E '^ranks' $R/$1.log | grep -o 'overlap.*' | cut -c1-90) | $(grep -E '^  rank 0' $R/$1.log | cut -c1-150)"; }
for size in 1024x1024x1024 512x512x512; do
  s="bench --backend cuda --dims 3 --size $size --precision fp32 --variant stream --radius 4 --repeats 3 --warmup 1 --steps 10"
  timeout 90 $A $s --gpus 2 > $R/one_$size.log 2>&1; line one_$size $?
  for g in 1x2x1 1x1x2; do for o in on off; do
    [ $g = 1x1x2 ] && [ $o = off ] && continue
    timeout 90 mpirun -np 2 $A $s --ranks $g --overlap $o > $R/g_${size}_${g}_$o.log 2>&1; line g_${size}_${g}_$o $?
  done; done
done
