#!/bin/bash
# Device run 2: the fp64 tensor-core stream kernel (STENCILSCOPE_STREAM_TC) - correctness, speed, blocks, ncu, sanitizer.
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $OUT/r/device.txt
date -u +%FT%TZ >> $OUT/r/device.txt
# 1. correctness against the fp64 CPU reference, tensor cores forced from R2 on
{
for r in 2 4 6 8 12 16; do for rule in thesis jacobi wave; do for size in 150x133x70 77x61x45; do
  o=$(STENCILSCOPE_STREAM_TC=1 $CLI run --dims 3 --size $size --radius $r --variant stream --cf 1 --precision fp64 --rule $rule --steps 3 --verify 2>&1)
  echo "R$r $rule $size rc=$? $(echo "$o" | grep -E '^(block|kernel|verify)' | tr '\n' ' ')"
done; done; done
for b in 32x8 8x16 4x8 64x4 16x24; do
  o=$(STENCILSCOPE_STREAM_TC=1 $CLI run --dims 3 --size 150x133x70 --radius 16 --variant stream --cf 1 --precision fp64 --block $b --steps 3 --verify 2>&1)
  echo "R16 block $b rc=$? $(echo "$o" | grep -E '^(block|kernel|verify)' | tr '\n' ' ')"
done
} > $OUT/r/correct.txt 2>&1
grep -c "PASS" $OUT/r/correct.txt; grep -v "PASS" $OUT/r/correct.txt | head -20
# 2. speed: tensor cores off/on, heuristic blocks, both precisions in each process
bench/knob_ab.sh STENCILSCOPE_STREAM_TC $CLI $OUT/r/ab1024 --dims 3 --size 1024x1024x1024 --precision fp32,fp64 --variant stream --radius 4,8,16 --cf 1,2,4 $K > $OUT/r/ab1024.md 2>&1
cat $OUT/r/ab1024.md
bench/knob_ab.sh STENCILSCOPE_STREAM_TC $CLI $OUT/r/ab512 --dims 3 --size 512x512x512 --precision fp32,fp64 --variant stream --radius 4,8,16 --cf 1,2 $K > $OUT/r/ab512.md 2>&1
cat $OUT/r/ab512.md
# 3. blocks and pipeline depth, fp64 R16 and R8 CF 1 with tensor cores
STENCILSCOPE_STREAM_TC=1 $CLI bench --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 8,16 --cf 1 --block 16x16,8x16,16x8,32x8,8x32,4x32,8x8 $K --csv $OUT/r/blocks.csv > /dev/null 2>$OUT/r/blocks.err
for p in 2 3 6; do
STENCILSCOPE_STREAM_PIPE=$p $CLI bench --dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 8,16 --cf 1 --block 16x16,8x16 $K --csv $OUT/r/pipe$p.csv > /dev/null 2>>$OUT/r/blocks.err
done
python3 bench/grid_table.py $OUT/r/blocks.csv $OUT/r/pipe*.csv > $OUT/r/blocks_table.txt 2>&1 || true
python3 - $OUT/r/blocks.csv $OUT/r/pipe2.csv $OUT/r/pipe3.csv $OUT/r/pipe6.csv <<'PY'
import csv,sys
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        print(f.split('/')[-1], r['radius'], r['block_x']+'x'+r['block_y'], r['gcells_per_s'], r['pct_of_roofline'], r['registers'])
PY
# 4. ncu, fp64 R16 CF 1 tensor cores, 512^3
M="--section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy --section InstructionStats --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_dmma.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active"
STENCILSCOPE_STREAM_TC=1 env -u LD_LIBRARY_PATH timeout 120 ncu -k ss_star --launch-skip 2 --launch-count 1 $M $CLI run --dims 3 --size 512x512x512 --radius 16 --variant stream --cf 1 --precision fp64 --steps 3 > $OUT/r/ncu_tc_r16.txt 2>&1
grep -E "Duration|Throughput|Issue Slots|Executed Ipc|pct_of_peak|bank_conflicts|wavefronts|inst_executed.sum|Registers|Achieved Occupancy|Stall|No Eligible" $OUT/r/ncu_tc_r16.txt | head -40
# 5. sanitizer with tensor cores
STENCILSCOPE_STREAM_TC=1 timeout 150 scripts/sanitize-kernels.sh --tools memcheck,racecheck,synccheck --filter '3D R(8|16) stream CF1 fp64' --logs $OUT/r/san $CLI > $OUT/r/sanitize_tc.log 2>&1
tail -3 $OUT/r/sanitize_tc.log
cd $OUT && tar czf r.tgz r && rm -rf r
