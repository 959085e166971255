// SPDX-License-Identifier: MIT
// What every export of the GUI shares: a save dialog that remembers the last directory, CSV files that
// replace the old file only once complete, and PNG grabs of a widget.
#pragma once

#include "reports/csv.h"

#include <QString>

#include <vector>

class QWidget;

namespace ss::gui {

// Empty when the user cancels.
QString ask_export_path(QWidget* parent, const QString& title, const QString& file_name, const QString& filter);
bool write_csv_file(const QString& path, const CsvRow& header, const std::vector<CsvRow>& rows, QString* why);
bool save_widget_png(QWidget*, const QString& path, QString* why);

} // namespace ss::gui
