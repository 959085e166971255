#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shoots every lesson's window: the app itself with counters on, 300 frames after the lesson opened, at a
# projector's 1280x720 by default. The Lesson dock shows the 1920x1080 shots (resources/lessons/pictures/ID.png,
# listed in resources/lesson_pictures.qrc: every chart a lesson's text names is in view there). Run on the H100 under the device runtime's Xvfb, beside bench/record_lessons.sh.
# A lesson that needs two GPUs ("two-gpus") runs on 2 GPUs where the machine has them (nvidia-smi -L, or
# GPUS_PRESENT=N), else as 2 strips on one GPU through the testing hook STENCILSCOPE_STRIPS_PER_GPU=2 (its
# metrics panel then says so); record_lessons.sh labels that lesson's recording the same way.
# Usage: bench/shoot_lessons.sh STENCILSCOPE OUT_DIR      (LESSONS=id,id shoots only those)
# WINDOW_SIZE=WxH shoots at another size (default 1280x720); NAME_SUFFIX=-1920x1080-h100 names the files ID$NAME_SUFFIX.png
# (docs/images keeps both sizes).
# STENCILSCOPE_LESSON_RECORDING=FILE (a test hook) shows FILE's recording in the Lesson dock instead of the built-in
# one: a lesson recorded by bench/record_lessons.sh on this machine is shot with its new figures before it is built in.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gui=${1:?usage: bench/shoot_lessons.sh STENCILSCOPE OUT_DIR}
out=${2:?usage: bench/shoot_lessons.sh STENCILSCOPE OUT_DIR}
mkdir -p "$out"
present=${GPUS_PRESENT:-$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU ' || true)}
for preset in "$here"/resources/presets/*.json; do
    read -r id two < <(python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))
print(l["lesson-id"], int("two-gpus" in l.get("needs", [])))' "$preset")
    [[ -n ${LESSONS:-} && ",$LESSONS," != *",$id,"* ]] && continue
    placement=()
    hook=1
    if [[ $two == 1 ]]; then
        if (( present >= 2 )); then placement=(--gpus 2); else hook=2; fi
    fi
    STENCILSCOPE_STRIPS_PER_GPU=$hook timeout 90 "$gui" --setup "lesson:$id" "${placement[@]}" --metrics on \
        --frames 300 --window-size "${WINDOW_SIZE:-1280x720}" --window-screenshot "$out/$id${NAME_SUFFIX:-}.png"
    echo "$id: $out/$id${NAME_SUFFIX:-}.png$( ((hook > 1)) && echo " (2 strips on one GPU: STENCILSCOPE_STRIPS_PER_GPU=2)")"
done
