// SPDX-License-Identifier: MIT
// The stencil editor, drawing and facts line on the CPU backend, offscreen (issue 34): typed weights make the
// shape, the mirror helpers give the expected points, an invalid cell or name disables OK with the reason, a saved
// stencil loads back equal, OK sends the stencil to the engine, and the drawing paints with and without points.
#include "gpu/problem/stencil_catalog.h"
#include "widgets/main_window.h"
#include "widgets/stencil_drawing.h"
#include "widgets/stencil_editor_dialog.h"
#include "widgets/stencil_overview.h"
#include "widgets/stencil_weights_grid.h"
#include "window_test_support.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

namespace {

StencilConfig base_2d() {
    StencilConfig c;
    c.placement.backend = Backend::Cpu;
    return c; // the star, 2D, radius 1
}

// Types `text` into the cell of (dx, dy) on the plane shown, as a user would.
void type(StencilEditorDialog& d, int dx, int dy, const QString& text) {
    const int r = d.grid()->radius();
    d.grid()->table()->item(dy + r, dx + r)->setText(text);
}

void clear_cells(StencilEditorDialog& d) {
    d.grid()->set_points({});
}

void click(StencilEditorDialog& d, const char* button) {
    auto* b = d.findChild<QPushButton*>(QLatin1String(button));
    QVERIFY2(b && b->isEnabled(), button);
    b->click();
}

// Pixels clearly drawn in the drawing's colours for a positive (blue) or negative (red) weight.
int coloured_pixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.blue() - c.red()) > 40) ++n;
        }
    return n;
}

} // namespace

class TestStencilEditor : public QObject {
    Q_OBJECT
private slots:
    void typed_weights_make_the_shape() {
        StencilEditorDialog d(base_2d());
        QCOMPARE(d.shape().points.size(), std::size_t(4)); // it opens on the star's points (its centre weighs 0)
        clear_cells(d);
        type(d, 0, 0, QStringLiteral("0.5"));
        type(d, 1, -1, QStringLiteral(" -0.25 "));
        type(d, -1, 1, QStringLiteral("0.75"));
        d.findChild<QLineEdit*>(QStringLiteral("stencil_name"))->setText(QStringLiteral("diag3"));
        const StencilShape s = d.shape();
        QCOMPARE(s.name, std::string("diag3"));
        QCOMPARE(s.dims, 2);
        const std::vector<StencilPoint> expected { { 1, -1, 0, -0.25 }, { 0, 0, 0, 0.5 }, { -1, 1, 0, 0.75 } };
        QVERIFY(s.points == expected); // canonical order: dy, then dx
        QVERIFY(d.validity().ok);
        QVERIFY(d.ok_button()->isEnabled());
        type(d, 1, -1, QString()); // an emptied cell is no point
        QCOMPARE(d.shape().points.size(), std::size_t(2));
    }

    void the_mirror_helpers_give_the_expected_points() {
        StencilEditorDialog d(base_2d());
        clear_cells(d);
        type(d, -1, 0, QStringLiteral("0.25"));
        type(d, 0, 0, QStringLiteral("0.5"));
        type(d, 0, -1, QStringLiteral("0.1"));
        type(d, 0, 1, QStringLiteral("0.3"));
        QVERIFY(d.findChild<QPushButton*>(QStringLiteral("mirror_z"))->isHidden()); // 2D: no z
        click(d, "mirror_x");
        QCOMPARE(d.grid()->cell_text(1, 0), QStringLiteral("0.25"));
        QCOMPARE(d.grid()->cell_text(0, -1), QStringLiteral("0.1")); // not an x image: unchanged
        click(d, "mirror_y"); // unequal weights: their mean
        QCOMPARE(d.grid()->cell_text(0, -1), QStringLiteral("0.2"));
        QCOMPARE(d.grid()->cell_text(0, 1), QStringLiteral("0.2"));
        QCOMPARE(d.shape().points.size(), std::size_t(5));

        // 3D: one point on +x becomes the six faces' points.
        StencilShape one { "one", 3, { { 0, 0, 0, 0.5 }, { 1, 0, 0, 0.5 } }, {} };
        d.set_shape(one);
        QVERIFY(d.findChild<QPushButton*>(QStringLiteral("mirror_z"))->isEnabled());
        QVERIFY(!d.findChild<QPushButton*>(QStringLiteral("mirror_z"))->isHidden());
        click(d, "symmetric");
        const StencilShape s = d.shape();
        QCOMPARE(s.points.size(), std::size_t(7));
        for (const StencilPoint& p : s.points)
            QCOMPARE(p.weight, 0.5); // every face has the +x point's weight; the centre kept its own
        d.grid()->set_plane(-1);
        QCOMPARE(d.grid()->table()->item(1, 1)->text(), QStringLiteral("0.5")); // (0, 0, -1) on the plane z = -1
        click(d, "normalise");
        double sum = 0.0;
        for (const StencilPoint& p : d.shape().points) sum += p.weight;
        QCOMPARE(sum, 1.0);
    }

