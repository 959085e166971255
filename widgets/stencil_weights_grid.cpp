// SPDX-License-Identifier: MIT
#include "widgets/stencil_weights_grid.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <charconv>
#include <cstdlib>

namespace ss::gui {

StencilWeightsGrid::StencilWeightsGrid(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget)
    , m_plane_box(new QSpinBox)
    , m_plane_label(new QLabel(tr("Plane z"))) {
    m_table->setObjectName(QStringLiteral("weights"));
    m_plane_box->setObjectName(QStringLiteral("plane"));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setDefaultSectionSize(72);
    m_table->setWordWrap(false);
    m_table->setToolTip(tr("One cell per offset: columns dx, rows dy (-R at the top). Type a weight to make the "
                           "offset a point; clear the cell to remove it. The shaded cell is the centre."));
    m_plane_box->setToolTip(tr("The z offset of the plane shown (3D): 0 is the centre's plane."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* plane_row = new QHBoxLayout;
    plane_row->addWidget(m_plane_label);
    plane_row->addWidget(m_plane_box);
    plane_row->addStretch(1);
    layout->addLayout(plane_row);
    layout->addWidget(m_table);
    connect(m_table, &QTableWidget::cellChanged, this, &StencilWeightsGrid::cell_changed);
    connect(m_plane_box, &QSpinBox::valueChanged, this, &StencilWeightsGrid::set_plane);
    set_extent(2, 1);
}

QString StencilWeightsGrid::weight_text(double weight) {
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, weight);
    return QString::fromLatin1(text, written.ptr - text);
}

// A long weight (12/118 is 0.1016949152542373) shows rounded, its exact text as the cell's tooltip; the grid keeps
// the exact text, and an unedited cell stays exact: an edit that leaves the shown text as it was changes nothing.
void StencilWeightsGrid::show_text(QTableWidgetItem* item, const QString& text) {
    bool number = false;
    const double weight = text.toDouble(&number);
    const bool shorten = number && text.size() > 8;
    item->setText(shorten ? QString::number(weight, 'g', 5) : text);
    if (!(item->row() == m_radius && item->column() == m_radius && m_plane == 0)) // the centre's says it is one
        item->setToolTip(shorten ? text : QString());
}

void StencilWeightsGrid::set_extent(int dims, int radius) {
    m_dims = dims;
    m_radius = radius;
    std::erase_if(m_cells, [&](const auto& cell) {
        const auto [dx, dy, dz] = cell.first;
        return std::abs(dx) > radius || std::abs(dy) > radius || std::abs(dz) > (dims == 3 ? radius : 0);
    });
    const bool three = dims == 3;
    m_plane_box->blockSignals(true);
    m_plane_box->setRange(three ? -radius : 0, three ? radius : 0);
    m_plane_box->blockSignals(false);
    m_plane_box->setVisible(three);
    m_plane_label->setVisible(three);
    m_plane = m_plane_box->value();
    const int side = 2 * radius + 1;
    m_table->setRowCount(side);
    m_table->setColumnCount(side);
    QStringList labels;
    for (int d = -radius; d <= radius; ++d) labels << QString::number(d);
    m_table->setHorizontalHeaderLabels(labels);
    m_table->setVerticalHeaderLabels(labels);
    show_plane();
    emit edited();
}

void StencilWeightsGrid::set_plane(int dz) {
    if (dz == m_plane) return;
    m_plane = dz;
    m_plane_box->setValue(dz);
    show_plane();
}

void StencilWeightsGrid::show_plane() {
    m_filling = true;
    for (int row = 0; row < m_table->rowCount(); ++row)
        for (int column = 0; column < m_table->columnCount(); ++column) {
            const int dx = column - m_radius, dy = row - m_radius;
            auto* item = new QTableWidgetItem;
            show_text(item, cell_text(dx, dy, m_plane));
            item->setTextAlignment(Qt::AlignCenter);
            if (dx == 0 && dy == 0 && m_plane == 0) {
                item->setBackground(QColor(255, 236, 179));
                item->setToolTip(tr("The centre: the cell the step updates"));
            }
            m_table->setItem(row, column, item);
        }
    m_filling = false;
}

void StencilWeightsGrid::set_points(const std::vector<StencilPoint>& points) {
    m_cells.clear();
    for (const StencilPoint& p : points) m_cells[{ p.dx, p.dy, p.dz }] = weight_text(p.weight);
    show_plane();
    emit edited();
}

Status StencilWeightsGrid::read_points(std::vector<StencilPoint>& out) const {
    std::vector<StencilPoint> points;
    for (const auto& [offset, text] : m_cells) {
        const auto [dx, dy, dz] = offset;
        bool number = false;
        const double weight = text.trimmed().toDouble(&number);
        if (!number) {
            const QString at = m_dims == 3 ? QStringLiteral("(%1, %2, %3)").arg(dx).arg(dy).arg(dz)
                                           : QStringLiteral("(%1, %2)").arg(dx).arg(dy);
            return Status::failure(tr("the weight at %1, '%2', is not a number").arg(at, text.left(24)).toStdString());
        }
        points.push_back({ dx, dy, dz, weight });
    }
    sort_points(points);
    out = std::move(points);
    return Status::success();
}

QString StencilWeightsGrid::cell_text(int dx, int dy, int dz) const {
    const auto it = m_cells.find({ dx, dy, dz });
    return it == m_cells.end() ? QString() : it->second;
}

void StencilWeightsGrid::set_cell_text(int dx, int dy, int dz, const QString& text) {
    if (std::abs(dx) > m_radius || std::abs(dy) > m_radius || std::abs(dz) > (m_dims == 3 ? m_radius : 0)) return;
    if (text.trimmed().isEmpty())
        m_cells.erase({ dx, dy, dz });
    else
        m_cells[{ dx, dy, dz }] = text.trimmed();
    if (dz == m_plane) {
        m_filling = true;
        show_text(m_table->item(dy + m_radius, dx + m_radius), text.trimmed());
        m_filling = false;
    }
    emit edited();
}

void StencilWeightsGrid::cell_changed(int row, int column) {
    if (m_filling) return;
    set_cell_text(column - m_radius, row - m_radius, m_plane, m_table->item(row, column)->text());
}

} // namespace ss::gui
