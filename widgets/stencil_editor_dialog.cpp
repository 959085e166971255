// SPDX-License-Identifier: MIT
#include "widgets/stencil_editor_dialog.h"

#include "gpu/problem/stencil_catalog.h"
#include "gpu/problem/stencil_file.h"
#include "reports/stencil_options.h"
#include "widgets/form_helpers.h"
#include "widgets/plain_text.h"
#include "widgets/stencil_drawing.h"
#include "widgets/stencil_overview.h"
#include "widgets/stencil_weights_grid.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::gui {
using namespace form;
namespace {

// A stencil named like a built-in one must be that one: the CSV's stencil column and a setup file name it by its
// name alone, so an edited 2d9pt that kept the name would be taken for EBISU's.
Status check_name_is_its_own(const StencilShape& s) {
    if (s.name == "star" || s.name == "diffusion4" || s.name == "points")
        return Status::failure("\"" + s.name + "\" names a built-in stencil kind: give yours another name");
    const bool changed_box = s.name == "box" && !(s == box_shape(s.dims, s.radius()));
    const auto named = ebisu_shape(s.name);
    if (changed_box || (named && !(*named == s)))
        return Status::failure("the points differ from the built-in \"" + s.name + "\": give yours another name");
    return Status::success();
}

std::string encoded_absolute(const QString& path) {
    return QFile::encodeName(QFileInfo(path).absoluteFilePath()).toStdString();
}

QPushButton* helper_button(const QString& text, const char* name, const QString& tooltip) {
    auto* b = named(new QPushButton(text), name);
    b->setToolTip(tooltip);
    b->setAutoDefault(false); // Enter in a cell must not press a helper
    return b;
}

} // namespace

