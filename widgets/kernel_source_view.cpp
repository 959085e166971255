// SPDX-License-Identifier: MIT
#include "widgets/kernel_source_view.h"

#include "widgets/plain_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ss::gui {
namespace {

QPlainTextEdit* code_pane(const QString& name) {
    auto* edit = new QPlainTextEdit;
    edit->setObjectName(name);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return edit;
}

QLabel* note_label(const QString& name) {
    auto* label = plain_label(new QLabel);
    label->setObjectName(name);
    label->setWordWrap(true);
    return label;
}

QWidget* pane_with_note(QLabel* note, QWidget* pane) {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(note);
    layout->addWidget(pane, 1);
    return page;
}

// The legend: one swatch per mark, and what greyed lines are.
QWidget* legend() {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plain_label(new QLabel(QObject::tr("Marked:"))));
    for (LineMark m :
        { LineMark::Knob, LineMark::SharedTile, LineMark::Coarsening, LineMark::TemporalStages, LineMark::PlaneLoop }) {
        auto* swatch = plain_label(new QLabel(QString::fromLatin1(line_mark_name(m))));
        swatch->setAutoFillBackground(true);
        QPalette p = swatch->palette();
        p.setColor(QPalette::Window, line_mark_colour(m));
        p.setColor(QPalette::WindowText, Qt::black);
        swatch->setPalette(p);
        swatch->setContentsMargins(6, 2, 6, 2);
        layout->addWidget(swatch);
    }
    layout->addWidget(plain_label(new QLabel(QObject::tr("grey: lines the preprocessor drops"))));
    layout->addStretch(1);
    return row;
}

const Variant kStarVariants[]
    = { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced, Variant::Temporal };

} // namespace

KernelSourceView::KernelSourceView(Session* session, QWidget* parent)
    : QDialog(parent)
    , m_session(session)
    , m_about(note_label(QStringLiteral("kernel_about")))
    , m_tabs(new QTabWidget)
    , m_generic_note(note_label(QStringLiteral("generic_note")))
    , m_generic(code_pane(QStringLiteral("generic_source")))
    , m_specialised_note(note_label(QStringLiteral("specialised_note")))
    , m_specialised(code_pane(QStringLiteral("specialised_source")))
    , m_ptx_note(note_label(QStringLiteral("ptx_note")))
    , m_ptx(code_pane(QStringLiteral("ptx")))
    , m_sass_note(note_label(QStringLiteral("sass_note")))
    , m_sass(code_pane(QStringLiteral("sass")))
    , m_other_variant(new QComboBox)
    , m_other_cf(new QSpinBox)
    , m_active_only(new QCheckBox(tr("Only lines the preprocessor keeps")))
    , m_diff_summary(note_label(QStringLiteral("diff_summary")))
    , m_left(code_pane(QStringLiteral("diff_left")))
    , m_right(code_pane(QStringLiteral("diff_right"))) {
    setWindowTitle(tr("Kernel source"));
    setObjectName(QStringLiteral("kernel_source_view"));
    m_tabs->addTab(pane_with_note(m_generic_note, m_generic), tr("Source (generic)"));
    m_tabs->addTab(pane_with_note(m_specialised_note, m_specialised), tr("Source (specialised)"));
    m_tabs->addTab(pane_with_note(m_ptx_note, m_ptx), tr("PTX"));
    m_tabs->addTab(pane_with_note(m_sass_note, m_sass), tr("SASS"));

    for (Variant v : kStarVariants) m_other_variant->addItem(QString::fromLatin1(to_string(v)), int(v));
    m_other_variant->setObjectName(QStringLiteral("compare_variant"));
    m_other_cf->setRange(1, 16);
    m_other_cf->setObjectName(QStringLiteral("compare_cf"));
    m_active_only->setChecked(true);
    m_active_only->setToolTip(tr("Every variant's kernel is in the text, chosen by #if VARIANT: compare what "
                                 "each configuration compiles, or the whole texts"));
    auto* compare = new QWidget;
    auto* controls = new QHBoxLayout;
    controls->addWidget(plain_label(new QLabel(tr("Compare with variant"))));
    controls->addWidget(m_other_variant);
    controls->addWidget(plain_label(new QLabel(tr("CF"))));
    controls->addWidget(m_other_cf);
    controls->addWidget(m_active_only);
    controls->addStretch(1);
    auto* panes = new QHBoxLayout;
    panes->addWidget(m_left);
    panes->addWidget(m_right);
    auto* compare_layout = new QVBoxLayout(compare);
    compare_layout->addLayout(controls);
    compare_layout->addWidget(m_diff_summary);
    compare_layout->addLayout(panes, 1);
    m_tabs->addTab(compare, tr("Compare"));
    // The two sides scroll together.
    connect(
        m_left->verticalScrollBar(), &QScrollBar::valueChanged, m_right->verticalScrollBar(), &QScrollBar::setValue);
    connect(
        m_right->verticalScrollBar(), &QScrollBar::valueChanged, m_left->verticalScrollBar(), &QScrollBar::setValue);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_about);
    layout->addWidget(legend());
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
    resize(1000, 700);

    connect(m_session, &Session::kernel_text_ready, this, [this](const KernelText& k) {
        if (k.request == m_listing_request) show_listing(k);
        if (k.request == m_other_request) show_other(k);
    });
    connect(m_session, &Session::settings_changed, this, [this](const RunSettings& s) {
        if (isVisible()) show_configuration(s.config);
    });
    connect(m_other_variant, &QComboBox::currentIndexChanged, this, &KernelSourceView::request_other);
    connect(m_other_cf, &QSpinBox::valueChanged, this, &KernelSourceView::request_other);
    connect(m_active_only, &QCheckBox::toggled, this, &KernelSourceView::refresh_diff);
}

