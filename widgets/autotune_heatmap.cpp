// SPDX-License-Identifier: MIT
#include "widgets/autotune_heatmap.h"

#include "widgets/colormap.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <set>

namespace ss::gui {
namespace {

constexpr int kTitle = 20, kColumnLabels = 18, kRowLabels = 44, kGap = 16, kMinCell = 34;

QColor rate_colour(double t) {
    // Viridis from 0.15 up: its darkest purple makes the black text unreadable.
    const Rgb8 c = colormap_sample(ColormapKind::Viridis, float(0.15 + 0.85 * std::clamp(t, 0.0, 1.0)));
    return QColor(c.r, c.g, c.b);
}

} // namespace

AutotuneHeatmap::AutotuneHeatmap(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AutotuneHeatmap::set_space(const std::vector<BlockDims>& candidates, std::optional<BlockDims> heuristic) {
    m_cells.clear();
    for (const BlockDims& b : candidates) m_cells.push_back({ b, false, {} });
    m_heuristic = heuristic;
    m_selected.reset();
    std::set<int> bzs;
    for (const Cell& c : m_cells) bzs.insert(c.block.z);
    m_panels.clear();
    for (int bz : bzs) {
        Panel p;
        p.bz = bz;
        std::set<int> xs, ys;
        for (const Cell& c : m_cells)
            if (c.block.z == bz) xs.insert(c.block.x), ys.insert(c.block.y);
        p.xs.assign(xs.begin(), xs.end());
        p.ys.assign(ys.begin(), ys.end());
        m_panels.push_back(p);
    }
    layout_panels();
    updateGeometry();
    update();
}

void AutotuneHeatmap::set_result(const AutotuneResult& r) {
    for (Cell& c : m_cells)
        if (c.block == r.block) {
            // A temporal block runs at several depths: its cell keeps the fastest that ran.
            const bool better
                = !c.done || (r.error.empty() && (!c.result.error.empty() || r.gcells_per_s > c.result.gcells_per_s));
            if (better) c.result = r;
            c.done = true;
            update();
            return;
        }
}

void AutotuneHeatmap::set_results(const std::vector<AutotuneResult>& results) {
    for (const AutotuneResult& r : results) set_result(r);
}

const AutotuneResult* AutotuneHeatmap::result(const BlockDims& b) const {
    for (const Cell& c : m_cells)
        if (c.block == b && c.done) return &c.result;
    return nullptr;
}

int AutotuneHeatmap::measured() const {
    return int(std::count_if(m_cells.begin(), m_cells.end(), [](const Cell& c) { return c.done; }));
}

double AutotuneHeatmap::best_rate() const {
    double best = 0.0;
    for (const Cell& c : m_cells)
        if (c.done && c.result.error.empty()) best = std::max(best, c.result.gcells_per_s);
    return best;
}

std::optional<BlockDims> AutotuneHeatmap::best() const {
    const Cell* best = nullptr;
    for (const Cell& c : m_cells)
        if (c.done && c.result.error.empty() && c.result.gcells_per_s > 0
            && (!best || c.result.gcells_per_s > best->result.gcells_per_s))
            best = &c;
    if (!best) return std::nullopt;
    return best->block;
}

void AutotuneHeatmap::select(std::optional<BlockDims> b) {
    m_selected = b;
    update();
}

void AutotuneHeatmap::layout_panels() {
    if (m_panels.empty()) return;
    const int n = int(m_panels.size());
    const int panel_width = std::max((width() - kGap * (n - 1)) / n, kRowLabels + kMinCell);
    int x = 0;
    for (Panel& p : m_panels) {
        const int cols = int(p.xs.size()), rows = int(p.ys.size());
        const int cell_w = std::max((panel_width - kRowLabels) / std::max(cols, 1), kMinCell);
        const int cell_h
            = std::clamp((height() - kTitle - kColumnLabels) / std::max(rows, 1), kMinCell * 2 / 3, cell_w);
        p.grid = QRect(x + kRowLabels, kTitle + kColumnLabels, cell_w * cols, cell_h * rows);
        x += panel_width + kGap;
    }
}

QRect AutotuneHeatmap::cell_rect(const BlockDims& b) const {
    for (const Panel& p : m_panels) {
        if (p.bz != b.z) continue;
        const auto col = std::find(p.xs.begin(), p.xs.end(), b.x);
        const auto row = std::find(p.ys.begin(), p.ys.end(), b.y);
        if (col == p.xs.end() || row == p.ys.end()) return {};
        const int w = p.grid.width() / int(p.xs.size()), h = p.grid.height() / int(p.ys.size());
        return QRect(p.grid.left() + int(col - p.xs.begin()) * w, p.grid.top() + int(row - p.ys.begin()) * h, w, h);
    }
    return {};
}

std::optional<BlockDims> AutotuneHeatmap::block_at(QPoint pos) const {
    for (const Cell& c : m_cells)
        if (cell_rect(c.block).contains(pos)) return c.block;
    return std::nullopt;
}

QSize AutotuneHeatmap::sizeHint() const {
    int w = 0, h = 0;
    for (const Panel& p : m_panels) {
        w += kRowLabels + 58 * int(p.xs.size()) + kGap;
        h = std::max(h, kTitle + kColumnLabels + 34 * int(p.ys.size()));
    }
    return QSize(std::max(w, 320), std::max(h + 4, 160));
}

QSize AutotuneHeatmap::minimumSizeHint() const {
    return QSize(240, 140);
}

void AutotuneHeatmap::paintEvent(QPaintEvent*) {
    layout_panels();
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(rect(), palette().base());
    if (m_cells.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Run the search to fill the map."));
        return;
    }
    const double best = best_rate();
    const std::optional<BlockDims> best_block = this->best();
    const QPen text_pen(palette().color(QPalette::Text));
    for (const Panel& p : m_panels) {
        painter.setPen(text_pen);
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.drawText(QRect(p.grid.left() - kRowLabels, 0, p.grid.width() + kRowLabels, kTitle), Qt::AlignCenter,
            m_panels.size() > 1 || p.bz > 1 ? tr("Bz = %1").arg(p.bz) : tr("Bx → , By ↓"));
        painter.setFont(font());
        const int w = p.grid.width() / int(p.xs.size()), h = p.grid.height() / int(p.ys.size());
        for (std::size_t i = 0; i < p.xs.size(); ++i)
            painter.drawText(
                QRect(p.grid.left() + int(i) * w, kTitle, w, kColumnLabels), Qt::AlignCenter, QString::number(p.xs[i]));
        for (std::size_t j = 0; j < p.ys.size(); ++j)
            painter.drawText(QRect(p.grid.left() - kRowLabels, p.grid.top() + int(j) * h, kRowLabels - 6, h),
                Qt::AlignRight | Qt::AlignVCenter, QString::number(p.ys[j]));
    }
    for (const Cell& c : m_cells) {
        const QRect r = cell_rect(c.block).adjusted(1, 1, -1, -1);
        const bool failed = c.done && !c.result.error.empty();
        if (!c.done) {
            painter.fillRect(r, palette().color(QPalette::AlternateBase));
        } else if (failed) {
            painter.fillRect(r, QBrush(QColor(150, 150, 150), Qt::BDiagPattern));
        } else {
            const double t = best > 0 ? c.result.gcells_per_s / best : 0.0;
            painter.fillRect(r, rate_colour(t));
            painter.setPen(t > 0.55 ? Qt::black : Qt::white);
            painter.drawText(
                r, Qt::AlignCenter, QString::number(c.result.gcells_per_s, 'f', c.result.gcells_per_s < 10 ? 1 : 0));
        }
        if (m_heuristic && c.block == *m_heuristic) {
            painter.setPen(c.done && !failed ? Qt::black : palette().color(QPalette::Text));
            painter.drawText(r.adjusted(3, 1, 0, 0), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("H"));
        }
        if (best_block && c.block == *best_block) {
            painter.setPen(QPen(QColor(255, 80, 40), 3));
            painter.drawRect(r.adjusted(1, 1, -1, -1));
        }
        if (m_selected && c.block == *m_selected) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 2, Qt::DashLine));
            painter.drawRect(r.adjusted(3, 3, -3, -3));
        }
    }
}

