#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shoots every lesson's window as the Lesson dock shows it (resources/lessons/pictures/ID.png, listed in
# resources/lesson_pictures.qrc): the app itself at a projector's 1280x720 with counters on, 300 frames
# after the lesson opened. Run on the H100 under the device runtime's Xvfb, beside bench/record_lessons.sh.
# Usage: bench/shoot_lessons.sh STENCILSCOPE OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gui=${1:?usage: bench/shoot_lessons.sh STENCILSCOPE OUT_DIR}
out=${2:?usage: bench/shoot_lessons.sh STENCILSCOPE OUT_DIR}
mkdir -p "$out"
for preset in "$here"/resources/presets/*.json; do
    id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lesson-id"])' "$preset")
    timeout 90 "$gui" --setup "lesson:$id" --metrics on --frames 300 --window-size 1280x720 \
        --window-screenshot "$out/$id.png"
    echo "$id: $out/$id.png"
done
