// SPDX-License-Identifier: MIT
// The Experiments window's files: a sweep's CSV opened, and the results exported as CSV or PNG.
#include "widgets/experiments_window.h"

#include "gpu/problem/stencil_catalog.h"
#include "reports/experiment_report.h"
#include "reports/run_report.h"
#include "widgets/experiment_charts.h"
#include "widgets/experiment_kind_title.h"
#include "widgets/export_util.h"
#include "widgets/plain_text.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

namespace ss::gui {

bool ExperimentsWindow::open_results(const QString& path, QString* why) {
    ExperimentTable table;
    if (Status s = read_experiment_csv(QFile::encodeName(path).toStdString(), &table); !s) {
        if (why) *why = QString::fromStdString(s.reason);
        return false;
    }
    m_kind = table.kind;
    m_points = std::move(table.points);
    m_device = table.device;
    // The controls describe what is shown, so that Run repeats it on this machine.
    const StencilConfig& first = m_points.front().config;
    m_experiment->setCurrentIndex(m_experiment->findData(int(m_kind)));
    m_dims->setCurrentIndex(m_dims->findData(first.problem.dims));
    m_stencil->setCurrentIndex(m_stencil->findData(QString::fromStdString(stencil_name(first.problem))));
    m_size->setText(QString::fromStdString(format_extent(first.problem.size, first.problem.dims)));
    show_results();
    m_status->setText(
        table.cut.empty() ? status_text() : status_text() + QStringLiteral(" — ") + QString::fromStdString(table.cut));
    update_enabled();
    return true;
}

bool ExperimentsWindow::export_csv(const QString& path, QString* why) const {
    if (m_points.empty()) {
        if (why) *why = tr("no results to export yet");
        return false;
    }
    return write_csv_file(
        path, experiment_csv_header(), experiment_csv_rows(m_kind, m_points, m_device, timestamp_now()), why);
}

bool ExperimentsWindow::export_png(const QString& path, QString* why) {
    if (m_points.empty()) {
        if (why) *why = tr("no results to export yet");
        return false;
    }
    return m_charts->save_png(path, why, sweep_caption());
}

QString ExperimentsWindow::sweep_caption() const {
    if (m_points.empty()) return {};
    const StencilConfig& c = m_points.front().config;
    return QStringLiteral("%1 · rule %2 · %3D %4 %5 · %6 · %7 points")
        .arg(kind_title(m_kind), QString::fromLatin1(to_string(c.problem.rule).data()))
        .arg(c.problem.dims)
        .arg(QString::fromStdString(format_extent(c.problem.size, c.problem.dims)),
            QString::fromLatin1(to_string(c.problem.precision).data()),
            m_device.empty() ? tr("unknown device") : QString::fromStdString(m_device))
        .arg(m_points.size());
}

void ExperimentsWindow::open_dialog() {
    QSettings settings;
    const QString key = QStringLiteral("export/last_directory");
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open sweep results"), settings.value(key).toString(), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString why;
    if (!open_results(path, &why)) warn_plain(this, tr("Cannot open results"), why);
}

void ExperimentsWindow::export_dialog(bool png) {
    const QString path = ask_export_path(this, png ? tr("Export charts") : tr("Export sweep"),
        png ? QStringLiteral("stencilscope-experiment.png") : QStringLiteral("stencilscope-experiment.csv"),
        png ? tr("PNG images (*.png)") : tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString why;
    if (!(png ? export_png(path, &why) : export_csv(path, &why))) warn_plain(this, tr("Export failed"), why);
}

} // namespace ss::gui
