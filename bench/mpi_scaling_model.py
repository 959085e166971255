#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The strong- and weak-scaling MODEL of docs/PERFORMANCE.md ("Past one machine"): not a measurement.
# Two ways to cut the domain over `mpirun -np N` ranks, one GPU each, 8 GPUs per node:
# - strips: every rank a strip along the slowest axis (what stencilscope-cli does today), two faces at most;
# - a process grid (issue 37; gpu/plan/process_grid.h): the grid MPI_Dims_create gives (as square or cubic as the
#   factors allow, the largest count on the slowest axis), every rank a box trading R-deep faces with up to
#   2 x dims neighbours, axis by axis (x, then y, then z), so that edges and corners ride along: a later axis's face
#   spans the ghost cells the earlier axes brought in.
# Ranks are numbered with x fastest (gpu/plan/process_grid.h) and placed in that order, 8 consecutive ranks per node, so
# a rank's x neighbours share its node, and a neighbour along a slower axis shares it only when its rank lies in the
# same block of 8. A step takes the box's compute at the single-GPU rate plus the slowest rank's exchange (no overlap
# by default, as the MPI path with --overlap off). `--overlap` models the overlap stencilscope-cli runs: the R layers
# next to the faces of the slowest axis and, in 3D, of y first, then the rest of the box while those faces travel (z,
# then y), then x's trade (app/cli/rank_grid_run.cpp since 2026-11-28; strips have only the slowest axis); `--perfect`
# hides the whole exchange (the longer of compute and exchange). `--node-grid` places grids node by node: a node's 8 ranks tile the faster axes
# (MPI_Dims_create's factors of 8) and the nodes line up along the slowest axis, so that only its faces, the ones
# the overlap hides, cross nodes (`mpirun ... --ranks 2x4xN` in 3D, `--ranks 8xN` in 2D).
# Per axis, a rank sends its two faces at once; the bytes to neighbours on its node share its NVLink, those to other
# nodes its one InfiniBand port, and the two links run side by side. Faces that are not contiguous (x, and y in 3D) are
# assumed packed by a kernel whose cost hides in the per-exchange latency (today's strided x copy of a strip is not:
# 1.27 ms per step at 3D 1024^3 on one H100, docs/PERFORMANCE.md "The split axis").
# The calibration: the one- and two-GPU points of docs/PERFORMANCE.md "Multi-GPU" (2 x H200 over NVLink,
# 2026-11-24 22:33 UTC, fp32 jacobi stream, overlap off): the single-GPU rates are the compute, and the two-GPU steps
# give each exchange (two-GPU step minus half the one-GPU step); a least-squares line through those six gives the
# NVLink bandwidth and the per-exchange latency the model uses. Not used: the "MPI ranks" points (two ranks sharing
# one H100, or a host-staged MPI on two H200s) time-share a GPU or cross host memory, which a CUDA-aware multi-node
# run would not.
import sys

GPUS_PER_NODE = 8
BYTES_PER_CELL = 4  # fp32
CALIBRATION_EXTENT = {2: 32768, 3: 1024}  # 2D 32768^2 CF 2, 3D 1024^3 CF 1
# GCells/s of one H200 and of two (strips, halo copies, overlap off), by (dims, R); 2026-11-24 22:33 UTC.
ONE_GPU = {(2, 1): 425.8e9, (2, 4): 309.4e9, (2, 16): 88.7e9, (3, 1): 329.5e9, (3, 4): 268.1e9, (3, 16): 88.3e9}
TWO_GPUS = {(2, 1): 837.7e9, (2, 4): 605.7e9, (2, 16): 175.4e9, (3, 1): 652.3e9, (3, 4): 516.1e9, (3, 16): 168.7e9}
NVLINK_PUBLISHED = 450e9  # B/s per direction per GPU, NVLink 4 (18 links x 25 GB/s): what the fit is set against
IB_NDR = 50e9  # B/s per direction per port, InfiniBand NDR 400 Gb/s, one port per GPU, CUDA-aware MPI + GPUDirect RDMA
IB_EFFICIENCY = 0.9  # the share of NDR's line rate an MPI transfer of large faces reaches: assumed, not measured
IB = IB_NDR * IB_EFFICIENCY
OVERLAP = "--overlap" in sys.argv[1:]  # off by default: comparable with the strips' tables of before
PERFECT = "--perfect" in sys.argv[1:]
NODE_GRID = "--node-grid" in sys.argv[1:]


