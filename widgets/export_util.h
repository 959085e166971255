// SPDX-License-Identifier: MIT
// What every export of the GUI shares: a save dialog that remembers the last directory, CSV files that
// replace the old file only once complete, and PNG grabs of a widget.
#pragma once

#include "session/csv_file.h" // write_csv_file, for the panels that export

#include <QString>

#include <vector>

class QImage;
class QWidget;

namespace ss::gui {

// Empty when the user cancels.
QString ask_export_path(QWidget* parent, const QString& title, const QString& file_name, const QString& filter);
// PNG files are complete or not written at all (a failure says why and leaves no empty file).
bool save_png(const QImage& image, const QString& path, QString* why);
bool save_widget_png(QWidget*, const QString& path, QString* why);

} // namespace ss::gui
