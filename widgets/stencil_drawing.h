// SPDX-License-Identifier: MIT
// A small drawing of a stencil's points (issue 34): a dot per offset of the (2R+1)^2 grid, the stencil's points
// filled by |weight| (blue positive, red negative), the centre ringed; a 3D stencil as its planes z = -R..R side by
// side (wrapped into rows where that draws them larger). Rows are dy (-R at the top), columns dx, as the editor's
// grid and EBISU's tables lay them out. It paints what it is given; StencilOverview feeds it the Session's stencil.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/stencil_shape.h"

#include <QWidget>

namespace ss::gui {

// The points a problem's stencil reads, as a shape to draw or to start an edit from: a point stencil's own, the
// star's from star_weights (its rule, dims and radius), diffusion4's 13-point footprint (two radius-1 Laplacians in
// a plane; weights of the Laplacian squared, for the drawing's shading only).
StencilShape drawn_stencil(const StencilProblem&);

class StencilDrawing : public QWidget {
    Q_OBJECT
public:
    explicit StencilDrawing(QWidget* parent = nullptr);
    void set_shape(StencilShape);
    const StencilShape& shape() const { return m_shape; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    StencilShape m_shape;
};

} // namespace ss::gui