def calibration_points():
    """(bytes of one face, seconds of the exchange) for each two-GPU point: the strip sends one face each way."""
    points = []
    for (dims, r), one in ONE_GPU.items():
        cells = CALIBRATION_EXTENT[dims] ** dims
        points.append((r * BYTES_PER_CELL * CALIBRATION_EXTENT[dims] ** (dims - 1),
                       cells / TWO_GPUS[(dims, r)] - cells / one / 2))
    return points


def fit_link(points):
    """Least squares: exchange = latency + bytes / bandwidth."""
    mean_b = sum(b for b, _ in points) / len(points)
    mean_t = sum(t for _, t in points) / len(points)
    slope = sum((b - mean_b) * (t - mean_t) for b, t in points) / sum((b - mean_b) ** 2 for b, _ in points)
    return 1 / slope, mean_t - slope * mean_b


NVLINK, LATENCY = fit_link(calibration_points())  # B/s per direction per GPU, s per exchange and axis


def balanced_grid(ranks, dims):
    """MPI_Dims_create: factors as close as possible (smallest spread, then smallest largest), non-increasing."""
    def tuples(remaining, slots, largest):
        if slots == 1:
            return [[remaining]] if remaining <= largest else []
        return [[f] + rest for f in range(min(remaining, largest), 0, -1) if remaining % f == 0
                for rest in tuples(remaining // f, slots - 1, f)]
    return min(tuples(ranks, dims, ranks), key=lambda g: (g[0] - g[-1], g))


def ranks_per_axis(layout, dims, gpus):
    """Ranks along x, y[, z]: strips cut the slowest axis; a grid puts its largest count on the slowest axis."""
    if layout == "strips":
        return [1] * (dims - 1) + [gpus]
    if NODE_GRID and gpus > GPUS_PER_NODE:
        return list(reversed(balanced_grid(GPUS_PER_NODE, dims - 1))) + [gpus // GPUS_PER_NODE]
    return list(reversed(balanced_grid(gpus, dims)))


def too_thin(counts, n, r):
    """As gpu/plan/strip_plan.cpp: the n - 2R updated cells of a cut axis give every rank at least R."""
    return any(p > 1 and (n - 2 * r) // p < r for p in counts)


def rank_exchanges(counts, box, r):
    """Per rank, the seconds of each axis' trade (0 where the axis is not cut)."""
    dims, out = len(counts), []
    for rank in range(product(counts)):
        coordinate, left = [], rank
        for p in counts:
            coordinate.append(left % p)
            left //= p
        seconds, stride, sides = [], 1, []
        for a, p in enumerate(counts):
            axis_s, neighbours = 0.0, 0
            if p > 1:
                face = r * BYTES_PER_CELL
                order = trade_order(dims)
                for b in range(dims):
                    if b != a:  # the axes traded earlier bring their ghosts along
                        earlier = order.index(b) < order.index(a)
                        face *= box[b] + (2 * r if earlier and counts[b] > 1 else 0)
                on_node = off_node = 0
                for side, other in ((-1, rank - stride), (1, rank + stride)):
                    if 0 <= coordinate[a] + side < p:
                        neighbours += 1
                        if other // GPUS_PER_NODE == rank // GPUS_PER_NODE:
                            on_node += face
                        else:
                            off_node += face
                axis_s = LATENCY + max(on_node / NVLINK, off_node / IB)
            seconds.append(axis_s)
            sides.append(neighbours)
            stride *= p
        out.append((seconds, sides))
    return out


def traded_during_step(dims):
    """The axes whose faces a step finishes first under overlap: the slowest, then y in 3D."""
    return [dims - 1, 1] if dims == 3 else [dims - 1]


def trade_order(dims):
    """As RankDomainPlan::trade_order: the axes traded during the step first under overlap (as built or perfect),
    else x, y, z."""
    if not (OVERLAP or PERFECT):
        return list(range(dims))
    during = traded_during_step(dims)
    return during + [a for a in range(dims) if a not in during]


def rank_step(compute, seconds, sides, box, r):
    """One rank's step: its compute and trades, overlapped as the flags say."""
    exchange = sum(seconds)
    if PERFECT:
        return max(compute, exchange)
    if not OVERLAP:
        return compute + exchange
    during = traded_during_step(len(box))
    interior = 1.0  # the share of the box left once the layers next to those faces are computed
    for a in during:
        interior *= max(0.0, 1.0 - sides[a] * r / box[a])
    hidden = sum(seconds[a] for a in during)
    return max(compute, compute * (1.0 - interior) + hidden) + exchange - hidden


def product(values):
    out = 1
    for v in values:
        out *= v
    return out


def step(layout, dims, n, r, gpus, weak):
    """(grid text, exchange s, step s, speed-up) or None where a box is thinner than R."""
    counts = ranks_per_axis(layout, dims, gpus)
    if not weak and too_thin(counts, n, r):
        return None
    box = [n if weak else -(-n // p) for p in counts]  # the largest box: the slowest rank's compute
    compute = product(box) / ONE_GPU[(dims, r)]
    exchange, t = 0.0, compute
    if gpus > 1:
        for seconds, sides in rank_exchanges(counts, box, r):  # the slowest rank sets the step
            exchange = max(exchange, sum(seconds))
            t = max(t, rank_step(compute, seconds, sides, box, r))
    one = n ** dims / ONE_GPU[(dims, r)]
    speed = gpus * one / t if weak else one / t
    return "x".join(str(p) for p in counts), exchange, t, speed


def table(title, dims, n, weak):
    print(f"\n{title}\n")
    print("| R | GPUs (nodes) | strips: exchange µs | ms/step | speed-up (efficiency) "
          "| grid | exchange µs | ms/step | speed-up (efficiency) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in (1, 4, 16):
        for gpus in (1, 8, 64, 512):
            cells = [f"{r}", f"{gpus} ({max(gpus // GPUS_PER_NODE, 1)})"]
            for layout in ("strips", "grid"):
                got = step(layout, dims, n, r, gpus, weak)
                if got is None:
                    cells += (["–", "–", f"thinner than R{r}"] if layout == "strips"
                              else ["–", "–", "–", f"thinner than R{r}"])
                    continue
                grid, exchange, t, speed = got
                cells += ([] if layout == "strips" else [grid]) + [
                    f"{exchange * 1e6:.0f}", f"{t * 1e3:.3f}", f"{speed:.1f}× ({100 * speed / gpus:.0f} %)"]
            print("| " + " | ".join(cells) + " |")


def calibration():
    print("Calibration (docs/PERFORMANCE.md \"Multi-GPU\", 2 x H200, 2026-11-24, overlap off): "
          f"NVLink {NVLINK / 1e9:.0f} GB/s per direction ({100 * NVLINK / NVLINK_PUBLISHED:.0f} % of the "
          f"published {NVLINK_PUBLISHED / 1e9:.0f}), latency {LATENCY * 1e6:.1f} µs per exchange; "
          f"InfiniBand {IB / 1e9:.0f} GB/s (assumed); overlap "
          f"{'perfect' if PERFECT else 'as built' if OVERLAP else 'off'}; grids "
          f"{'node by node' if NODE_GRID else 'as MPI_Dims_create'}.\n")
    print("| point | face | exchange measured µs | model µs |")
    print("|---|---|---|---|")
    for ((dims, r), _), (face, seconds) in zip(ONE_GPU.items(), calibration_points()):
        n = CALIBRATION_EXTENT[dims]
        print(f"| {dims}D {n}{'²' if dims == 2 else '³'} R{r} | {face / 1024:.0f} KiB | {seconds * 1e6:.1f} | "
              f"{(LATENCY + face / NVLINK) * 1e6:.1f} |")


calibration()
table("Strong scaling, 2D 32768² fp32 (the whole domain fixed)", 2, 32768, False)
table("Strong scaling, 2D 65536² fp32", 2, 65536, False)
table("Strong scaling, 3D 1024³ fp32", 3, 1024, False)
table("Strong scaling, 3D 2048³ fp32", 3, 2048, False)
table("Weak scaling, 2D 32768² fp32 per GPU", 2, 32768, True)
table("Weak scaling, 3D 1024³ fp32 per GPU", 3, 1024, True)
