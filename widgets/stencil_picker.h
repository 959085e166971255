// SPDX-License-Identifier: MIT
// The control panel's stencil choice (issue 34): star, diffusion4, box, EBISU's ten benchmarks by name, a stencil
// read from the user's file or made in the stencil editor, and "From file…" (a file dialog). It turns the choice into
// the problem's stencil and back; the panel owns the other knobs, sends the settings and explains refusals.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/stencil_shape.h"

#include <QObject>
#include <QString>

#include <vector>

class QComboBox;

namespace ss::gui {

// Each entry's stencil name ("star", "diffusion4", "box", "2d25pt", a file entry's path); its Qt::UserRole data is
// the StencilKind, -1 for "From file…".
inline constexpr int kStencilNameRole = Qt::UserRole + 1;

class StencilPicker : public QObject {
    Q_OBJECT
public:
    explicit StencilPicker(QObject* parent = nullptr);
    QComboBox* combo() const { return m_combo; }

    // The chosen stencil in `p`: its kind; a point stencil's shape and the dims and radius it fixes (box: built from
    // p's dims and radius) and the jacobi rule, the only one point stencils compute.
    void apply_to(StencilProblem& p) const;
    // Selects the entry for `p`'s stencil; a shape no name gives becomes the file entry. Emits nothing.
    void show(const StencilProblem& p);
    // Whether the chosen stencil fixes the dims and the radius (an EBISU benchmark or a file: yes; box: no).
    bool fixes_shape() const;
    // The stencil in the JSON file at `path` becomes the file entry and is chosen (emits chosen()); else returns
    // the reason and leaves the choice as it was.
    Status load_file(const QString& path);
    // `shape` (checked: the stencil editor's) becomes the file entry, shown as "Custom" unless it was saved to a
    // file, and is chosen (emits chosen()).
    void choose_shape(const StencilShape& shape);

signals:
    // The user chose another stencil (not show()).
    void chosen();
    // A file from "From file…" was refused: the one-line reason.
    void file_refused(const QString& reason);

private:
    void entry_activated(int index);
    int set_file_entry(const SharedShape&); // returns the file entry's index

    QComboBox* m_combo;
    std::vector<SharedShape> m_entry_shapes; // per entry: the shape it fixes (EBISU's, the file's), else none
    SharedShape m_file_shape; // the file entry's stencil, if any
    int m_previous = 0; // the entry chosen before "From file…"
    bool m_showing = false;
};

} // namespace ss::gui
