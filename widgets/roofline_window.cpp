// SPDX-License-Identifier: MIT
#include "widgets/roofline_window.h"

#include "session/session.h"
#include "widgets/export_util.h"
#include "widgets/roofline_chart.h"
#include "widgets/screen_fit.h"

#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace ss::gui {

QString roofline_unavailable(const Session& session) {
    if (session.requested().config.placement.backend == Backend::Cuda) return {};
    return QObject::tr("Needs a CUDA GPU: the CPU backend has no device ceilings (DRAM, L2, FMA peaks) to draw a "
                       "roofline against, and its loop is not the kernel.");
}

RooflineWindow::RooflineWindow(Session& session, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_session(session)
    , m_chart(new RooflineChart(this)) {
    setObjectName(QStringLiteral("roofline_window"));
    setWindowTitle(tr("Roofline"));
    auto* save = new QPushButton(tr("Export PNG…"), this);
    save->setObjectName(QStringLiteral("roofline_export"));
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path
            = ask_export_path(this, tr("Export roofline"), QStringLiteral("roofline.png"), tr("PNG images (*.png)"));
        QString why;
        if (!path.isEmpty() && !export_png(path, &why)) QMessageBox::warning(this, tr("Export roofline"), why);
    });
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(save);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_chart, 1);
    layout->addLayout(buttons);
    resize_to_screen(*this, { 900, 640 });
    // The point follows the latest figures; the ceilings follow the requested GPU.
    connect(&m_session, &Session::roofline_ceilings_changed, this, &RooflineWindow::refresh);
    connect(&m_session, &Session::stats, this, &RooflineWindow::refresh);
    connect(&m_session, &Session::sample_added, this, &RooflineWindow::refresh);
    connect(&m_session, &Session::ready, this, &RooflineWindow::refresh);
    connect(&m_session, &Session::settings_changed, this, [this] {
        if (isVisible()) m_session.request_roofline_ceilings();
        refresh();
    });
}

void RooflineWindow::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    m_session.request_roofline_ceilings(); // measured once per GPU: later calls only look
    refresh();
}

void RooflineWindow::refresh() {
    if (!isVisible()) return;
    m_chart->show_roofline(
        m_session.roofline_ceilings(), m_session.requested().config.problem.precision, m_session.roofline_point());
}

QString RooflineWindow::caption() const {
    const EngineReady& running = m_session.active();
    QString what = tr("Roofline");
    if (!m_chart->point_summary().isEmpty()) what += QStringLiteral(" · ") + m_chart->point_summary();
    return caption_for(
        running.settings.config, QString::fromStdString(running.device_name), m_session.last_stats().iteration, what);
}

bool RooflineWindow::export_png(const QString& path, QString* why) {
    return m_chart->save_png(path, why, caption());
}

} // namespace ss::gui
