// SPDX-License-Identifier: MIT
#include "widgets/teaching_texts.h"

#include <QCoreApplication>
#include <QWidget>

namespace ss::gui {
namespace {

struct KnobText {
    const char* name;
    const char* text;
};

// clang-format off
constexpr KnobText kTexts[] = {
    { "gpus", QT_TRANSLATE_NOOP("teaching",
        "How many GPUs share the field. Each takes a strip of rows, computes it, and swaps the rows along its "
        "borders with its neighbours every step: more GPUs, more compute, but also more talking.") },
    { "overlap", QT_TRANSLATE_NOOP("teaching",
        "With several GPUs: compute the border rows first and send them while the interior is still being "
        "computed, so the exchange hides behind the work (off: compute everything, then exchange).") },
    { "halo", QT_TRANSLATE_NOOP("teaching",
        "With several GPUs, how a strip gets the rows beyond its edge. copies: they are copied into its ghost rows "
        "every step (GPU to GPU where the GPUs reach each other, else through the host; staged: always through "
        "the host). remote loads: nothing is copied, the kernel reads them straight from the neighbour's memory "
        "(GPU-SM), which needs peer access.") },
    { "stencil", QT_TRANSLATE_NOOP("teaching",
        "Star: each cell is updated from its neighbours along the axes (the thesis' kernels). Diffusion, 4th "
        "order: a two-Laplacian update whose variants form an optimisation ladder.") },
    { "rule", QT_TRANSLATE_NOOP("teaching",
        "What the stencil computes. jacobi: heat spreading, each cell becomes the average of its neighbours. "
        "thesis: the thesis' benchmark weights. wave: ripples that travel and reflect instead of fading. The "
        "memory traffic is the same; the picture is not.") },
    { "dims", QT_TRANSLATE_NOOP("teaching",
        "A 2D sheet or a 3D block of cells. In 3D every cell has neighbours in a third direction, so each "
        "block's halo and its registers grow fast with the radius.") },
    { "precision", QT_TRANSLATE_NOOP("teaching",
        "fp32 uses 4-byte numbers, fp64 8-byte ones. fp64 moves twice the bytes per cell and needs twice the "
        "registers and shared memory per block: watch occupancy when you switch.") },
    { "variant", QT_TRANSLATE_NOOP("teaching",
        "How the GPU code is organised; every variant computes the same field. base: each thread reads its "
        "neighbours from memory. smem / smem_padded: a block first copies its tile (padded: with its halo) into "
        "fast shared memory. stream: threads march along one axis keeping planes close. uncoalesced: threads "
        "turned the wrong way, the slow pattern to learn from. temporal: several steps per launch. Diffusion: "
        "naive, merged, notemp and smem are its ladder. auto (fastest): a short list of variants, CFs and depths "
        "is timed on the GPU and the fastest runs (the CPU backend runs base).") },
    { "radius", QT_TRANSLATE_NOOP("teaching",
        "How far each cell looks: R neighbours in each direction. A larger radius means more reads per cell "
        "and a wider halo around every block's tile.") },
    { "cf", QT_TRANSLATE_NOOP("teaching",
        "Coarsening: how many cells each thread updates. Neighbouring cells share index arithmetic and "
        "loads, so fewer threads do more each; the price is registers per thread.") },
    { "depth", QT_TRANSLATE_NOOP("teaching",
        "Temporal blocking (variant temporal): steps done inside one kernel launch. A cell then crosses DRAM "
        "once every 'depth' steps instead of every step, at the cost of recomputing a wider halo.") },
    { "heuristic", QT_TRANSLATE_NOOP("teaching",
        "The thread block: threads that run together on one SM and share its memory. Ticked, the thesis' "
        "heuristic picks the shape (for stream and temporal, which the thesis does not have, and 2D smem, the "
        "shapes measured best on the H100); untick it to try your own. A shape no GPU could launch is "
        "explained, not run.") },
    { "bx", QT_TRANSLATE_NOOP("teaching",
        "Threads of a block along x, the fast axis: 32 or more lets a warp read one contiguous row.") },
    { "by", QT_TRANSLATE_NOOP("teaching", "Threads of a block along y.") },
    { "bz", QT_TRANSLATE_NOOP("teaching",
        "Threads of a block along z (3D). Bx x By x Bz may not pass 1024 threads.") },
    { "initial", QT_TRANSLATE_NOOP("teaching",
        "The field the run starts from; the speed does not depend on it, the picture does.") },
    { "steps_per_frame", QT_TRANSLATE_NOOP("teaching",
        "Stencil steps between two pictures. More steps per picture: the display costs less of the GPU's "
        "time. 0 runs the kernel as fast as it can and shows what it can.") },
};
// clang-format on

} // namespace

QString teaching_tooltip(const QString& name) {
    for (const KnobText& k : kTexts)
        if (name == QLatin1String(k.name)) return QCoreApplication::translate("teaching", k.text);
    return {};
}

void set_teaching_tooltips(QWidget* panel) {
    for (QWidget* w : panel->findChildren<QWidget*>())
        if (const QString tip = teaching_tooltip(w->objectName()); !tip.isEmpty()) w->setToolTip(tip);
}

} // namespace ss::gui
