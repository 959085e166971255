// SPDX-License-Identifier: MIT
// A stencil as data (issue 34): a set of (offset, weight) points within radius R in 2D or 3D. The update of a point
// stencil is out(x) = sum_i w_i * in(x + d_i) (the jacobi form; cells within R of the border stay fixed, as the star
// does). The star stencil keeps its own kind and kernels (StencilKind::Star); box shapes, EBISU's benchmarks and
// user files are point stencils (gpu/problem/stencil_catalog.h). Plain values, no Qt, no CUDA.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ss {

struct StencilPoint {
    int dx = 0, dy = 0, dz = 0;
    double weight = 0.0;
    bool operator==(const StencilPoint&) const = default;
};

struct StencilShape {
    std::string name; // "box", "2d25pt", or the user's name for a file's stencil
    int dims = 2;
    // In canonical order (dz, then dy, then dx ascending): the order every backend adds the products in.
    std::vector<StencilPoint> points;
    // The file the stencil was read from ("" for a named shape): a setup file names the file, not the points.
    // Not part of the stencil: equality leaves it out, so a moved file still compares equal.
    std::string source;
    // The largest |offset| along any axis: the Dirichlet border's and the halo's width.
    int radius() const;
    bool operator==(const StencilShape& other) const {
        return name == other.name && dims == other.dims && points == other.points;
    }
};

// The points sorted into canonical order (a shape's points are kept that way).
void sort_points(std::vector<StencilPoint>&);

// A shape shared, immutable, by every copy of a configuration (configurations are copied freely: to the engine
// thread, into plans, per strip). Equality compares the points, so that the plan cache and the window's "did the
// configuration change" see two loads of one file as the same stencil.
class SharedShape {
public:
    SharedShape() = default;
    explicit SharedShape(StencilShape shape)
        : m_shape(std::make_shared<const StencilShape>(std::move(shape))) { }
    explicit operator bool() const { return m_shape != nullptr; }
    const StencilShape& operator*() const { return *m_shape; }
    const StencilShape* operator->() const { return m_shape.get(); }
    bool operator==(const SharedShape& other) const {
        return m_shape == other.m_shape || (m_shape && other.m_shape && *m_shape == *other.m_shape);
    }

private:
    std::shared_ptr<const StencilShape> m_shape;
};

} // namespace ss
