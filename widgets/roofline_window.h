// SPDX-License-Identifier: MIT
// View > Roofline: a window of its own (beside the field at 1280x720 a dock would leave neither room) with the
// roofline chart following the Session: the ceilings of the requested GPU (measured once, on the engine thread)
// and the running kernel's point, moving as its figures arrive; Export PNG with a caption.
#pragma once

#include <QWidget>

namespace ss::gui {

class RooflineChart;
class Session;

// Why View > Roofline is off for the requested configuration (the CPU backend), else empty.
QString roofline_unavailable(const Session&);

class RooflineWindow : public QWidget {
    Q_OBJECT
public:
    explicit RooflineWindow(Session&, QWidget* parent = nullptr);
    RooflineChart& chart() { return *m_chart; }
    // The export's caption: the configuration, the device, the iteration and the point's values.
    QString caption() const;
    bool export_png(const QString& path, QString* why);

protected:
    void showEvent(QShowEvent*) override;

private:
    void refresh();

    Session& m_session;
    RooflineChart* m_chart;
};

} // namespace ss::gui
