#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records every lesson's comparison runs (the "compare" list of resources/presets/*.json) with
# stencilscope-cli bench on this machine's GPU and writes resources/lessons/recorded_h100.json, which
# the Lesson dock shows as "Recorded on DEVICE DATE". Lesson texts carry no measured numbers: they
# point to this file, so a kernel change is one re-recording away from the text being right again.
# Usage: bench/record_lessons.sh CLI [OUT.json]      run on the H100 (the lead's device machine)
#        bench/record_lessons.sh --placeholder [OUT.json]   the same file with null figures, no GPU
# LESSONS=id,id records only those lessons and keeps every other lesson's runs (device and date too) from
# resources/lessons/recorded_h100.json: a new lesson is recorded without re-recording the others.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:?usage: bench/record_lessons.sh CLI|--placeholder [OUT.json]}
out=${2:-$here/resources/lessons/recorded_h100.json}
exec python3 - "$cli" "$out" "$here/resources/presets" "$here/resources/lessons/recorded_h100.json" "${LESSONS:-}" <<'PY'
import csv, datetime, glob, json, os, subprocess, sys, tempfile

cli, out, presets, previous, only = sys.argv[1:6]
only = [x for x in only.split(",") if x]
placeholder = cli == "--placeholder"
run_keys = ["stencil", "rule", "dims", "size", "radius", "variant", "depth", "cf", "block", "precision", "init", "seed"]
figures = ["gcells_per_s", "ms_per_step", "registers", "local_bytes", "smem_bytes", "theoretical_occupancy"]
record = {"placeholder": placeholder, "device": None, "date": None,
          "note": "written by bench/record_lessons.sh; each run's command is what produced its figures",
          "lessons": {}}
kept = json.load(open(previous)) if only else None
for path in sorted(glob.glob(os.path.join(presets, "*.json"))):
    lesson = json.load(open(path))
    if only and lesson["lesson-id"] not in only:
        if lesson["lesson-id"] in kept["lessons"]:
            record["lessons"][lesson["lesson-id"]] = kept["lessons"][lesson["lesson-id"]]
        continue
    runs = []
    for entry in lesson.get("compare", []):
        config = {k: lesson[k] for k in run_keys if k in lesson}
        config.update(entry.get("set", {}))
        args = [f"--{k}={v}" for k, v in config.items()] + ["--backend=cuda"]
        if config.get("variant") == "temporal":  # whole fused launches: a remainder runs the one-step kernel
            depth = int(config.get("depth", 1))
            args.append(f"--steps={depth * -(-36 // depth)}")
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
if only:  # the kept lessons' recording names the file's device and date
    record["placeholder"] = kept["placeholder"] and placeholder
    record["device"] = record["device"] or kept["device"]
    if placeholder:
        record["note"] += f'; {", ".join(only)} not recorded yet (placeholder figures)'
        record["date"] = kept["date"]
    elif kept["date"] != record["date"] and kept["date"] is not None:
        record["note"] += f'; {", ".join(only)} recorded on {record["date"]}, the others on {kept["date"]}'
        record["date"] = kept["date"]
with open(out, "w") as f:
    json.dump(record, f, indent=2)
    f.write("\n")
print(f"wrote {out}", file=sys.stderr)
PY
