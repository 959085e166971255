// SPDX-License-Identifier: MIT
// The autotune result as the thesis' space is shaped (sec. 4.3.2): one Bx x By grid per Bz, each cell
// coloured by its GCells/s relative to the best. Cells fill in while the search runs; refused cells are
// hatched and say why on hover; the best cell is outlined, the heuristic's block is marked "H".
#pragma once

#include "gpu/studies/autotune.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace ss::gui {

class AutotuneHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit AutotuneHeatmap(QWidget* parent = nullptr);

    // A new search: every candidate pending. `heuristic` is marked when it is in the space.
    void set_space(const std::vector<BlockDims>& candidates, std::optional<BlockDims> heuristic);
    // A measured (or refused) candidate; unknown blocks are ignored. A block measured at several temporal depths
    // keeps its fastest result.
    void set_result(const AutotuneResult&);
    void set_results(const std::vector<AutotuneResult>&);

    std::optional<BlockDims> best() const;
    std::optional<BlockDims> selected() const { return m_selected; }
    void select(std::optional<BlockDims>);
    // The measured result of a block, if it has one.
    const AutotuneResult* result(const BlockDims&) const;
    int measured() const;
    int candidates() const { return int(m_cells.size()); }
    // The cell under a widget position (layout of the last paint or resize).
    std::optional<BlockDims> block_at(QPoint) const;
    QRect cell_rect(const BlockDims&) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cell_selected(ss::BlockDims);
    void cell_activated(ss::BlockDims); // double-click: apply it

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    bool event(QEvent*) override;

private:
    struct Cell {
        BlockDims block;
        bool done = false;
        AutotuneResult result;
    };
    struct Panel {
        int bz = 1;
        std::vector<int> xs, ys; // the Bx columns and By rows present in this panel
        QRect grid; // where the cells are drawn
    };
    void layout_panels();
    double best_rate() const;
    QString tooltip(const Cell&) const;

    std::vector<Cell> m_cells;
    std::vector<Panel> m_panels;
    std::optional<BlockDims> m_heuristic, m_selected;
};

} // namespace ss::gui
