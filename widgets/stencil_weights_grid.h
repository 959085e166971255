// SPDX-License-Identifier: MIT
// The stencil editor's table of weights (issue 34): one plane of (2R+1)x(2R+1) cells at a time, rows dy (-R at the
// top), columns dx, as EBISU's tables and the drawing lay them out; a plane selector for z in 3D. An empty cell is no
// point, a number is a point of that weight; the centre cell is shaded. Cells keep their text as typed on every
// plane, so a mistyped weight stays visible until it is fixed.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/stencil_shape.h"

#include <QString>
#include <QWidget>

#include <map>
#include <tuple>
#include <vector>

class QLabel;
class QSpinBox;
class QTableWidget;
class QTableWidgetItem;

namespace ss::gui {

class StencilWeightsGrid : public QWidget {
    Q_OBJECT
public:
    explicit StencilWeightsGrid(QWidget* parent = nullptr);

    // The grid's dims and radius; cells beyond a smaller radius (or off the z = 0 plane, going to 2D) are dropped.
    void set_extent(int dims, int radius);
    int dims() const { return m_dims; }
    int radius() const { return m_radius; }
    // The plane of z offset `dz` is the one shown (3D).
    void set_plane(int dz);
    int plane() const { return m_plane; }

    // Every cell from `points` (the others empty); the extent stays. Emits edited().
    void set_points(const std::vector<StencilPoint>& points);
    // The points the cells give, in canonical order; else the first cell that is not a number, in one line.
    Status read_points(std::vector<StencilPoint>& out) const;

    // The text of one cell, and setting it as typing would (emits edited()); an offset outside the grid is ignored.
    QString cell_text(int dx, int dy, int dz = 0) const;
    void set_cell_text(int dx, int dy, int dz, const QString& text);
    QTableWidget* table() const { return m_table; }

    // A weight as the cells show it: the shortest text that reads back to the same double.
    static QString weight_text(double);

signals:
    void edited();

private:
    void show_plane();
    void show_text(QTableWidgetItem* item, const QString& text);
    void cell_changed(int row, int column);

    using Offset = std::tuple<int, int, int>;
    QTableWidget* m_table;
    QSpinBox* m_plane_box;
    QLabel* m_plane_label;
    std::map<Offset, QString> m_cells; // the non-empty cells of every plane
    int m_dims = 2, m_radius = 1, m_plane = 0;
    bool m_filling = false; // the table is being filled from m_cells: no edits back
};

} // namespace ss::gui
