// SPDX-License-Identifier: MIT
// Every knob of a run, live: what the engine computes (RunSettings), how it is paced, which plane is
// shown and how it is coloured. Everything it says about the knobs comes from the Session's plan of them
// (Session::plan_for, made once per change): configurations the engine cannot run are explained inline with
// the plan's reason and are not sent, and impossible halo modes and split axes are greyed out with theirs.
// Next to the knobs: the kernel's resources.
#pragma once

#include "gpu/problem/device.h"
#include "session/session.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace ss::gui {

class DisplayControls;
class StencilPicker;

class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(Session& session, QWidget* parent = nullptr);
    const DeviceCatalogue& devices() const { return m_devices; }

    void set_settings(const RunSettings&);
    // The settings the knobs describe now, valid or not (the variant auto with its default policy: auto_request).
    RunSettings settings() const;
    // settings() with the variant auto replaced by what it chose (by its stand-in until it has chosen): what tools
    // of one kernel start from (Tools > Autotune, Experiments).
    RunSettings concrete_settings() const;
    void set_pacing(const Pacing&);
    void set_playing(bool);

    void show_engine_ready(const EngineReady&);
    void show_engine_failure(const QString& reason);
    // The reason shown under the knobs, or "" when the configuration runs.
    QString reason() const;
    // What "From file…" does once a file is chosen: the stencil in the file is chosen, or the reason it is refused
    // shows under the knobs and the stencil stays.
    Status load_stencil_file(const QString& path);

private:
    void observe_session();
    QWidget* build_stencil_group();
    QWidget* build_run_group();
    void connect_stencil_knobs();
    void fill_variants(StencilKind, Variant selected);
    void dims_edited();
    void stencil_edited();
    void knobs_edited();
    void update_enabled();
    void update_halo_choices(const LaunchPlan&);
    void update_split_choices(const LaunchPlan&);
    void update_variant_choices(const LaunchPlan&);
    void show_file_refusal(const QString& reason);
    void show_heuristic_choice(const KernelResources*);
    // Variant auto (control_panel_auto.cpp): the knobs' configuration as planned (auto: what it chose for these
    // knobs, else its stand-in); the choice or the tune in the knobs and the kernel box; the knobs auto decides.
    StencilConfig planned(const StencilConfig&) const;
    void show_auto_variant();
    void explain_auto_knobs(const StencilConfig&);

    Session& m_session;
    const DeviceCatalogue& m_devices;
    RunSettings m_sent; // the last settings sent to the engine
    bool m_updating = false; // set_* is filling the knobs: no signals back

    QComboBox *m_device, *m_stencil, *m_rule, *m_dims, *m_precision, *m_variant, *m_cf, *m_initial, *m_halo, *m_split;
    QSpinBox *m_gpus, *m_nx, *m_ny, *m_nz, *m_radius, *m_depth, *m_bx, *m_by, *m_bz, *m_seed, *m_steps;
    QCheckBox *m_heuristic, *m_overlap;
    QLabel *m_heuristic_choice, *m_reason;
    QPushButton *m_play, *m_step, *m_reset;
    QWidget* m_resources; // the kernel's resources (kernel_resources_box.h)
    DisplayControls* m_display; // colour map, range, 3D plane
    StencilPicker* m_picker; // the stencil choice (m_stencil is its combo box)
};

} // namespace ss::gui
