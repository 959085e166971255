// SPDX-License-Identifier: MIT
// The embedded lessons. Apart from setup_file.cpp so that the loader needs Qt Core only (the fuzz
// target links it without the resources or any widget).
#include "session/setup_file.h"

#include <QDir>

// The resources live in this static library: register them before the first lookup.
static void init_resources() {
    Q_INIT_RESOURCE(presets);
}

namespace ss::gui {

QStringList lesson_paths() {
    init_resources();
    QStringList paths;
    const QDir dir(QStringLiteral(":/presets"));
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name))
        paths << dir.filePath(name);
    return paths;
}

} // namespace ss::gui
