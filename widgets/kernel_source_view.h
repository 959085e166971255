// SPDX-License-Identifier: MIT
// View > Kernel source: the CUDA text the app generates for the current configuration (generic, and specialised for
// its block where the plan fixes one), its PTX and SASS, the lines that make the variant marked (legend at the top),
// and a side-by-side diff against a second configuration the user picks (variant, CF). Everything comes from the
// Session (request_kernel_text / kernel_text_ready); compiler output is shown as plain text.
#pragma once

#include "session/session.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;
class QTabWidget;

namespace ss::gui {

class KernelSourceView : public QDialog {
    Q_OBJECT
public:
    KernelSourceView(Session* session, QWidget* parent = nullptr);

    // Shows `config` (the window calls it with the requested configuration when it opens the dialog; the dialog
    // follows later requests itself).
    void show_configuration(const StencilConfig& config);

    // For tests: the tabs' contents as shown.
    QString source_text(bool specialised) const;
    QString ptx_text() const;
    QString sass_text() const;
    int differing_rows() const { return m_differing_rows; }
    bool waiting() const { return m_waiting_listing || m_waiting_other; }
    void set_comparison(Variant variant, int cf); // what the Compare tab's controls do

private:
    void show_listing(const KernelText&);
    void show_other(const KernelText&);
    void request_other();
    void refresh_diff();

    Session* m_session;
    StencilConfig m_config;
    std::uint64_t m_listing_request = 0, m_other_request = 0;
    bool m_waiting_listing = false, m_waiting_other = false;
    KernelText m_listing, m_other;
    int m_differing_rows = 0;

    QLabel* m_about;
    QTabWidget* m_tabs;
    QLabel* m_generic_note;
    QPlainTextEdit* m_generic;
    QLabel* m_specialised_note;
    QPlainTextEdit* m_specialised;
    QLabel* m_ptx_note;
    QPlainTextEdit* m_ptx;
    QLabel* m_sass_note;
    QPlainTextEdit* m_sass;
    QComboBox* m_other_variant;
    QSpinBox* m_other_cf;
    QCheckBox* m_active_only;
    QLabel* m_diff_summary;
    QPlainTextEdit* m_left;
    QPlainTextEdit* m_right;
};

// Fills `edit` with `text` (plain text), marked lines tinted by kind and lines the preprocessor drops greyed.
void show_marked_text(QPlainTextEdit* edit, const MarkedText& text);
// The colour of a mark (the legend's and the highlight's).
QColor line_mark_colour(LineMark);
// Fills `left` and `right` with the side-by-side diff of two texts' lines (only the active ones when
// `active_only`): removed lines tinted red on the left, added ones green on the right, blank rows where a side has
// none. Returns the rows that differ.
int show_side_by_side(
    QPlainTextEdit* left, QPlainTextEdit* right, const MarkedText& a, const MarkedText& b, bool active_only);

} // namespace ss::gui
