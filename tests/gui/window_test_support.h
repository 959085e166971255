// SPDX-License-Identifier: MIT
// What the window tests share: a small CPU-backend window and lookups of its controls by object name.
#pragma once
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/device.h"
#include "session/session.h"
#include "widgets/main_window.h"

#include <QComboBox>
#include <QImage>
#include <QTest>

#include <algorithm>
#include <cstdlib>

namespace ss::gui::test {

inline WindowOptions cpu_options(int n = 64) {
    WindowOptions o;
    o.settings.config.placement.backend = Backend::Cpu;
    o.settings.config.problem.size = { n, n, 1 };
    o.settings.config.problem.initial = InitialCondition::Square;
    o.restore_layout = false;
    o.renderer = FieldView::Renderer::Raster;
    return o;
}

template <typename W> W* knob(MainWindow& w, const char* name) {
    W* found = w.findChild<W*>(QLatin1String(name));
    if (!found) qFatal("no control named %s", name);
    return found;
}

inline void choose(MainWindow& w, const char* combo, int data) {
    QComboBox* box = knob<QComboBox>(w, combo);
    const int index = box->findData(data);
    QVERIFY2(index >= 0, combo);
    box->setCurrentIndex(index);
}

// The largest difference of one colour channel between two pictures of the same size.
inline int largest_channel_difference(const QImage& a, const QImage& b) {
    int worst = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            worst = std::max(
                { worst, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q)) });
        }
    return worst;
}

inline const StencilConfig& engine_config(MainWindow& w) {
    return w.session().active().settings.config;
}

// `count` described H100s (no GPU needed, no peer access: remote halos are refused) and 64 GiB of host memory.
inline DeviceCatalogue described_h100s(int count) {
    DeviceInfo gpu = largest_gpu_limits();
    gpu.name = "NVIDIA H100 (described)";
    gpu.sm_count = 132;
    gpu.total_memory = 80ll << 30;
    gpu.free_memory = 79ll << 30;
    return described_catalogue(gpu, count, 64ll << 30);
}

} // namespace ss::gui::test
