// SPDX-License-Identifier: MIT
// A CSV file written whole by the GUI (metrics, autotune, experiments): it replaces the old file only
// once it is complete, and a failure is one line for a message box.
#pragma once

#include "reports/csv.h"

#include <QString>

#include <vector>

namespace ss::gui {

bool write_csv_file(const QString& path, const CsvRow& header, const std::vector<CsvRow>& rows, QString* why);

} // namespace ss::gui
