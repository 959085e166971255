// SPDX-License-Identifier: MIT
#include "session/csv_file.h"

#include <QCoreApplication>
#include <QFile>

#include <cstdio>

namespace ss::gui {

bool write_csv_file(const QString& path, const CsvRow& header, const std::vector<CsvRow>& rows, QString* why) {
    const std::string target = QFile::encodeName(path).toStdString(), part = target + ".part";
    std::remove(part.c_str());
    if (Status s = append_csv(part, header, rows); !s) {
        if (why) *why = QString::fromStdString(s.reason);
        return false;
    }
    if (std::rename(part.c_str(), target.c_str()) != 0) {
        std::remove(part.c_str());
        if (why) *why = QCoreApplication::translate("export", "could not write %1").arg(path);
        return false;
    }
    return true;
}

} // namespace ss::gui
