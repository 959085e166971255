// SPDX-License-Identifier: MIT
// The stencil editor (issue 34): a point stencil's name, dims and radius, its weights one plane at a time
// (StencilWeightsGrid), symmetry helpers (widgets/stencil_symmetry.h), a start from any named shape, and load/save
// as a stencil file (the JSON format of gpu/problem/stencil_file.h). Checked live with check_shape: OK stays disabled
// while the stencil could not run, the reason in one line beneath. The dialog only edits; StencilOverview hands
// the accepted shape on.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/stencil_shape.h"
#include "widgets/stencil_symmetry.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ss::gui {

class StencilDrawing;
class StencilWeightsGrid;

class StencilEditorDialog : public QDialog {
    Q_OBJECT
public:
    // Starts from the stencil of `base` (a star or diffusion4 as its points); `base`'s precision and rule give the
    // facts line its bytes per cell.
    explicit StencilEditorDialog(const StencilConfig& base, QWidget* parent = nullptr);

    // Edits `shape`: its name, dims, radius and points.
    void set_shape(const StencilShape& shape);
    // Edits a named shape: "star" (of the dialog's dims and radius), "box" (the same), or an EBISU benchmark.
    void start_from(const QString& name);
    // The stencil as edited (its source: the file it was loaded from or saved to, while it still equals that file).
    StencilShape shape() const;
    // Success when OK would hand on a stencil that runs; else the reason, as the line under the grid shows it.
    Status validity() const;
    QString reason() const;

    void apply(Symmetry);
    // The weights divided by their sum; false (nothing changes) when they sum to 0.
    bool normalise();
    Status load(const QString& path);
    Status save(const QString& path);

    StencilWeightsGrid* grid() const { return m_grid; }
    QPushButton* ok_button() const { return m_ok; }

private:
    void extent_edited();
    void update_state();
    void load_dialog();
    void save_dialog();

    StencilConfig m_base;
    QLineEdit* m_name;
    QComboBox *m_dims, *m_start;
    QSpinBox* m_radius;
    StencilWeightsGrid* m_grid;
    StencilDrawing* m_drawing;
    QLabel *m_facts, *m_reason;
    QPushButton *m_mirror_x, *m_mirror_y, *m_mirror_z, *m_symmetric, *m_normalise, *m_load, *m_save, *m_ok;
    StencilShape m_file_shape; // as last loaded or saved, its source the file
    bool m_updating = false;
};

} // namespace ss::gui
