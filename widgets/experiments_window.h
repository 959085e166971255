// SPDX-License-Identifier: MIT
// Tools → Experiments: the thesis' studies (radius sweep, coarsening sweep, heuristic vs autotuned) run on
// the engine thread with progress and Cancel, charted as its figures, exported as CSV and PNG. A CSV from
// `stencilscope-cli sweep` opens here too (Open results…).
#pragma once

#include "gpu/studies/experiments.h"
#include "session/engine_types.h"
#include "widgets/sweep_eta.h"

#include <QElapsedTimer>
#include <QWidget>

#include <cmath>

#include <map>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace ss::gui {

class Session;
class ExperimentCharts;
class EbisuModelChart;

class ExperimentsWindow : public QWidget {
    Q_OBJECT
public:
    ExperimentsWindow(Session&, QWidget* parent = nullptr);

    // Rule, precision and device of the window's configuration become the sweep's (once, or when idle).
    void set_base(const StencilConfig&);
    ExperimentSpec spec() const;
    bool start();
    bool running() const { return m_job != 0; }
    bool open_results(const QString& path, QString* why);
    bool export_csv(const QString& path, QString* why) const;
    bool export_png(const QString& path, QString* why);
    const std::vector<ExperimentPoint>& points() const { return m_points; }
    ExperimentCharts& charts() { return *m_charts; }
    // EBISU's model against the depth: the depth sweep's configuration and points, else the window's.
    EbisuModelChart& model_chart() { return *m_model; }
    void show_model_tab(); // the depth sweep chosen, the model's tab in front
    QString status_text() const;
    // The PNG export's caption: the experiment, rule, domain, precision, device and point count.
    QString sweep_caption() const;
    // While a sweep runs: seconds left at the measured pace (NaN before the first unit of work is done).
    double time_left() const { return m_time_left; }
    // Charts only this variant's series ("" or unknown: every series), as the Show box does.
    void show_only(const QString& variant);

private:
    QWidget* build_controls();
    void on_progress(const JobProgress&);
    void on_finished(const JobOutcome&);
    void show_time_left(); // the status line while running, every second and at each report
    void dims_changed();
    void show_results();
    void fill_table();
    void update_enabled();
    void update_model();
    void open_dialog();
    void export_dialog(bool png);

    Session& m_session;
    StencilConfig m_base;
    std::uint64_t m_job = 0;
    ExperimentKind m_kind = ExperimentKind::Radius; // of the points shown
    std::vector<ExperimentPoint> m_points;
    std::string m_device;
    QElapsedTimer m_clock; // since the sweep started
    double m_time_left = NAN;
    SweepEta m_eta;
    QString m_running_what; // the unit of work last reported
    QTimer* m_tick;

    QComboBox *m_experiment, *m_dims, *m_stencil, *m_show;
    QLineEdit* m_size;
    std::map<int, QCheckBox*> m_radius_boxes, m_cf_boxes;
    std::map<Variant, QCheckBox*> m_variant_boxes;
    QSpinBox *m_steps, *m_repeats;
    QCheckBox* m_counters;
    QPushButton *m_run, *m_cancel, *m_open, *m_export_csv, *m_export_png;
    QProgressBar* m_progress;
    QLabel* m_status;
    ExperimentCharts* m_charts;
    EbisuModelChart* m_model;
    QTabWidget* m_tabs;
    QTableWidget* m_table;
};

} // namespace ss::gui
