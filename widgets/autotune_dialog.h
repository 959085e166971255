// SPDX-License-Identifier: MIT
// Tools → Autotune block: searches the thesis' block space (sec. 4.3.2) for the configuration the window
// runs, on the engine thread, and shows it as a heatmap that fills in as candidates are timed. Cancel
// keeps what was measured; "Apply best" / "Apply this cell" hand a block back to the window.
#pragma once

#include "gpu/problem/config.h"
#include "session/engine_types.h"

#include <QDialog>

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace ss::gui {

class AutotuneHeatmap;
class Session;

class AutotuneDialog : public QDialog {
    Q_OBJECT
public:
    AutotuneDialog(Session&, QWidget* parent = nullptr);

    // The configuration a new search is for (the window's current one).
    void set_config(const StencilConfig&);
    // Starts a search (use_cache: a stored search of the same device and configuration is shown instead).
    bool start(bool use_cache = true);
    bool running() const { return m_job != 0; }
    AutotuneHeatmap& heatmap() { return *m_heatmap; }
    QString status_text() const;
    // The finished search as CSV (the columns of `stencilscope-cli autotune --csv`) or the map as PNG.
    bool export_csv(const QString& path, QString* why) const;
    bool export_png(const QString& path, QString* why);

signals:
    // The block to run with, and the temporal depth it was measured at (1 for other variants).
    void apply_block(ss::BlockDims, int depth);

private:
    void on_progress(const JobProgress&);
    void on_finished(const JobOutcome&);
    void update_buttons();
    void export_dialog();

    Session& m_session;
    StencilConfig m_config; // what the next search is for
    std::uint64_t m_job = 0;
    JobOutcome m_last; // the last finished search
    bool m_have_result = false;
    AutotuneHeatmap* m_heatmap;
    QLabel *m_config_label, *m_status;
    QProgressBar* m_progress;
    QSpinBox *m_steps, *m_repeats;
    QPushButton *m_run, *m_rerun, *m_cancel, *m_apply_best, *m_apply_cell, *m_export;
};

} // namespace ss::gui
