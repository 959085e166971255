// SPDX-License-Identifier: MIT
#include "widgets/kernel_resources_box.h"

#include "widgets/plain_text.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>

#include <utility>

namespace ss::gui {

QWidget* make_kernel_resources_box() {
    auto* box = new QGroupBox(QGroupBox::tr("Kernel resources"));
    auto* form = new QFormLayout(box);
    const std::pair<const char*, QString> rows[] = { { "res_auto", QGroupBox::tr("Variant auto") },
        { "res_kernel", QGroupBox::tr("Kernel") }, { "res_kernel_why", QGroupBox::tr("Chosen because") },
        { "res_block", QGroupBox::tr("Block") }, { "res_grid", QGroupBox::tr("Grid blocks") },
        { "res_registers", QGroupBox::tr("Registers / thread") },
        { "res_spill", QGroupBox::tr("Spill bytes / thread") }, { "res_smem", QGroupBox::tr("Shared memory / block") },
        { "res_occupancy", QGroupBox::tr("Theoretical occupancy") }, { "res_limiter", QGroupBox::tr("Limited by") },
        { "res_compile", QGroupBox::tr("Compile") } };
    for (const auto& [name, label] : rows) {
        auto* value = plain_label(new QLabel(QStringLiteral("-"))); // the engine's and the compiler's words
        value->setObjectName(QLatin1String(name));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // every value wraps: the panel is narrow, and one long line (a temporal kernel's title, a compile note) would
        // widen the whole Controls dock past a projector's 1280 px beside a lesson
        value->setWordWrap(true);
        form->addRow(label, value);
    }
    show_auto_line(*box, QString()); // shown while the variant auto is chosen
    return box;
}

void show_auto_line(QWidget& box, const QString& line) {
    auto* value = box.findChild<QLabel*>(QStringLiteral("res_auto"));
    value->setText(line);
    if (auto* form = qobject_cast<QFormLayout*>(box.layout())) form->setRowVisible(value, !line.isEmpty());
}

void show_kernel_resources(QWidget& box, const EngineReady& ready) {
    const KernelResources& r = ready.resources;
    auto set
        = [&box](const char* name, const QString& text) { box.findChild<QLabel*>(QLatin1String(name))->setText(text); };
    const bool gpu = ready.settings.config.placement.backend == Backend::Cuda;
    const QString na = QGroupBox::tr("n/a (CPU)");
    // The entry point (what `ncu -k regex:NAME` takes) or, on the CPU, the loop; then why it runs.
    set("res_kernel", QString::fromStdString(kernel_title(r.kernel)));
    set("res_kernel_why", QString::fromStdString(kernel_reason(r.kernel)));
    set("res_block", gpu ? QString::fromStdString(format_block(r.block)) : na);
    set("res_grid", gpu ? QString::number(r.grid_blocks) : na);
    set("res_registers", gpu ? QString::number(r.registers) : na);
    set("res_spill", gpu ? QString::number(r.local_bytes) : na);
    set("res_smem", gpu ? QGroupBox::tr("%1 B static + %2 B dynamic").arg(r.static_smem).arg(r.dynamic_smem) : na);
    set("res_occupancy",
        gpu ? QGroupBox::tr("%1 % (%2 blocks/SM)")
                  .arg(r.theoretical_occupancy * 100.0, 0, 'f', 1)
                  .arg(r.max_blocks_per_sm)
            : na);
    set("res_limiter", gpu ? QString::fromStdString(r.occupancy_limiter) : na);
    set("res_compile",
        gpu ? (
            r.from_cache ? QGroupBox::tr("from cache") : QGroupBox::tr("built in %1 ms").arg(r.compile_ms, 0, 'f', 0))
            : na);
}

} // namespace ss::gui
