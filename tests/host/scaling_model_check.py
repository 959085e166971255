#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# ctest scaling_model: bench/mpi_scaling_model.py says what docs/PERFORMANCE.md ("Past one machine") quotes of it, and
# its overlaps order as they must: a step with the whole exchange hidden (--perfect) is never slower than the overlap
# as built (--overlap), which is never slower than no overlap.
import re
import subprocess
import sys

MODEL = sys.argv[1]


def rows(*flags):
    """{(table title, R, GPUs): (strips speed-up, grid, grid speed-up)} of the strong-scaling tables."""
    out = subprocess.run([sys.executable, MODEL, *flags], capture_output=True, text=True, check=True).stdout
    table, found = None, {}
    for line in out.splitlines():
        if line.startswith(("Strong", "Weak")):
            table = line
        elif table and line.startswith("| ") and line[2].isdigit():
            cells = [c.strip() for c in line.strip("|").split("|")]
            found[(table, cells[0], cells[1].split()[0])] = (speed_up(cells[4]), cells[5], speed_up(cells[8]))
    return found


def speed_up(cell):
    """"46.9× (73 %)" -> 46.9; a cut thinner than R -> 0."""
    match = re.match(r"([\d.]+)×", cell)
    return float(match.group(1)) if match else 0.0


failures = []


def check(name, condition):
    print(("ok   " if condition else "FAIL ") + name)
    if not condition:
        failures.append(name)


off, built, perfect, node = rows(), rows("--overlap"), rows("--perfect"), rows("--overlap", "--node-grid")
goal = next(k for k in off if "3D 2048" in k[0] and k[0].startswith("Strong") and k[1:] == ("4", "64"))
check("3D 2048³ R4 at 64 GPUs, overlap off: the 4x4x4 grid at 35.6× (56 %)", off[goal][1:] == ("4x4x4", 35.6))
check("with the overlap as built (z and y hidden): 57.2× (89 %, the goal's 80 % reached by default)",
      built[goal][1:] == ("4x4x4", 57.2))
check("node by node: 2x4x8 at 59.8× (93 %)", node[goal][1:] == ("2x4x8", 59.8))
order = all(
    hidden >= as_built >= none
    for key in off
    for hidden, as_built, none in zip(perfect[key][::2], built[key][::2], off[key][::2]))
check("every row: perfect >= as built >= off, strips and grid", order)
sys.exit(1 if failures else 0)
