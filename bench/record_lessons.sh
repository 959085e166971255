#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records every lesson's comparison runs (the "compare" list of resources/presets/*.json) with
# stencilscope-cli bench on this machine's GPU and writes resources/lessons/recorded_h100.json, which
# the Lesson dock shows as "Recorded on DEVICE DATE". Lesson texts carry no measured numbers: they
# point to this file, so a kernel change is one re-recording away from the text being right again.
# Usage: bench/record_lessons.sh CLI [OUT.json]      run on the H100 (the lead's device machine)
#        bench/record_lessons.sh --placeholder [OUT.json]   the same file with null figures, no GPU
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:?usage: bench/record_lessons.sh CLI|--placeholder [OUT.json]}
out=${2:-$here/resources/lessons/recorded_h100.json}
exec python3 - "$cli" "$out" "$here/resources/presets" <<'PY'
import csv, datetime, glob, json, os, subprocess, sys, tempfile

cli, out, presets = sys.argv[1:4]
placeholder = cli == "--placeholder"
run_keys = ["stencil", "rule", "dims", "size", "radius", "variant", "cf", "block", "precision", "init", "seed"]
figures = ["gcells_per_s", "ms_per_step", "registers", "local_bytes", "smem_bytes", "theoretical_occupancy"]
record = {"placeholder": placeholder, "device": None, "date": None,
          "note": "written by bench/record_lessons.sh; each run's command is what produced its figures",
          "lessons": {}}
for path in sorted(glob.glob(os.path.join(presets, "*.json"))):
    lesson = json.load(open(path))
    runs = []
    for entry in lesson.get("compare", []):
        config = {k: lesson[k] for k in run_keys if k in lesson}
        config.update(entry.get("set", {}))
        args = [f"--{k}={v}" for k, v in config.items()] + ["--backend=cuda"]
        command = ["stencilscope-cli", "bench"] + args
        run = {"label": entry["label"], "command": " ".join(command), "block": None,
               "occupancy_limiter": None, **{f: None for f in figures}}
        if not placeholder:
            with tempfile.TemporaryDirectory() as tmp:
                table = os.path.join(tmp, "run.csv")
                done = subprocess.run([cli, "bench", *args, "--csv", table], capture_output=True, text=True)
                if done.returncode != 0:
                    run["refused"] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
                else:
                    row = list(csv.DictReader(open(table)))[-1]
                    for f in figures:
                        run[f] = float(row[f]) if row[f] not in ("", None) else None
                    run["occupancy_limiter"] = row["occupancy_limiter"]
                    run["block"] = f'{row["block_x"]}x{row["block_y"]}x{row["block_z"]}'
                    record["device"] = row["device"]
            print(f'{lesson["lesson-id"]}: {run["label"]}: {run.get("refused") or run["gcells_per_s"]}', file=sys.stderr)
        runs.append(run)
    record["lessons"][lesson["lesson-id"]] = runs
if not placeholder:
    record["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
with open(out, "w") as f:
    json.dump(record, f, indent=2)
    f.write("\n")
print(f"wrote {out}", file=sys.stderr)
PY
