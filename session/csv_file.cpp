// SPDX-License-Identifier: MIT
#include "session/csv_file.h"

#include "gpu/io/safe_file.h"

#include <QFile>

namespace ss::gui {

bool write_csv_file(const QString& path, const CsvRow& header, const std::vector<CsvRow>& rows, QString* why) {
    // The whole file at once, through a temporary renamed over the target only when complete: a failed
    // export leaves the old file (or none), never a truncated one.
    std::string text = csv_line(header);
    for (const CsvRow& r : rows) text += csv_line(r);
    if (Status s = replace_file(QFile::encodeName(path).toStdString(), text, "CSV"); !s) {
        if (why) *why = QString::fromStdString(s.reason);
        return false;
    }
    return true;
}

} // namespace ss::gui
