// SPDX-License-Identifier: MIT
#include "widgets/strip_overlay.h"

#include "widgets/field_view.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>

namespace ss::gui {

void show_strip_overlay(FieldView& view, const LaunchPlan& launch) {
    if (!launch.strips) {
        view.set_overlay({});
        return;
    }
    const StripPlan plan = *launch.strips;
    const StencilConfig c = launch.config;
    view.set_overlay([&view, plan, c](QPainter& p, const ViewTransform& t) {
        const SliceSelection s = view.last_frame().slice;
        const auto label = [](int device) { return QCoreApplication::translate("MainWindow", "GPU %1").arg(device); };
        p.save();
        p.setPen(QPen(QColor(255, 255, 255, 200), 1.5, Qt::DashLine));
        const QFontMetrics fm(p.font());
        const RectD r = t.field_rect();
        const PlaneSplit how = plane_split(c, s.axis);
        if (how == PlaneSplit::Normal) { // the plane lies in one strip: name its GPU
            for (const Strip& strip : plan.strips)
                if (s.index >= strip.first_row && s.index < strip.end_row)
                    p.drawText(QPointF(r.left + 6, r.top + fm.ascent() + 4), label(strip.device));
            p.restore();
            return;
        }
        for (const Strip& strip : plan.strips) {
            if (how == PlaneSplit::AlongV) { // horizontal lines between bands of rows
                const double y0 = t.cell_to_pixel({ 0.0, double(strip.first_row) }).y;
                const double y1 = t.cell_to_pixel({ 0.0, double(strip.end_row) }).y;
                if (strip.first_row > 0) p.drawLine(QPointF(r.left, y0), QPointF(r.left + r.width, y0));
                p.drawText(QPointF(r.left + 6, std::min(y0, y1) + fm.ascent() + 4), label(strip.device));
            } else { // vertical lines between bands of columns
                const double x0 = t.cell_to_pixel({ double(strip.first_row), 0.0 }).x;
                if (strip.first_row > 0) p.drawLine(QPointF(x0, r.top), QPointF(x0, r.top + r.height));
                p.drawText(QPointF(x0 + 6, r.top + fm.ascent() + 4), label(strip.device));
            }
        }
        p.restore();
    });
}

} // namespace ss::gui
