// SPDX-License-Identifier: MIT
#include "widgets/stencil_picker.h"

#include "gpu/problem/stencil_catalog.h"
#include "reports/stencil_options.h"
#include "widgets/form_helpers.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>

namespace ss::gui {
using namespace form;
namespace {

constexpr int kFromFile = -1; // the "From file…" entry's kind data

} // namespace

StencilPicker::StencilPicker(QObject* parent)
    : QObject(parent)
    , m_combo(named(new QComboBox, "stencil")) {
    auto add = [this](const QString& text, int kind, const QString& name, SharedShape shape = {}) {
        m_combo->addItem(text, kind);
        m_combo->setItemData(m_combo->count() - 1, name, kStencilNameRole);
        m_entry_shapes.push_back(std::move(shape));
    };
    add(tr("Star (thesis)"), int(StencilKind::Star), QStringLiteral("star"));
    add(tr("Diffusion, 4th order"), int(StencilKind::Diffusion4), QStringLiteral("diffusion4"));
    add(tr("Box (all (2R+1)^d points)"), int(StencilKind::Points), QStringLiteral("box"));
    for (const std::string_view name : ebisu_stencil_names()) {
        StencilShape shape = *ebisu_shape(name);
        const QString text
            = tr("%1 (EBISU, %2D, %3 points)").arg(qs(name)).arg(shape.dims).arg(qsizetype(shape.points.size()));
        add(text, int(StencilKind::Points), qs(name), SharedShape(std::move(shape)));
    }
    add(tr("From file…"), kFromFile, QString());
    m_combo->setItemData(m_combo->count() - 1,
        tr("A stencil of your own: a JSON file with its points and weights (User guide, \"Stencils\")."),
        Qt::ToolTipRole);
    connect(m_combo, &QComboBox::currentIndexChanged, this, &StencilPicker::entry_activated);
}

void StencilPicker::apply_to(StencilProblem& p) const {
    const int index = m_combo->currentIndex();
    const int kind = m_combo->currentData().toInt();
    if (index < 0 || kind == kFromFile) return;
    p.stencil = StencilKind(kind);
    if (p.stencil != StencilKind::Points) {
        p.shape = {};
        return;
    }
    p.rule = UpdateRule::Jacobi;
    if (const SharedShape& shape = m_entry_shapes[std::size_t(index)]) {
        p.shape = shape; // shared, not copied: settings() runs on every knob change
        p.dims = shape->dims;
        p.radius = shape->radius();
    } else {
        use_shape(p, box_shape(p.dims, p.radius));
    }
}

void StencilPicker::show(const StencilProblem& p) {
    int index = -1;
    if (p.stencil != StencilKind::Points || !p.shape) {
        index = m_combo->findData(int(p.stencil));
    } else if (p.shape->source.empty() && p.shape->name == "box") {
        index = m_combo->findData(QStringLiteral("box"), kStencilNameRole);
    } else {
        for (std::size_t i = 0; i < m_entry_shapes.size() && index < 0; ++i)
            if (m_entry_shapes[i] && p.shape->source.empty() && m_entry_shapes[i] == p.shape) index = int(i);
        if (index < 0) index = set_file_entry(p.shape); // a file's stencil, or one a setup built by hand
    }
    m_showing = true;
    m_combo->setCurrentIndex(std::max(index, 0));
    m_showing = false;
    m_previous = m_combo->currentIndex();
}

bool StencilPicker::fixes_shape() const {
    const int index = m_combo->currentIndex();
    return index >= 0 && bool(m_entry_shapes[std::size_t(index)]);
}

Status StencilPicker::load_file(const QString& path) {
    StencilShape shape;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (Status s = read_stencil_file(QFile::encodeName(absolute).toStdString(), "stencil file", shape); !s) return s;
    choose_shape(shape);
    return Status::success();
}

void StencilPicker::choose_shape(const StencilShape& shape) {
    const int index = set_file_entry(SharedShape(shape));
    m_showing = true;
    m_combo->setCurrentIndex(index);
    m_showing = false;
    m_previous = index;
    emit chosen();
}

// The file entry sits just before "From file…"; a second file replaces the first.
int StencilPicker::set_file_entry(const SharedShape& shape) {
    const bool showing = m_showing;
    m_showing = true;
    const int from_file = m_combo->count() - 1;
    const bool exists = bool(m_file_shape);
    const int index = exists ? from_file - 1 : from_file;
    const QString text = (shape->source.empty() ? tr("Custom: %1 (%2D, %3 points)") : tr("File: %1 (%2D, %3 points)"))
                             .arg(qs(shape->name))
                             .arg(shape->dims)
                             .arg(qsizetype(shape->points.size()));
    if (!exists) {
        m_combo->insertItem(index, text, int(StencilKind::Points));
        m_entry_shapes.insert(m_entry_shapes.begin() + index, shape);
    } else {
        m_combo->setItemText(index, text);
        m_entry_shapes[std::size_t(index)] = shape;
    }
    m_combo->setItemData(index, qs(shape->source), kStencilNameRole);
    m_combo->setItemData(index, qs(shape->source), Qt::ToolTipRole);
    m_file_shape = shape;
    m_showing = showing;
    return index;
}

void StencilPicker::entry_activated(int index) {
    if (m_showing || index < 0) return;
    if (m_combo->itemData(index).toInt() != kFromFile) {
        m_previous = index;
        emit chosen();
        return;
    }
    // "From file…" is an action, not a stencil: the previous entry stays chosen unless a file loads.
    m_showing = true;
    m_combo->setCurrentIndex(m_previous);
    m_showing = false;
    const QString path = QFileDialog::getOpenFileName(
        m_combo, tr("Open a stencil file"), QString(), tr("Stencil files (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    if (const Status s = load_file(path); !s) emit file_refused(QString::fromStdString(s.reason));
}

} // namespace ss::gui
