// SPDX-License-Identifier: MIT
#include "widgets/help_menu.h"

#include "widgets/screen_fit.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QHeaderView>
#include <QImage>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QResizeEvent>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace ss::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("help", text);
}

QDialog* make_dialog(QWidget& parent, const char* name, const QString& title, QWidget* content, QSize size) {
    auto* dialog = parent.findChild<QDialog*>(QLatin1String(name));
    if (dialog) return dialog;
    dialog = new QDialog(&parent);
    dialog->setObjectName(QLatin1String(name));
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(content);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(fit_to_available(size, available_screen_size(parent)));
    return dialog;
}

// The guide's pictures (screenshots 1280 px wide and more) scaled down to the text's width, so that the
// dialog reads as text with pictures in it: no horizontal scroll bar, at any dialog width.
class GuideBrowser : public QTextBrowser {
public:
    void fit_pictures() {
        const int width = std::max(viewport()->width() - 2 * int(document()->documentMargin()) - 4, 80);
        struct Change {
            int position, length;
            QTextImageFormat format;
        };
        std::vector<Change> changes; // applied after the walk: a format change splits the fragments walked
        for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                QTextImageFormat image = fragment.charFormat().toImageFormat();
                if (!fragment.isValid() || !image.isValid()) continue;
                const QSize natural = picture_size(image.name());
                if (natural.isEmpty()) continue;
                const int shown = std::min(natural.width(), width);
                if (int(image.width()) == shown) continue;
                image.setWidth(shown);
                image.setHeight(double(natural.height()) * shown / natural.width());
                changes.push_back({ fragment.position(), fragment.length(), image });
            }
        QTextCursor cursor(document());
        for (const Change& c : changes) {
            cursor.setPosition(c.position);
            cursor.setPosition(c.position + c.length, QTextCursor::KeepAnchor);
            cursor.setCharFormat(c.format);
        }
    }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QTextBrowser::resizeEvent(e);
        fit_pictures();
    }

private:
    QSize picture_size(const QString& name) {
        const auto known = m_sizes.constFind(name);
        if (known != m_sizes.constEnd()) return *known;
        const QVariant v = loadResource(QTextDocument::ImageResource, QUrl(name));
        QSize size = v.value<QImage>().size();
        if (size.isEmpty()) size = v.value<QPixmap>().size();
        if (size.isEmpty()) size = QImage::fromData(v.toByteArray()).size();
        m_sizes.insert(name, size);
        return size;
    }
    QHash<QString, QSize> m_sizes;
};

void show_user_guide(QWidget& window) {
    const QString path = user_guide_path();
    auto* text = new GuideBrowser;
    text->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the pictures fit the width
    text->setObjectName(QStringLiteral("user_guide_text"));
    text->setOpenExternalLinks(true);
    QFile file(path);
    if (!path.isEmpty() && file.open(QIODevice::ReadOnly)) {
        text->setSearchPaths({ QFileInfo(path).absolutePath() }); // its images/
        text->setMarkdown(QString::fromUtf8(file.readAll()));
        text->fit_pictures();
    } else {
        text->setPlainText(tr("The user guide was not found: it is installed as "
                              "/usr/share/doc/stencilscope/USER_GUIDE.md, and is docs/USER_GUIDE.md in the sources."));
    }
    QDialog* dialog = make_dialog(window, "user_guide_dialog", tr("StencilScope user guide"), text, { 900, 700 });
    dialog->show();
    dialog->raise();
}

void show_shortcuts(QWidget& window) {
    const QStringList lines = shortcut_lines(window);
    auto* table = new QTableWidget(int(lines.size()), 2);
    table->setObjectName(QStringLiteral("shortcut_table"));
    table->setHorizontalHeaderLabels({ tr("Keys"), tr("Does") });
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int i = 0; i < lines.size(); ++i) {
        const QStringList parts = lines[i].split(QLatin1Char('\t'));
        table->setItem(i, 0, new QTableWidgetItem(parts.value(0)));
        table->setItem(i, 1, new QTableWidgetItem(parts.value(1)));
    }
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnToContents(0);
    QDialog* dialog = make_dialog(window, "shortcuts_dialog", tr("Keyboard shortcuts"), table, { 520, 480 });
    dialog->show();
    dialog->raise();
}

} // namespace

QString user_guide_path() {
    const QString installed = QDir(QCoreApplication::applicationDirPath())
                                  .filePath(QStringLiteral("../share/doc/stencilscope/USER_GUIDE.md"));
    for (const QString& path : { installed, QStringLiteral(STENCILSCOPE_SOURCE_DIR "/docs/USER_GUIDE.md") })
        if (QFileInfo::exists(path)) return QFileInfo(path).canonicalFilePath();
    return {};
}

QStringList shortcut_lines(const QWidget& window) {
    QStringList lines;
    for (const QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcut().isEmpty() || a->text().isEmpty()) continue;
        const QString line = a->shortcut().toString(QKeySequence::NativeText) + QLatin1Char('\t')
            + QString(a->text()).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        if (!lines.contains(line)) lines << line;
    }
    // the field's mouse, which no action names
    lines << tr("Left-drag on the field\tadd a source (heat) or a pulse (wave)")
          << tr("Right- or Shift-drag\tpan the field") << tr("Wheel\tzoom the field");
    return lines;
}

void build_help_menu(QMainWindow& window, const QString& cuda_support) {
    QMenu* help = window.menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User guide"), &window, [&window] { show_user_guide(window); });
    guide->setObjectName(QStringLiteral("user_guide"));
    guide->setShortcut(QKeySequence::HelpContents);
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), &window, [&window] { show_shortcuts(window); });
    keys->setObjectName(QStringLiteral("keyboard_shortcuts"));
    keys->setShortcut(QKeySequence(QStringLiteral("Ctrl+/")));
    help->addSeparator();
    help->addAction(tr("&About StencilScope"), &window, [&window, cuda_support] {
        QMessageBox::about(&window, tr("About StencilScope"),
            tr("<b>StencilScope %1</b><p>Iterative stencil kernels on NVIDIA GPUs, live.</p>"
               "<p>Left-drag on the field injects a source; right- or shift-drag pans; the wheel zooms. "
               "Help &gt; User guide explains every control; Lessons &gt; (or Start here) are guided "
               "experiments.</p><p>%2</p>")
                .arg(QStringLiteral(STENCILSCOPE_VERSION),
                    cuda_support.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
    });
}

} // namespace ss::gui
