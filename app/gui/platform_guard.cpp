// SPDX-License-Identifier: MIT
#include "app/gui/platform_guard.h"

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <cstdio>
#include <cstdlib>

namespace ss::gui {
namespace {

QString g_first_platform_warning; // what the platform plugin said before it gave up

void one_line_on_fatal(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    const QString category = QString::fromLatin1(context.category ? context.category : "");
    if (type != QtFatalMsg) {
        if (category.startsWith(QStringLiteral("qt.qpa"))) { // kept for the one line below
            if (g_first_platform_warning.isEmpty()) g_first_platform_warning = message.simplified();
            return;
        }
        std::fprintf(stderr, "%s\n", qPrintable(message));
        return;
    }
    QString reason = g_first_platform_warning.isEmpty() ? message.section(QLatin1Char('\n'), 0, 0).simplified()
                                                        : g_first_platform_warning;
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    std::fprintf(stderr,
        "stencilscope: cannot open a window (%s%s): run it in a desktop session, or with QT_QPA_PLATFORM=offscreen "
        "for scripted runs\n",
        platform.isEmpty() ? ""
                           : qPrintable(QStringLiteral("QT_QPA_PLATFORM=%1: ").arg(QString::fromLocal8Bit(platform))),
        qPrintable(reason));
    std::_Exit(2);
}

} // namespace

void guard_platform_start(bool needs_window) {
    if (!needs_window) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(one_line_on_fatal);
}

void end_platform_guard() {
    qInstallMessageHandler(nullptr);
}

} // namespace ss::gui