    void an_invalid_stencil_disables_ok_with_the_reason() {
        StencilEditorDialog d(base_2d());
        QVERIFY(d.ok_button()->isEnabled());
        type(d, 1, 0, QStringLiteral("abc"));
        QVERIFY(!d.ok_button()->isEnabled());
        QVERIFY2(d.reason().contains(QLatin1String("(1, 0), 'abc', is not a number")), qPrintable(d.reason()));
        type(d, 1, 0, QStringLiteral("inf"));
        QVERIFY(!d.ok_button()->isEnabled());
        QVERIFY2(d.reason().contains(QLatin1String("not a finite number")), qPrintable(d.reason()));
        type(d, 1, 0, QStringLiteral("0.25"));
        QVERIFY(d.ok_button()->isEnabled());
        QVERIFY(d.reason().isEmpty());
        auto* name = d.findChild<QLineEdit*>(QStringLiteral("stencil_name"));
        name->setText(QStringLiteral("my stencil"));
        QVERIFY(!d.ok_button()->isEnabled());
        QVERIFY2(d.reason().contains(QLatin1String("no spaces")), qPrintable(d.reason()));
        name->setText(QStringLiteral("2d9pt")); // EBISU's name on other points
        QVERIFY2(d.reason().contains(QLatin1String("built-in \"2d9pt\"")), qPrintable(d.reason()));
        d.start_from(QStringLiteral("2d9pt")); // EBISU's own points under its name are fine
        QVERIFY(d.ok_button()->isEnabled());
        clear_cells(d);
        QVERIFY(!d.ok_button()->isEnabled());
        QVERIFY2(d.reason().contains(QLatin1String("no points")), qPrintable(d.reason()));
        type(d, 0, 0, QStringLiteral("1"));
        QVERIFY2(d.reason().contains(QLatin1String("reaches no neighbour")), qPrintable(d.reason()));
        d.set_shape(box_shape(3, 6)); // 13^3 points: more than a kernel unrolls
        QVERIFY(!d.ok_button()->isEnabled());
        QVERIFY2(d.reason().contains(QLatin1String("at most 2048")), qPrintable(d.reason()));
    }