StencilEditorDialog::StencilEditorDialog(const StencilConfig& base, QWidget* parent)
    : QDialog(parent)
    , m_base(base)
    , m_name(named(new QLineEdit, "stencil_name"))
    , m_dims(named(new QComboBox, "editor_dims"))
    , m_start(named(new QComboBox, "start_from"))
    , m_radius(named(new QSpinBox, "editor_radius"))
    , m_grid(new StencilWeightsGrid)
    , m_drawing(new StencilDrawing)
    , m_facts(plain_label(named(new QLabel, "editor_facts")))
    , m_reason(plain_label(named(new QLabel, "editor_reason"))) {
    setWindowTitle(tr("Stencil editor"));
    m_name->setMaxLength(64);
    m_name->setToolTip(tr("The stencil's name in the CSV's stencil column: no spaces, commas or quotes."));
    m_dims->addItem(tr("2D"), 2);
    m_dims->addItem(tr("3D"), 3);
    m_radius->setRange(1, kMaxStencilRadius);
    m_radius->setToolTip(tr("The grid's reach: offsets -R..R along each axis (the stencil's radius is its farthest "
                            "point)."));
    m_start->addItem(tr("Start from…"), QString());
    m_start->addItem(tr("Star (of this radius)"), QStringLiteral("star"));
    m_start->addItem(tr("Box (of this radius)"), QStringLiteral("box"));
    for (const std::string_view n : ebisu_stencil_names()) m_start->addItem(tr("%1 (EBISU)").arg(qs(n)), qs(n));
    m_start->setToolTip(tr("Replace the grid with a named stencil's points, to edit from there."));

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Dimensions"), row({ m_dims, new QLabel(tr("Radius")), m_radius, m_start }));

    m_mirror_x = helper_button(tr("Mirror x"), "mirror_x",
        tr("Symmetric in x: each weight is copied to its mirror image across dx = 0 (two different weights: their "
           "mean)."));
    m_mirror_y = helper_button(tr("Mirror y"), "mirror_y", tr("Symmetric in y, as Mirror x."));
    m_mirror_z = helper_button(tr("Mirror z"), "mirror_z", tr("Symmetric in z, as Mirror x (3D)."));
    m_symmetric = helper_button(tr("Fully symmetric"), "symmetric",
        tr("Every mirror and every exchange of the axes: each weight goes to all its images (their mean where they "
           "differ)."));
    m_normalise = helper_button(tr("Normalise to sum 1"), "normalise",
        tr("Divide every weight by their sum, so a constant field stays constant."));
    m_load = helper_button(tr("Load…"), "load", tr("Read a stencil file (.json)."));
    m_save = helper_button(tr("Save…"), "save", tr("Write the stencil as a stencil file (.json)."));

    m_drawing->setFixedSize(160, 64); // larger than in the control panel
    m_facts->setWordWrap(true);
    m_facts->setToolTip(arithmetic_intensity_tooltip());
    m_reason->setWordWrap(true);
    m_reason->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Use this stencil"));
    buttons->addButton(m_load, QDialogButtonBox::ActionRole);
    buttons->addButton(m_save, QDialogButtonBox::ActionRole);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_grid, 1);
    layout->addLayout(row({ m_mirror_x, m_mirror_y, m_mirror_z, m_symmetric, m_normalise }));
    auto* preview = row({ m_drawing, m_facts });
    preview->setStretch(1, 1);
    layout->addLayout(preview);
    layout->addWidget(m_reason);
    layout->addWidget(buttons);

    connect(m_name, &QLineEdit::textChanged, this, &StencilEditorDialog::update_state);
    connect(m_dims, &QComboBox::currentIndexChanged, this, &StencilEditorDialog::extent_edited);
    connect(m_radius, &QSpinBox::valueChanged, this, &StencilEditorDialog::extent_edited);
    connect(m_grid, &StencilWeightsGrid::edited, this, &StencilEditorDialog::update_state);
    connect(m_start, &QComboBox::activated, this, [this](int index) {
        const QString name = m_start->itemData(index).toString();
        m_start->setCurrentIndex(0);
        if (!name.isEmpty()) start_from(name);
    });
    connect(m_mirror_x, &QPushButton::clicked, this, [this] { apply(Symmetry::MirrorX); });
    connect(m_mirror_y, &QPushButton::clicked, this, [this] { apply(Symmetry::MirrorY); });
    connect(m_mirror_z, &QPushButton::clicked, this, [this] { apply(Symmetry::MirrorZ); });
    connect(m_symmetric, &QPushButton::clicked, this, [this] { apply(Symmetry::Full); });
    connect(m_normalise, &QPushButton::clicked, this, &StencilEditorDialog::normalise);
    connect(m_load, &QPushButton::clicked, this, &StencilEditorDialog::load_dialog);
    connect(m_save, &QPushButton::clicked, this, &StencilEditorDialog::save_dialog);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (validity()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    StencilShape start = drawn_stencil(base.problem);
    if (base.problem.stencil == StencilKind::Star) start.name = "star-points";
    if (start.points.empty()) start = box_shape(base.problem.dims, std::max(base.problem.radius, 1));
    set_shape(start);
}

void StencilEditorDialog::set_shape(const StencilShape& shape) {
    m_updating = true;
    m_name->setText(qs(shape.name));
    m_dims->setCurrentIndex(std::max(m_dims->findData(shape.dims), 0));
    m_radius->setValue(std::clamp(shape.radius(), 1, kMaxStencilRadius));
    m_grid->set_extent(m_dims->currentData().toInt(), m_radius->value());
    m_grid->set_plane(0);
    m_grid->set_points(shape.points);
    m_updating = false;
    update_state();
}

void StencilEditorDialog::start_from(const QString& name) {
    const int dims = m_dims->currentData().toInt(), radius = m_radius->value();
    if (name == QLatin1String("star")) {
        StencilProblem star;
        star.stencil = StencilKind::Star;
        star.rule = m_base.problem.stencil == StencilKind::Star ? m_base.problem.rule : UpdateRule::Jacobi;
        star.dims = dims;
        star.radius = radius;
        StencilShape shape = drawn_stencil(star);
        shape.name = "star-points";
        set_shape(shape);
    } else if (name == QLatin1String("box")) {
        set_shape(box_shape(dims, radius));
    } else if (const auto shape = ebisu_shape(name.toStdString())) {
        set_shape(*shape);
    }
}

