// SPDX-License-Identifier: MIT
#include "widgets/strip_overlay.h"

#include "gpu/multi_gpu.h"
#include "widgets/field_view.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>

namespace ss::gui {

void show_strip_overlay(FieldView& view, const StencilConfig& c) {
    if (strip_count(c.placement) <= 1 || !check_strips(c)) {
        view.set_overlay({});
        return;
    }
    const StripPlan plan = plan_strips(c);
    view.set_overlay([&view, plan, dims = c.problem.dims](QPainter& p, const ViewTransform& t) {
        const SliceSelection s = view.last_frame().slice;
        const auto label = [](int device) { return QCoreApplication::translate("MainWindow", "GPU %1").arg(device); };
        p.save();
        p.setPen(QPen(QColor(255, 255, 255, 200), 1.5, Qt::DashLine));
        const QFontMetrics fm(p.font());
        const RectD r = t.field_rect();
        if (dims == 3 && s.axis == SliceAxis::XY) {
            for (const Strip& strip : plan.strips)
                if (s.index >= strip.first_row && s.index < strip.end_row)
                    p.drawText(QPointF(r.left + 6, r.top + fm.ascent() + 4), label(strip.device));
            p.restore();
            return;
        }
        for (const Strip& strip : plan.strips) {
            const double y0 = t.cell_to_pixel({ 0.0, double(strip.first_row) }).y;
            const double y1 = t.cell_to_pixel({ 0.0, double(strip.end_row) }).y;
            if (strip.first_row > 0) p.drawLine(QPointF(r.left, y0), QPointF(r.left + r.width, y0));
            p.drawText(QPointF(r.left + 6, std::min(y0, y1) + fm.ascent() + 4), label(strip.device));
        }
        p.restore();
    });
}

} // namespace ss::gui