    void save_then_load_round_trips() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("mine.json"));
        StencilEditorDialog d(base_2d());
        d.start_from(QStringLiteral("3d17pt"));
        d.findChild<QLineEdit*>(QStringLiteral("stencil_name"))->setText(QStringLiteral("mine"));
        d.grid()->set_cell_text(1, 1, 1, QStringLiteral("0.125"));
        const Status saved = d.save(path);
        QVERIFY2(saved.ok, saved.reason.c_str());
        QCOMPARE(QString::fromStdString(d.shape().source), path); // saved: the stencil is that file's

        StencilEditorDialog other(base_2d());
        const Status loaded = other.load(path);
        QVERIFY2(loaded.ok, loaded.reason.c_str());
        QVERIFY(other.shape() == d.shape());
        QCOMPARE(other.shape().dims, 3);
        QCOMPARE(other.shape().source, d.shape().source);
        other.grid()->set_cell_text(0, 0, 0, QStringLiteral("2"));
        QVERIFY(other.shape().source.empty()); // edited since: no longer the file's

        const Status missing = other.load(dir.filePath(QStringLiteral("absent.json")));
        QVERIFY(!missing.ok);
        QCOMPARE(other.grid()->cell_text(0, 0, 0), QStringLiteral("2")); // a refused load changes nothing
    }

    void ok_sends_the_stencil_and_the_facts_follow() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        auto* facts = knob<QLabel>(w, "stencil_facts");
        // The star's count leaves out its centre, which weighs 0; flops_per_cell counts it (arithmetic_intensity.h).
        QVERIFY2(facts->text().startsWith(QStringLiteral("4 points · 7 flop/cell\n")), qPrintable(facts->text()));
        QCOMPARE(knob<StencilDrawing>(w, "stencil_drawing")->shape().points.size(), std::size_t(4));

        knob<QAbstractButton>(w, "edit_stencil")->click();
        auto* dialog = w.findChild<StencilEditorDialog*>();
        QVERIFY(dialog);
        dialog->start_from(QStringLiteral("2d9pt"));
        dialog->findChild<QLineEdit*>(QStringLiteral("stencil_name"))->setText(QStringLiteral("my9pt"));
        dialog->grid()->set_cell_text(2, 0, 0, QStringLiteral("0.01")); // outside the grid of radius 1: ignored
        QCOMPARE(dialog->shape().points.size(), std::size_t(9));
        dialog->findChild<QSpinBox*>(QStringLiteral("editor_radius"))->setValue(2);
        dialog->grid()->set_cell_text(2, 0, 0, QStringLiteral("0.01")); // radius 2 now
        dialog->ok_button()->click();
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Points);
        QCOMPARE(engine_config(w).problem.shape->name, std::string("my9pt"));
        QCOMPARE(engine_config(w).problem.radius, 2);
        QCOMPARE(int(engine_config(w).problem.shape->points.size()), 10);
        QVERIFY(knob<QComboBox>(w, "stencil")->currentText().startsWith(QLatin1String("Custom: my9pt")));
        QTRY_VERIFY2(facts->text().startsWith(QStringLiteral("10 points · 19 flop/cell\n")), qPrintable(facts->text()));
        QCOMPARE(knob<StencilDrawing>(w, "stencil_drawing")->shape().points.size(), std::size_t(10));
    }

    void the_drawing_paints_without_points_and_in_3d() {
        StencilDrawing empty;
        empty.resize(empty.sizeHint());
        const QImage blank = empty.grab().toImage();
        QVERIFY(!blank.isNull());
        QCOMPARE(coloured_pixels(blank), 0);

        StencilDrawing drawing;
        drawing.resize(220, 80); // larger than in the panel, for a pixel count with room
        drawing.set_shape(*ebisu_shape("poisson")); // 3D, a positive centre among negative neighbours
        const QImage three = drawing.grab().toImage();
        QVERIFY(!three.isNull());
        QVERIFY(coloured_pixels(three) > 50);
        // The three planes side by side: the middle column of the picture has the centre's blue, the left third red.
        bool blue_centre = false;
        const QPoint middle(three.width() / 2, three.height() / 2);
        for (int dx = -3; dx <= 3; ++dx) {
            const QColor c = three.pixelColor(middle + QPoint(dx, 0));
            blue_centre = blue_centre || c.blue() > c.red() + 40;
        }
        QVERIFY(blue_centre);

        StencilProblem star;
        star.dims = 3;
        star.radius = 2;
        star.rule = UpdateRule::Jacobi;
        QCOMPARE(int(drawn_stencil(star).points.size()), stencil_points(star)); // the star's own points: 12 arms
        QCOMPARE(stencil_points(star), 12);
        star.stencil = StencilKind::Diffusion4;
        QCOMPARE(int(drawn_stencil(star).points.size()), stencil_points(star));
    }
};

QTEST_MAIN(TestStencilEditor)
#include "tst_stencil_editor.moc"
