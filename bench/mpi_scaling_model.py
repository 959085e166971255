#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The strong- and weak-scaling MODEL of docs/PERFORMANCE.md ("Past one machine"): not a measurement.
# One strip per GPU along the slow axis (what `mpirun -np N stencilscope-cli` does), 8 GPUs per node,
# the exchange after the step (no overlap: the MPI path waits for the kernels, then trades rows).
# Assumptions, each a number below: the per-GPU rate (H100 stream kernel, measured on 2026-11-22),
# published link bandwidths, a fixed per-exchange latency, CUDA-aware MPI with GPUDirect RDMA, one NDR
# port per GPU, and neighbours on the same node talking over NVLink.
NVLINK = 450e9  # B/s per direction per GPU, NVLink 4 on H100 SXM (18 links x 25 GB/s)
IB_NDR = 50e9  # B/s per direction per port, InfiniBand NDR 400 Gb/s
LATENCY = 10e-6  # s per exchange (MPI + launch), either link: an assumption, not a datasheet figure
GPUS_PER_NODE = 8
# GCells/s of one H100, fp32 jacobi, heuristic block (bench/results/PERFORMANCE_HISTORY.md,
# "The thesis grid", 2026-11-22; R16 from the 2 x H200 table of 2026-11-22, the best single-GPU figure the docs had
# at R16 then).
RATE = {(2, 1): 340e9, (2, 4): 304e9, (2, 16): 90e9, (3, 1): 278e9, (3, 4): 236e9, (3, 16): 71e9}


def exchange_time(dims, n, r, gpus):
    """Seconds of the slowest strip's exchange: R rows each way, both sides at once; off-node when split
    over more than one node (one IB port per GPU), else over NVLink."""
    if gpus == 1:
        return 0.0
    link = IB_NDR if gpus > GPUS_PER_NODE else NVLINK
    return LATENCY + r * 4 * n ** (dims - 1) / link


def table(title, dims, n, weak):
    print(f"\n{title}\n")
    print("| R | GPUs (nodes) | halo / side | exchange µs | ms/step | speed-up | efficiency |")
    print("|---|---|---|---|---|---|---|")
    for r in (1, 4, 16):
        one = n ** dims / RATE[(dims, r)]  # one GPU's step over n^dims cells
        for gpus in (1, 8, 64, 512):
            nodes = max(gpus // GPUS_PER_NODE, 1)
            # strong: the n^dims domain over `gpus` strips, each at least R rows thick
            if not weak and (n - 2 * r) // gpus < r:
                print(f"| {r} | {gpus} ({nodes}) | | | – | – | strips thinner than R{r} |")
                continue
            ex = exchange_time(dims, n, r, gpus)  # the halo is a row of the slow axis: the same in both
            t = (one if weak else one / gpus) + ex  # no overlap: exchange after the step
            speed = gpus * one / t if weak else one / t
            print(f"| {r} | {gpus} ({nodes}) | {r * 4 * n ** (dims - 1) / 1024:.0f} KiB | {ex * 1e6:.0f} | "
                  f"{t * 1e3:.3f} | {speed:.1f}× | {100 * speed / gpus:.0f} % |")


table("Strong scaling, 2D 32768² fp32 (the whole domain fixed)", 2, 32768, False)
table("Strong scaling, 3D 1024³ fp32", 3, 1024, False)
table("Weak scaling, 2D 32768² fp32 per GPU (the slow axis grows with the GPUs)", 2, 32768, True)
table("Weak scaling, 3D 1024³ fp32 per GPU", 3, 1024, True)
