// SPDX-License-Identifier: MIT
#pragma once
// The selected entry: every metadata field and format extra, and a hex view of its first 64 KiB
// (read on a worker thread; a newer selection drops older reads).

#include "open/inspection.h"
#include "vfs/entry_tree.h"

#include "io/error.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTextBrowser;

namespace asc::ui {

class AllocationMap;
class HexView;

class DetailsPane : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPane(QWidget *parent = nullptr);
    // Shows the opened file itself (no entry selected).
    void showSource(const Inspection &source);
    void showNode(const EntryTree &tree, int32_t node);
    HexView *hexView() const { return hex_; }
    // Shows the preview that fits what was read: a picture, text, else hex. The head of a
    // selected entry is read in the background: call after it arrived (previewReady).
    void showPreview();
    // Preview (menu, double-click): shows the fitting preview as soon as the head is read.
    void requestPreview();
    QString previewKind() const; // "image", "text" or "hex": the preview on show
    AllocationMap *allocationMap() const { return map_; }
    QString text() const;
    // The next preview (or the one shown) opens on its Text tab at `line` (1-based), selected;
    // a line past the preview's bytes is said instead. 0: nothing to highlight.
    void highlightLine(qint64 line);
    QPlainTextEdit *textView() const { return text_; }

Q_SIGNALS:
    // The selected entry is encrypted and no password given reads it (`why` says which): asking
    // for one is the window's to decide (BrowseView).
    void passwordNeeded(const QString &spec, const Error &why);

private:
    void setPreview(const QByteArray &head);
    void applyHighlight();
    qint64 highlight_ = 0; // highlightLine's, until a preview shows it

    QTextBrowser *fields_;
    QTabWidget *preview_;
    HexView *hex_;
    QPlainTextEdit *text_;
    QLabel *image_;
    bool loading_ = false; // the selected entry's head is being read
    bool previewWanted_ = false; // show the fitting preview when it arrives
    AllocationMap *map_;
    quint64 generation_ = 0;
};

} // namespace asc::ui