QString AutotuneHeatmap::tooltip(const Cell& c) const {
    QString text = QStringLiteral("<b>%1</b> (%2 threads)")
                       .arg(QString::fromStdString(format_block(c.block)))
                       .arg(c.block.threads());
    if (!c.done)
        text += tr("<br>not measured yet");
    else if (!c.result.error.empty())
        text += tr("<br>refused: %1").arg(QString::fromStdString(c.result.error).toHtmlEscaped());
    else {
        text += tr("<br>%1 GCells/s, %2 ms/step")
                    .arg(c.result.gcells_per_s, 0, 'f', 2)
                    .arg(c.result.ms_per_step, 0, 'f', 4);
        if (c.result.depth > 1) text += tr(" at depth %1 (this block's fastest)").arg(c.result.depth);
        const double best = best_rate();
        if (best > 0) text += tr("<br>%1 % of the best").arg(100.0 * c.result.gcells_per_s / best, 0, 'f', 1);
    }
    if (m_heuristic && c.block == *m_heuristic) text += tr("<br>the heuristic's choice (H)");
    return text + tr("<br><i>click to select, double-click to apply</i>");
}

bool AutotuneHeatmap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const std::optional<BlockDims> b = block_at(help->pos());
        if (!b) {
            QToolTip::hideText();
            e->ignore();
            return true;
        }
        for (const Cell& c : m_cells)
            if (c.block == *b) QToolTip::showText(help->globalPos(), tooltip(c), this, cell_rect(*b));
        return true;
    }
    return QWidget::event(e);
}

void AutotuneHeatmap::mousePressEvent(QMouseEvent* e) {
    const std::optional<BlockDims> b = block_at(e->position().toPoint());
    if (!b) return;
    select(b);
    emit cell_selected(*b);
}

void AutotuneHeatmap::mouseDoubleClickEvent(QMouseEvent* e) {
    const std::optional<BlockDims> b = block_at(e->position().toPoint());
    if (b) emit cell_activated(*b);
}

} // namespace ss::gui
