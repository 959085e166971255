#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records every lesson's comparison runs (the "compare" list of resources/presets/*.json) with
# stencilscope-cli bench on this machine's GPUs and writes resources/lessons/recorded_h100.json, which
# the Lesson dock shows as "Recorded on DEVICE DATE" (each lesson its own device and date: a lesson can be
# recorded on another machine than the others). Lesson texts carry no measured numbers: they point to this
# file, so a kernel change is one re-recording away from the text being right again.
# Usage: bench/record_lessons.sh CLI [OUT.json]      run on the H100 (the lead's device machine)
#        bench/record_lessons.sh --placeholder [OUT.json]   the same file with null figures, no GPU
# LESSONS=id,id records only those lessons and keeps every other lesson's runs (device and date too) from
# resources/lessons/recorded_h100.json: a new lesson is recorded without re-recording the others.
# A run may set the placement ("gpus", "halo", "split", "overlap"). One that asks for more GPUs than the
# machine has (nvidia-smi -L, or GPUS_PRESENT=N) runs its strips on one GPU through the testing hook
# STENCILSCOPE_STRIPS_PER_GPU, and its lesson's recording says so ("2 strips on one GPU ..."): that measures
# the multi-GPU machinery, not an interconnect.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:?usage: bench/record_lessons.sh CLI|--placeholder [OUT.json]}
out=${2:-$here/resources/lessons/recorded_h100.json}
exec python3 - "$cli" "$out" "$here/resources/presets" "$here/resources/lessons/recorded_h100.json" "${LESSONS:-}" <<'PY'
import csv, datetime, glob, json, os, re, shutil, subprocess, sys, tempfile

cli, out, presets, previous, only = sys.argv[1:6]
only = [x for x in only.split(",") if x]
placeholder = cli == "--placeholder"
run_keys = ["stencil", "rule", "dims", "size", "radius", "variant", "depth", "cf", "block", "precision", "init", "seed",
            "gpus", "split", "halo", "overlap"]
figures = ["gcells_per_s", "ms_per_step", "registers", "local_bytes", "smem_bytes", "theoretical_occupancy"]
record = {"placeholder": placeholder, "device": None, "date": None,
          "note": "written by bench/record_lessons.sh; each run's command is what produced its figures",
          "lessons": {}}
kept = json.load(open(previous)) if only else None
record["recordings"] = {}  # each lesson's device, date and (where it differs from the lesson's) placement


def gpus_present():
    if os.environ.get("GPUS_PRESENT"):
        return int(os.environ["GPUS_PRESENT"])
    if placeholder or not shutil.which("nvidia-smi"):
        return 1
    listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    return max(1, sum(line.startswith("GPU ") for line in listed.splitlines()))


present = gpus_present()


def kept_recording(lesson_id):  # an older file names one device and date for every lesson
    return kept.get("recordings", {}).get(lesson_id) or {
        "placeholder": kept["placeholder"], "device": kept["device"], "date": kept["date"]}


today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
for path in sorted(glob.glob(os.path.join(presets, "*.json"))):
    lesson = json.load(open(path))
    lesson_id = lesson["lesson-id"]
    if only and lesson_id not in only:
        if lesson_id in kept["lessons"]:
            record["lessons"][lesson_id] = kept["lessons"][lesson_id]
            record["recordings"][lesson_id] = kept_recording(lesson_id)
        continue
    runs, device, hooked = [], None, set()
    for entry in lesson.get("compare", []):
        config = {k: lesson[k] for k in run_keys if k in lesson}
        config.update(entry.get("set", {}))
        env, prefix = dict(os.environ), []
        env.pop("STENCILSCOPE_STRIPS_PER_GPU", None)
        gpus = int(config.get("gpus", 1))
        if gpus > present:  # the strips of every GPU asked for, on one GPU (the testing hook)
            config["gpus"] = 1
            env["STENCILSCOPE_STRIPS_PER_GPU"] = str(gpus)
            prefix = [f"STENCILSCOPE_STRIPS_PER_GPU={gpus}"]
            hooked.add(gpus)
        args = [f"--{k}={v}" for k, v in config.items()] + ["--backend=cuda"]
        if config.get("variant") == "temporal":  # whole fused launches: a remainder runs the one-step kernel
            depth = int(config.get("depth", 1))
            args.append(f"--steps={depth * -(-36 // depth)}")
        command = prefix + ["stencilscope-cli", "bench"] + args
        run = {"label": entry["label"], "command": " ".join(command), "block": None,
               "occupancy_limiter": None, **{f: None for f in figures}}
        split = gpus > 1
        if split:  # what crosses between the strips per step, and the wait for it
            run.update({"halo": config.get("halo", "auto"), "halo_bytes_per_step": None, "exchange_ms_per_step": None})
            if config.get("halo") == "remote":
                run["remote_per_step"] = None
        if not placeholder:
            with tempfile.TemporaryDirectory() as tmp:
                table = os.path.join(tmp, "run.csv")
                done = subprocess.run([cli, "bench", *args, "--csv", table], capture_output=True, text=True, env=env)
                if done.returncode != 0:
                    run["refused"] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
                else:
                    row = list(csv.DictReader(open(table)))[-1]
                    for f in figures:
                        run[f] = float(row[f]) if row[f] not in ("", None) else None
                    run["occupancy_limiter"] = row["occupancy_limiter"]
                    run["block"] = f'{row["block_x"]}x{row["block_y"]}x{row["block_z"]}'
                    device = record["device"] = row["device"]
                    if split:
                        for f in ("halo_bytes_per_step", "exchange_ms_per_step"):
                            run[f] = float(row[f]) if row.get(f) not in ("", None) else None
                        # remote mode: the CLI's line of bytes loaded from the neighbours (computed from the geometry)
                        loaded = re.search(r"^remote\s+(.+?) per step", done.stdout, re.M)
                        if "remote_per_step" in run:
                            run["remote_per_step"] = loaded.group(1) if loaded else None
            print(f'{lesson_id}: {run["label"]}: {run.get("refused") or run["gcells_per_s"]}', file=sys.stderr)
        runs.append(run)
    record["lessons"][lesson_id] = runs
    recording = {"placeholder": placeholder, "device": device, "date": None if placeholder else today}
    if hooked:
        n = max(hooked)
        recording["placement"] = (f"{n} strips on one GPU (STENCILSCOPE_STRIPS_PER_GPU={n}): the multi-GPU "
                                  "machinery's cost, not an interconnect's")
    record["recordings"][lesson_id] = recording
if not placeholder:
    record["date"] = today
if only:  # the file-wide device and date: those of the lessons recorded before (older readers show them)
    record["placeholder"] = kept["placeholder"]
    record["device"] = kept["device"]
    record["date"] = kept["date"]
    record["note"] += "; each lesson's own device and date are under recordings"
with open(out, "w") as f:
    json.dump(record, f, indent=2)
    f.write("\n")
print(f"wrote {out}", file=sys.stderr)
PY