void KernelSourceView::show_configuration(const StencilConfig& config) {
    m_config = config;
    m_about->setText(tr("Generating the kernel text for %1 ...").arg(QString::fromStdString(describe(config))));
    m_ptx_note->setText(tr("Compiling with NVRTC ..."));
    m_sass_note->setText(tr("Compiling with NVRTC ..."));
    m_waiting_listing = true;
    m_listing_request = m_session->request_kernel_text(config, KernelTextKind::Listing);
    // A first comparison that shows something: base against smem, anything else against base.
    if (m_other_request == 0) {
        const Variant other = config.policy.variant == Variant::Base ? Variant::Smem : Variant::Base;
        const QSignalBlocker block(m_other_variant);
        m_other_variant->setCurrentIndex(m_other_variant->findData(int(other)));
        const QSignalBlocker block_cf(m_other_cf);
        m_other_cf->setValue(config.policy.cf);
    }
    request_other();
}

void KernelSourceView::set_comparison(Variant variant, int cf) {
    const QSignalBlocker block(m_other_variant);
    m_other_variant->setCurrentIndex(m_other_variant->findData(int(variant)));
    const QSignalBlocker block_cf(m_other_cf);
    m_other_cf->setValue(cf);
    request_other();
}

void KernelSourceView::request_other() {
    StencilConfig other = m_config;
    other.policy.variant = Variant(m_other_variant->currentData().toInt());
    other.policy.cf = other.policy.variant == Variant::Uncoalesced ? 1 : m_other_cf->value();
    other.policy.depth = depth_for(other.policy.variant, std::max(other.policy.depth, 2));
    m_waiting_other = true;
    m_diff_summary->setText(tr("Generating the text of %1 ...").arg(QString::fromStdString(describe(other))));
    m_other_request = m_session->request_kernel_text(other, KernelTextKind::SourceOnly);
}

void KernelSourceView::show_listing(const KernelText& k) {
    m_waiting_listing = false;
    m_listing = k;
    if (!k.problem.isEmpty()) {
        m_about->setText(k.problem);
        for (QPlainTextEdit* e : { m_generic, m_specialised, m_ptx, m_sass }) e->clear();
        for (QLabel* l : { m_generic_note, m_specialised_note, m_ptx_note, m_sass_note }) l->setText(k.problem);
        refresh_diff();
        return;
    }
    m_about->setText(tr("%1: %2. Entry point %3.").arg(QString::fromStdString(describe(k.config)), k.about, k.entry));
    m_generic_note->setText(k.specialised.text.isEmpty()
            ? tr("The generic text (the block is a run-time value). %1.").arg(k.specialised_note)
            : tr("The generic text (the block is a run-time value); the backend compiles the specialised one."));
    show_marked_text(m_generic, k.generic);
    m_specialised_note->setText(k.specialised.text.isEmpty() ? tr("No specialised text: %1.").arg(k.specialised_note)
                                                             : tr("The specialised text: %1.").arg(k.specialised_note));
    show_marked_text(m_specialised, k.specialised);
    m_ptx_note->setText(
        k.ptx.isEmpty() ? k.ptx_problem : tr("NVRTC's PTX of %1 for %2.").arg(k.compiled_label, k.architecture));
    m_ptx->setPlainText(k.ptx);
    m_sass_note->setText(k.sass.isEmpty()
            ? k.sass_problem
            : tr("SASS of %1 for %2, disassembled by %3.").arg(k.compiled_label, k.architecture, k.disassembler));
    m_sass->setPlainText(k.sass);
    refresh_diff();
}

void KernelSourceView::show_other(const KernelText& k) {
    m_waiting_other = false;
    m_other = k;
    refresh_diff();
}

void KernelSourceView::refresh_diff() {
    if (m_waiting_listing || m_waiting_other) return;
    const KernelText& a = m_listing;
    const KernelText& b = m_other;
    if (!a.problem.isEmpty() || !b.problem.isEmpty()) {
        m_diff_summary->setText(a.problem.isEmpty() ? b.problem : a.problem);
        m_left->clear(), m_right->clear();
        m_differing_rows = 0;
        return;
    }
    // Like with like: the specialised texts where both have one, else the generic ones.
    const bool specialised = !a.specialised.text.isEmpty() && !b.specialised.text.isEmpty();
    const MarkedText& left = specialised ? a.specialised : a.generic;
    const MarkedText& right = specialised ? b.specialised : b.generic;
    m_differing_rows = show_side_by_side(m_left, m_right, left, right, m_active_only->isChecked());
    m_diff_summary->setText(
        tr("Left: %1. Right: %2. The %3 texts, %4; %5 rows differ (red: only left, green: only "
           "right).")
            .arg(QString::fromStdString(describe(a.config)), QString::fromStdString(describe(b.config)),
                specialised ? tr("specialised") : tr("generic"),
                m_active_only->isChecked() ? tr("the lines the preprocessor keeps") : tr("every line"))
            .arg(m_differing_rows));
}

QString KernelSourceView::source_text(bool specialised) const {
    return (specialised ? m_specialised : m_generic)->toPlainText();
}

QString KernelSourceView::ptx_text() const {
    return m_ptx->toPlainText().isEmpty() ? m_ptx_note->text() : m_ptx->toPlainText();
}

QString KernelSourceView::sass_text() const {
    return m_sass->toPlainText().isEmpty() ? m_sass_note->text() : m_sass->toPlainText();
}

} // namespace ss::gui