StencilShape StencilEditorDialog::shape() const {
    StencilShape s { m_name->text().trimmed().toStdString(), m_dims->currentData().toInt(), {}, {} };
    (void)m_grid->read_points(s.points); // unreadable cells: no points (validity() says which cell)
    if (s == m_file_shape) s.source = m_file_shape.source;
    return s;
}

Status StencilEditorDialog::validity() const {
    std::vector<StencilPoint> points;
    if (Status s = m_grid->read_points(points); !s) return s;
    const StencilShape s = shape();
    if (Status named_ok = check_stencil_name(s.name); !named_ok) return named_ok;
    if (Status checked = check_shape(s); !checked) return checked;
    return check_name_is_its_own(s);
}

QString StencilEditorDialog::reason() const {
    return m_reason->text();
}

void StencilEditorDialog::apply(Symmetry symmetry) {
    std::vector<StencilPoint> points;
    if (!m_grid->read_points(points)) return;
    m_grid->set_points(symmetrized(points, m_grid->dims(), symmetry));
}

bool StencilEditorDialog::normalise() {
    std::vector<StencilPoint> points;
    if (!m_grid->read_points(points) || !normalise_weights(points)) return false;
    m_grid->set_points(points);
    return true;
}

Status StencilEditorDialog::load(const QString& path) {
    StencilShape loaded;
    if (Status s = read_stencil_file(encoded_absolute(path), "stencil file", loaded); !s) return s;
    m_file_shape = loaded;
    set_shape(loaded);
    return Status::success();
}

Status StencilEditorDialog::save(const QString& path) {
    if (Status s = validity(); !s) return s;
    StencilShape s = shape();
    s.source = encoded_absolute(path);
    if (Status written = write_stencil_file(s.source, s); !written) return written;
    m_file_shape = s;
    update_state();
    return Status::success();
}

void StencilEditorDialog::extent_edited() {
    if (m_updating) return;
    m_grid->set_extent(m_dims->currentData().toInt(), m_radius->value());
}

void StencilEditorDialog::update_state() {
    if (m_updating) return;
    std::vector<StencilPoint> points;
    const bool readable = bool(m_grid->read_points(points));
    const Status valid = validity();
    const StencilShape s = shape();
    m_ok->setEnabled(valid.ok);
    m_save->setEnabled(valid.ok);
    m_reason->setText(valid ? QString() : QString::fromStdString(one_line(valid.reason)));
    m_reason->setVisible(!valid);
    for (QPushButton* b : { m_mirror_x, m_mirror_y, m_symmetric }) b->setEnabled(readable && !points.empty());
    m_mirror_z->setEnabled(readable && !points.empty() && s.dims == 3);
    m_mirror_z->setVisible(s.dims == 3);
    std::vector<StencilPoint> normalised = points;
    m_normalise->setEnabled(readable && normalise_weights(normalised));
    m_drawing->set_shape(s);
    StencilConfig c = m_base;
    use_shape(c.problem, s);
    m_facts->setText(check_shape(s) ? stencil_facts_text(c) : QString());
}

void StencilEditorDialog::load_dialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a stencil file"), QString(), tr("Stencil files (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    if (const Status s = load(path); !s) {
        m_reason->setText(tr("Not loaded: %1").arg(QString::fromStdString(one_line(s.reason))));
        m_reason->show();
    }
}

void StencilEditorDialog::save_dialog() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save the stencil"), m_name->text() + QStringLiteral(".json"),
        tr("Stencil files (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    if (const Status s = save(path); !s) {
        m_reason->setText(tr("Not saved: %1").arg(QString::fromStdString(one_line(s.reason))));
        m_reason->show();
    }
}

} // namespace ss::gui
