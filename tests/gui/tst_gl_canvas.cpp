// SPDX-License-Identifier: MIT
// Issue 40: a frame smaller than the last one goes into the corner of the field texture instead of replacing it
// (replacing it re-registers the texture with CUDA: ~0.1 s on the H100). The canvas must then draw that corner
// only. Needs OpenGL (run under Xvfb): skipped, saying so, where no GL context can be made (Qt's offscreen platform).
#include "widgets/colormap.h"
#include "widgets/field_canvas.h"

#include <QGuiApplication>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

#include <memory>
#include <vector>

using namespace ss;
using namespace ss::gui;

namespace {

FieldFrame host_frame(int width, int height, float base) {
    auto values = std::make_shared<std::vector<float>>(std::size_t(width) * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) (*values)[std::size_t(y) * width + x] = base + 0.001f * float(x + 3 * y);
    FieldFrame f;
    f.width = f.field_width = width;
    f.height = f.field_height = height;
    f.host = std::move(values);
    return f;
}

} // namespace

class TestGlCanvas : public QObject {
    Q_OBJECT
private slots:
    void a_smaller_frame_is_drawn_whole_and_alone() {
        if (QGuiApplication::platformName() == QLatin1String("offscreen"))
            QSKIP("the offscreen platform has no OpenGL windows (this test runs under xvfb-run where it is installed)");
        QWidget target;
        CanvasState state;
        state.range = { 0.0f, 1.0f };
        GlCanvas canvas(state, &target);
        QSignalSpy ready(&canvas, &GlCanvas::gl_ready), failed(&canvas, &GlCanvas::gl_failed);
        canvas.resize(200, 150);
        canvas.show();
        if (!QTest::qWaitFor([&] { return canvas.initialised() || failed.count() > 0; }, 5000) || !canvas.initialised())
            QSKIP("no OpenGL context here (run under Xvfb)");
        QSignalSpy presented(&canvas, &GlCanvas::presented);
        const FieldFrame large = host_frame(64, 48, 0.7f), small = host_frame(40, 20, 0.1f);
        for (const FieldFrame* f : { &large, &small }) {
            const int before = presented.count();
            canvas.set_frame(*f);
            QVERIFY(QTest::qWaitFor([&] { return presented.count() > before; }, 5000));
        }
        const QImage image = canvas.render_field_image().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(image.size(), QSize(40, 20));
        int wrong = 0;
        for (int y = 0; y < 20; ++y)
            for (int x = 0; x < 40; ++x) {
                const Rgb8 want = colormap_sample(state.colormap, (*small.host)[std::size_t(y) * 40 + x]);
                const QRgb got = image.pixel(x, 19 - y); // cell (0,0) at the bottom left
                wrong += std::abs(qRed(got) - want.r) > 1 || std::abs(qGreen(got) - want.g) > 1
                    || std::abs(qBlue(got) - want.b) > 1;
            }
        QCOMPARE(wrong, 0);
    }
};

QTEST_MAIN(TestGlCanvas)
#include "tst_gl_canvas.moc"
