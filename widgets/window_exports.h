// SPDX-License-Identifier: MIT
// The File menu's work: field, window, metrics and chart exports and setup files, each with its dialog
// and its outcome (a status-bar line, or a warning that says why). MainWindow only places the menu.
#pragma once
#include <QObject>
#include <QString>
#include <QStringList>

class QMainWindow;
class QMenu;

namespace ss::gui {

class FieldView;
class MetricsPanel;
class RunStatusBar;
class Session;

class WindowExports : public QObject {
    Q_OBJECT
public:
    WindowExports(QMainWindow& window, Session&, FieldView&, MetricsPanel&, RunStatusBar&);

    // Export ▸ (field, window, metrics CSV, chart PNGs), Open/Save setup, Quit.
    void fill_file_menu(QMenu* file);

    // Write the field (at field resolution, with its colour bar and caption) or the whole window as PNG.
    bool export_field(const QString& path, QString* why);
    bool export_window(const QString& path, QString* why);
    // The field export's caption: quantity (and 3D plane), configuration, device, iteration, time.
    QString field_caption() const;
    // The timing CSV, and the profiled launches when there are any (Session::export_metrics_csv).
    bool export_metrics(const QString& path, QString* why, QStringList* written = nullptr);

private:
    void image_dialog(bool whole_window);
    void metrics_dialog();
    void charts_dialog();
    void setup_dialog(bool save);
    void report(bool ok, const QString& why, const QString& done);

    QMainWindow& m_window;
    Session& m_session;
    FieldView& m_view;
    MetricsPanel& m_metrics;
    RunStatusBar& m_status;
};

} // namespace ss::gui
