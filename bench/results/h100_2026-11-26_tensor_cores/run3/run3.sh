#!/bin/bash
# Device run 3: tensor-core stream kernel knobs (band table in smem, 4 chains, lean addresses, pipeline), stall reasons.
CLI=.device-build/app/stencilscope-cli
K="--steps 8 --repeats 3 --warmup 1"
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/device.txt; date -u +%FT%TZ >> $OUT/r/device.txt
{
for d in "TC_BAND_SMEM=1" "TC_BAND_SMEM=1;TC_CHAINS=4"; do for r in 2 8 12 16; do for rule in thesis wave; do
  o=$(STENCILSCOPE_TC_DEFINES="$d" STENCILSCOPE_STREAM_TC=1 $CLI run --dims 3 --size 77x61x45 --radius $r --variant stream --cf 1 --precision fp64 --rule $rule --steps 3 --verify 2>&1)
  echo "$d R$r $rule rc=$? $(echo "$o" | grep -E '^(block|kernel|verify)' | tr '\n' ' ')"
done; done; done
} > $OUT/r/correct.txt 2>&1
echo "correct: $(grep -c PASS $OUT/r/correct.txt) PASS of $(wc -l < $OUT/r/correct.txt)"; grep -v PASS $OUT/r/correct.txt | head
B="--dims 3 --size 1024x1024x1024 --precision fp64 --variant stream --radius 8,12,16 --cf 1 --block 16x16,8x32,8x16 $K"
$CLI bench --dims 3 --size 1024x1024x1024 --precision fp32,fp64 --variant stream --radius 16 --cf 2,4 $K --csv $OUT/r/ref.csv > /dev/null 2>>$OUT/r/err.txt
$CLI bench $B --csv $OUT/r/c1_base.csv > /dev/null 2>>$OUT/r/err.txt
STENCILSCOPE_TC_DEFINES="TC_BAND_SMEM=1" $CLI bench $B --csv $OUT/r/c2_band.csv > /dev/null 2>>$OUT/r/err.txt
STENCILSCOPE_TC_DEFINES="TC_BAND_SMEM=1;TC_CHAINS=4" $CLI bench $B --csv $OUT/r/c3_band_chains4.csv > /dev/null 2>>$OUT/r/err.txt
STENCILSCOPE_STREAM_LEAN_ADDR=1 STENCILSCOPE_TC_DEFINES="TC_BAND_SMEM=1" $CLI bench $B --csv $OUT/r/c4_band_lean.csv > /dev/null 2>>$OUT/r/err.txt
STENCILSCOPE_STREAM_PIPE=3 STENCILSCOPE_TC_DEFINES="TC_BAND_SMEM=1" $CLI bench $B --csv $OUT/r/c5_band_pipe3.csv > /dev/null 2>>$OUT/r/err.txt
STENCILSCOPE_STREAM_PIPE=2 STENCILSCOPE_TC_DEFINES="TC_BAND_SMEM=1" $CLI bench $B --csv $OUT/r/c6_band_pipe2.csv > /dev/null 2>>$OUT/r/err.txt
python3 - $OUT/r/ref.csv $OUT/r/c*.csv <<'PY' | tee $OUT/r/table.txt
import csv,sys
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        print(f"{f.split('/')[-1]:22s} {r['precision']} R{r['radius']:>2} CF{r['cf']} {r['block_x']+'x'+r['block_y']:6s} {float(r['gcells_per_s']):7.1f} {float(r['pct_of_roofline']):5.1f} % regs {r['registers']}")
PY
S=""; for x in barrier long_scoreboard short_scoreboard math_pipe_throttle wait mio_throttle dispatch_stall not_selected selected lg_throttle no_instruction branch_resolving tex_throttle drain imc_miss membar misc sleeping; do S="$S,smsp__average_warps_issue_stalled_${x}_per_issue_active.ratio"; done
STENCILSCOPE_TC_DEFINES="TC_BAND_SMEM=1" env -u LD_LIBRARY_PATH timeout 150 ncu -k ss_star --launch-skip 2 --launch-count 1 --section SpeedOfLight --metrics smsp__inst_executed.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active${S} $CLI run --dims 3 --size 512x512x512 --radius 16 --variant stream --cf 1 --precision fp64 --block 8x32 --steps 3 > $OUT/r/ncu_stalls.txt 2>&1
grep -E "stalled|pct|Duration|inst_executed" $OUT/r/ncu_stalls.txt | sed 's/smsp__average_warps_issue_stalled_//' | head -30
cd $OUT && tar czf r.tgz r && rm -rf r
