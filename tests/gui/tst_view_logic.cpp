// SPDX-License-Identifier: MIT
// The view's pure logic: colour tables, value ranges, the cell <-> pixel mapping, and the host
// rendering that exports use.
#include "session/value_range.h"
#include "widgets/colormap.h"
#include "widgets/export_util.h"
#include "widgets/field_image.h"
#include "widgets/view_transform.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdlib>

using namespace ss::gui;

namespace {
bool near(Rgb8 a, Rgb8 b, int tolerance) {
    return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance;
}
double luminance(Rgb8 c) {
    return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}
} // namespace

class TestViewLogic : public QObject {
    Q_OBJECT
private slots:
    // Issue 15, class 9: a failed picture export says why and leaves no empty file; a good one is whole.
    void png_exports_are_complete_or_absent() {
        QImage image(8, 4, QImage::Format_RGB32);
        image.fill(Qt::red);
        QString why;
        QVERIFY(!save_png(image, QStringLiteral("/nonexistent-dir-stencilscope/x.png"), &why));
        QVERIFY2(why.contains(QStringLiteral("does not exist")), qPrintable(why));
        QVERIFY(!save_png(image, QStringLiteral("/dev/full"), &why)); // writes would fail with ENOSPC
        QVERIFY2(why.contains(QStringLiteral("device")), qPrintable(why));
        QVERIFY(!save_png(QImage(), QStringLiteral("/tmp/never.png"), &why));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/never.png")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ok.png"));
        QVERIFY2(save_png(image, path, &why), qPrintable(why));
        QCOMPARE(QImage(path).size(), image.size());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary left
    }

    void colormap_endpoints_match_matplotlib_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("r");
        QTest::addColumn<int>("g");
        QTest::addColumn<int>("b");
        // matplotlib's _cm_listed values, as bytes
        QTest::newRow("viridis 0") << int(ColormapKind::Viridis) << 0 << 68 << 1 << 84;
        QTest::newRow("viridis 128") << int(ColormapKind::Viridis) << 128 << 33 << 145 << 140;
        QTest::newRow("viridis 255") << int(ColormapKind::Viridis) << 255 << 253 << 231 << 37;
        QTest::newRow("inferno 0") << int(ColormapKind::Inferno) << 0 << 0 << 0 << 4;
        QTest::newRow("inferno 255") << int(ColormapKind::Inferno) << 255 << 252 << 255 << 164;
        QTest::newRow("coolwarm 0") << int(ColormapKind::Coolwarm) << 0 << 59 << 76 << 192;
        QTest::newRow("coolwarm 255") << int(ColormapKind::Coolwarm) << 255 << 180 << 4 << 38;
        QTest::newRow("grayscale 77") << int(ColormapKind::Grayscale) << 77 << 77 << 77 << 77;
    }
    void colormap_endpoints_match_matplotlib() {
        QFETCH(int, kind);
        QFETCH(int, index);
        QFETCH(int, r);
        QFETCH(int, g);
        QFETCH(int, b);
        const Rgb8 got = colormap_table(ColormapKind(kind))[index];
        const Rgb8 want { std::uint8_t(r), std::uint8_t(g), std::uint8_t(b) };
        QVERIFY2(near(got, want, 4), qPrintable(QStringLiteral("got %1 %2 %3").arg(got.r).arg(got.g).arg(got.b)));
    }

    void sequential_maps_get_brighter() {
        for (ColormapKind kind : { ColormapKind::Viridis, ColormapKind::Inferno, ColormapKind::Grayscale }) {
            const ColormapTable& t = colormap_table(kind);
            for (int i = 8; i < kColormapSize; i += 8) QVERIFY(luminance(t[i]) > luminance(t[i - 8]));
        }
    }

    void diverging_map_is_neutral_in_the_middle() {
        const Rgb8 mid = colormap_table(ColormapKind::Coolwarm)[128];
        QVERIFY(std::abs(mid.r - mid.b) < 12 && std::abs(mid.r - mid.g) < 12);
        QVERIFY(is_diverging(ColormapKind::Coolwarm));
        QVERIFY(!is_diverging(ColormapKind::Viridis));
    }

    void colormap_index_rounds_and_clamps() {
        QCOMPARE(colormap_index(0.0f), 0);
        QCOMPARE(colormap_index(1.0f), 255);
        QCOMPARE(colormap_index(0.5f), 128);
        QCOMPARE(colormap_index(1.0f / 255.0f), 1);
        QCOMPARE(colormap_index(-3.0f), 0);
        QCOMPARE(colormap_index(7.0f), 255);
        QCOMPARE(colormap_index(NAN), 0);
    }

    void colormap_names_round_trip() {
        for (ColormapKind k : kColormaps) QCOMPARE(parse_colormap(to_string(k)), std::optional<ColormapKind>(k));
        QVERIFY(!parse_colormap("jet"));
    }

    void measure_range_skips_non_finite() {
        const float v[] = { 2.0f, NAN, -1.5f, INFINITY, 0.25f };
        QCOMPARE(measure_range(v, 5), (ValueRange { -1.5f, 2.0f }));
        const float none[] = { NAN };
        QCOMPARE(measure_range(none, 1), ValueRange {});
        QCOMPARE(measure_range(nullptr, 0), ValueRange {});
    }

    void range_policy() {
        RangePolicy p;
        QCOMPARE(p.apply({ 0.2f, 0.9f }), (ValueRange { 0.2f, 0.9f }));
        p.symmetric = true;
        QCOMPARE(p.apply({ -0.2f, 0.9f }), (ValueRange { -0.9f, 0.9f }));
        p.symmetric = false;
        const ValueRange flat = p.apply({ 3.0f, 3.0f });
        QVERIFY(flat.lo < 3.0f && flat.hi > 3.0f);
        QCOMPARE(flat.normalise(3.0f), 0.5f);
        p.automatic = false;
        p.fixed = { -1.0f, 1.0f };
        QCOMPARE(p.apply({ 5.0f, 6.0f }), (ValueRange { -1.0f, 1.0f }));
        QCOMPARE(p.fixed.normalise(0.0f), 0.5f);
        QCOMPARE((ValueRange { 1.0f, 1.0f }).normalise(7.0f), 0.5f);
    }

    void transform_fits_and_puts_cell_zero_bottom_left() {
        ViewTransform t;
        t.set_field(100, 50);
        t.set_widget(400, 400); // width limits: 4 px per cell, 200 px tall, centred vertically
        QCOMPARE(t.pixels_per_cell(), 4.0);
        const RectD r = t.field_rect();
        QCOMPARE(r.left, 0.0);
        QCOMPARE(r.top, 100.0);
        QCOMPARE(r.height, 200.0);
        const PointD p = t.cell_to_pixel({ 0.0, 0.0 });
        QCOMPARE(p.x, 0.0);
        QCOMPARE(p.y, 300.0); // bottom edge of the field
        QCOMPARE(t.cell_at({ 1.0, 299.0 }), std::optional<Cell>(Cell { 0, 0 }));
        QCOMPARE(t.cell_at({ 399.0, 101.0 }), std::optional<Cell>(Cell { 99, 49 }));
        QVERIFY(!t.cell_at({ 10.0, 50.0 })); // above the field
        QVERIFY(!t.cell_at({ 10.0, 301.0 })); // below it
    }

    void transform_round_trips_and_zooms_about_the_cursor() {
        ViewTransform t;
        t.set_field(64, 64);
        t.set_widget(300, 200);
        const PointD mouse { 170.0, 80.0 };
        const PointD before = t.pixel_to_cell(mouse);
        t.zoom_about(mouse, 3.0);
        QCOMPARE(t.zoom(), 3.0);
        const PointD after = t.pixel_to_cell(mouse);
        QVERIFY(std::abs(after.x - before.x) < 1e-9 && std::abs(after.y - before.y) < 1e-9);
        const PointD back = t.cell_to_pixel(after);
        QVERIFY(std::abs(back.x - mouse.x) < 1e-9 && std::abs(back.y - mouse.y) < 1e-9);
        t.pan_by(10.0, -5.0);
        const PointD moved = t.cell_to_pixel(after);
        QVERIFY(std::abs(moved.x - (mouse.x + 10.0)) < 1e-9 && std::abs(moved.y - (mouse.y - 5.0)) < 1e-9);
        t.zoom_about(mouse, 1e9);
        QCOMPARE(t.zoom(), ViewTransform::kMaxZoom);
        t.reset();
        QCOMPARE(t.zoom(), 1.0);
        QCOMPARE(t.field_rect().left, 50.0);
    }

    void render_field_maps_values_through_the_table_with_y_up() {
        const float values[] = { 0.0f, 1.0f, 0.5f, NAN }; // row y=0: 0, 1; row y=1: 0.5, NaN
        const QImage image = render_field(values, 2, 2, ColormapKind::Viridis, { 0.0f, 1.0f });
        const ColormapTable& t = colormap_table(ColormapKind::Viridis);
        auto rgb = [](Rgb8 c) { return qRgb(c.r, c.g, c.b); };
        QCOMPARE(image.size(), QSize(2, 2));
        QCOMPARE(image.pixel(0, 1), rgb(t[0])); // cell (0,0) is the bottom-left pixel
        QCOMPARE(image.pixel(1, 1), rgb(t[255]));
        QCOMPARE(image.pixel(0, 0), rgb(t[128]));
        QCOMPARE(image.pixel(1, 0), rgb(t[0])); // NaN shows as the low end
    }

    // Field values in one format (issue 39): four fixed decimals, as the range boxes; scientific with two
    // where those would show no digit or too many.
    void the_colour_bar_writes_values_with_fixed_decimals() {
        QCOMPARE(colour_bar_labels({ 0.0f, 1.0f }),
            (QStringList { QStringLiteral("1.0000"), QStringLiteral("0.5000"), QStringLiteral("0.0000") }));
        QCOMPARE(colour_bar_labels({ -0.25f, 2.5f }),
            (QStringList { QStringLiteral("2.5000"), QStringLiteral("1.1250"), QStringLiteral("-0.2500") }));
        QCOMPARE(colour_bar_labels({ 0.0f, 2e5f }),
            (QStringList { QStringLiteral("2.00e+05"), QStringLiteral("1.00e+05"), QStringLiteral("0.0000") }));
        QCOMPARE(format_value(-1.5e-5), QStringLiteral("-1.50e-05"));
        QCOMPARE(format_value(9999.5), QStringLiteral("9999.5000"));
    }

    // The bar says what its values are: the quantity is written beside the labels.
    void the_colour_bar_names_its_quantity() {
        QImage field(40, 120, QImage::Format_RGB32);
        field.fill(qRgb(1, 2, 3));
        const QImage plain = compose_with_colour_bar(field, ColormapKind::Grayscale, { 0.0f, 1.0f });
        const QImage named
            = compose_with_colour_bar(field, ColormapKind::Grayscale, { 0.0f, 1.0f }, QStringLiteral("temperature u"));
        QCOMPARE(named.size(), plain.size());
        int differing = 0;
        for (int y = 0; y < plain.height(); ++y)
            for (int x = 0; x < plain.width(); ++x) differing += plain.pixel(x, y) != named.pixel(x, y);
        QVERIFY(differing > 20); // the text
        for (int y = 0; y < plain.height(); ++y)
            QCOMPARE(named.pixel(39, y), plain.pixel(39, y)); // the field untouched
    }

    void export_keeps_field_pixels_and_adds_a_bar() {
        QImage field(40, 30, QImage::Format_RGB32);
        field.fill(qRgb(1, 2, 3));
        const QImage out = compose_with_colour_bar(field, ColormapKind::Grayscale, { 0.0f, 1.0f });
        QVERIFY(out.width() > field.width() + 20);
        QVERIFY(out.height() >= field.height());
        QCOMPARE(out.pixel(39, 29), qRgb(1, 2, 3));
        // the bar: white at the top, black at the bottom (grayscale), inside its 1-px frame
        const int x = field.width() + 8 + 8;
        QVERIFY(qGray(out.pixel(x, 8)) > 240);
        QVERIFY(qGray(out.pixel(x, out.height() - 9)) < 15);
    }
};

QTEST_MAIN(TestViewLogic)
#include "tst_view_logic.moc"
