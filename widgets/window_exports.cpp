// SPDX-License-Identifier: MIT
#include "widgets/window_exports.h"

#include "session/session.h"
#include "widgets/export_util.h"
#include "widgets/field_view.h"
#include "widgets/metrics_panel.h"
#include "widgets/plain_text.h"
#include "widgets/run_status_bar.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>

namespace ss::gui {

WindowExports::WindowExports(
    QMainWindow& window, Session& session, FieldView& view, MetricsPanel& metrics, RunStatusBar& status)
    : QObject(&window)
    , m_window(window)
    , m_session(session)
    , m_view(view)
    , m_metrics(metrics)
    , m_status(status) { }

void WindowExports::fill_file_menu(QMenu* file) {
    QMenu* exports = file->addMenu(tr("&Export"));
    QAction* field = exports->addAction(tr("&Field image…"), this, [this] { image_dialog(false); });
    field->setObjectName(QStringLiteral("export_field"));
    field->setShortcut(QKeySequence(tr("Ctrl+E")));
    QAction* window = exports->addAction(tr("&Window image…"), this, [this] { image_dialog(true); });
    window->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    QAction* metrics_csv = exports->addAction(tr("&Metrics (CSV)…"), this, &WindowExports::metrics_dialog);
    metrics_csv->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    exports->addAction(tr("Metric &charts (PNG)…"), this, &WindowExports::charts_dialog)
        ->setObjectName(QStringLiteral("export_metric_charts"));
    exports->setToolTipsVisible(true); // a disabled entry says why
    file->setToolTipsVisible(true);
    file->addSeparator();
    file->addAction(tr("&Open setup…"), QKeySequence::Open, this, [this] { setup_dialog(false); });
    file->addAction(tr("&Save setup…"), QKeySequence::Save, this, [this] { setup_dialog(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, &m_window, &QWidget::close);
}

QString WindowExports::field_caption() const {
    const FieldFrame& f = m_view.last_frame();
    const EngineReady& active = m_session.active();
    const QString device = QString::fromStdString(active.device_name);
    QString what = m_view.quantity();
    if (active.settings.config.problem.dims == 3)
        what += f.slice.max_projection ? tr(", max projection") : tr(", slice %1").arg(f.slice.index);
    return caption_for(active.settings.config, device, f.iteration, what);
}

bool WindowExports::export_field(const QString& path, QString* why) {
    QImage image = m_view.export_image();
    if (image.isNull()) {
        if (why) *why = tr("no field has been displayed yet");
        return false;
    }
    // What the picture shows travels with it: a caption strip below, and the same text in the PNG.
    const QString caption = field_caption();
    image = with_caption(image, caption);
    image.setText(QStringLiteral("Description"), caption);
    return save_png(image, path, why);
}

bool WindowExports::export_window(const QString& path, QString* why) {
    QPixmap window = m_window.grab();
    // grab() renders widgets only: the field's GL window is drawn into its place
    const QImage canvas = m_view.gl_canvas_image();
    if (!canvas.isNull()) {
        QPainter p(&window);
        p.drawImage(
            QRect(m_view.mapTo(&m_window, m_view.gl_canvas_rect().topLeft()), m_view.gl_canvas_rect().size()), canvas);
    }
    return save_png(window.toImage(), path, why);
}

bool WindowExports::export_metrics(const QString& path, QString* why, QStringList* written) {
    return m_session.export_metrics_csv(path, written, why);
}

void WindowExports::report(bool ok, const QString& why, const QString& done) {
    if (!ok)
        warn_plain(&m_window, tr("Export failed"), why);
    else
        m_status.showMessage(done, 5000);
}

void WindowExports::image_dialog(bool whole_window) {
    const QString path = ask_export_path(&m_window, whole_window ? tr("Export window image") : tr("Export field image"),
        whole_window ? QStringLiteral("stencilscope-window.png") : QStringLiteral("stencilscope-field.png"),
        tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString why;
    const bool ok = whole_window ? export_window(path, &why) : export_field(path, &why);
    report(ok, why, tr("Saved %1").arg(path));
}

void WindowExports::metrics_dialog() {
    if (m_session.history().empty() && m_session.history().timing().empty()) { // say why before the dialog
        report(false, tr("Nothing to export yet: press Play; the timing figures are recorded twice a second."), {});
        return;
    }
    const QString path = ask_export_path(
        &m_window, tr("Export metrics"), QStringLiteral("stencilscope-metrics.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString why;
    QStringList written;
    const bool ok = export_metrics(path, &why, &written);
    QString done = tr("Saved %1").arg(written.join(QStringLiteral(", ")));
    if (m_session.history().empty()) { // timing only: say why there are no counter columns
        const QString unavailable = m_session.counters_unavailable();
        done += tr(" (timing only: %1)")
                    .arg(!unavailable.isEmpty()    ? unavailable
                            : m_session.counters() ? tr("no launch has been profiled yet")
                                                   : tr("hardware counters are off"));
    }
    report(ok, why, done);
}

void WindowExports::charts_dialog() {
    QString why;
    if (!m_metrics.charts_exportable(&why)) {
        report(false, why, {}); // empty charts: refused before asking where
        return;
    }
    const QString path = ask_export_path(
        &m_window, tr("Export metric charts"), QStringLiteral("stencilscope-metrics.png"), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString stem = path;
    if (stem.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) stem.chop(4);
    QStringList written;
    const bool ok = m_metrics.save_charts(stem, &why, &written);
    report(ok, why, tr("Saved %1").arg(written.join(QStringLiteral(", "))));
}

void WindowExports::setup_dialog(bool save) {
    QSettings settings;
    const QString key = QStringLiteral("setup/last_directory");
    const QString dir
        = settings.value(key, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString();
    const QString filter = tr("StencilScope setups (*.json)");
    const QString path = save ? QFileDialog::getSaveFileName(
                             &m_window, tr("Save setup"), dir + QStringLiteral("/stencilscope-setup.json"), filter)
                              : QFileDialog::getOpenFileName(&m_window, tr("Open setup"), dir, filter);
    if (path.isEmpty()) return;
    settings.setValue(key, QFileInfo(path).absolutePath());
    QString why;
    if (save ? m_session.save_setup(path, &why) : m_session.open_setup(path, &why))
        m_status.showMessage(save ? tr("Saved %1").arg(path) : tr("Opened %1").arg(path), 5000);
    else
        warn_plain(&m_window, save ? tr("Save setup failed") : tr("Open setup failed"), why);
}

} // namespace ss::gui
