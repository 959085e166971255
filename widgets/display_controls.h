// SPDX-License-Identifier: MIT
// The Display group of the control panel: colour map, colour range, and for 3D the plane shown. It follows
// the Session's display state and writes it; the panel tells it the problem the knobs describe, so the
// slice range follows a size or dimension edit before it is sent.
#pragma once
#include "gpu/problem/config.h"
#include "session/session.h"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace ss::gui {

// The fixed colour range's bounds the Range boxes can show; --range refuses others.
inline constexpr double kMaxRangeMagnitude = 1e9;

class DisplayControls : public QGroupBox {
    Q_OBJECT
public:
    explicit DisplayControls(Session&, QWidget* parent = nullptr);
    // The knobs' problem: 3D controls enabled, the slice index ranging over the chosen axis (at the same
    // relative depth). `send_slice`: the new slice goes to the Session (a dimension edit moves the plane).
    void follow_problem(const StencilProblem&, bool send_slice = false);

    void set_slice(const SliceSelection&);
    void set_colormap(ColormapKind);
    void set_range_policy(const RangePolicy&);

private:
    void update_slice_range();
    void update_enabled();
    void emit_slice();
    void emit_range();

    Session& m_session;
    StencilProblem m_problem;
    bool m_updating = false; // set_* is filling the knobs: no signals back
    QComboBox *m_colormap, *m_axis;
    QCheckBox *m_auto_range, *m_projection;
    QDoubleSpinBox *m_lo, *m_hi;
    QSlider* m_index;
    QLabel* m_index_label;
};

} // namespace ss::gui
