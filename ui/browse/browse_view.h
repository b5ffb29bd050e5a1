// SPDX-License-Identifier: MIT
#pragma once
// The Browse workspace: the problem banner, the entry tree (a TreeLoader adapted by the model,
// filtered by the proxy), its context menu, the details pane with its previews, and the window's
// extractions (Extract…, Extract Here, drag-out, Open). It shows one opened file at a time.

#include "open/inspection.h"

#include <QWidget>
#include <optional>

class QSplitter;

namespace asc {
class TreeLoader;
}

namespace asc::ui {

class DetailsPane;
class EntryExtractor;
class EntryFilterModel;
class EntryMenu;
class EntryTreeModel;
class EntryTreeView;
class ProblemBanner;

class BrowseView : public QWidget {
    Q_OBJECT
public:
    explicit BrowseView(QWidget *parent = nullptr);
    ~BrowseView() override;

    // Shows an opened file: its facts in the details, its container in the tree. With `reveal`
    // (a SPEC's inner parts) the tree opens its way to that entry, selects it and previews a file.
    void show(Inspected opened, const QByteArray &nameCharset, const QList<QByteArray> &reveal = {});
    const std::optional<Inspected> &current() const { return current_; }
    void setFilter(const QString &text, int nestedDepth);
    void stop();
    void clear();
    bool isBusy() const;
    // A filter text typed and not yet shown: matched in passes on a big tree, then the way to
    // its matches opened a few folders at a time.
    bool filterSettling() const;
    bool isExtracting() const;
    // Folders the filter opened since the view was made (a counter for tests).
    uint64_t expandedByFilter() const { return expandedByFilter_; }
    // Shows the current entry's details and preview again (a password was just entered).
    void showCurrentAgain() { selectionChanged(); }
    // Selects the node whose SPEC is `spec` when the tree holds it and the filter shows it
    // (its folders expanded, scrolled to); false otherwise.
    bool selectSpec(const QString &spec);
    // A password was given: volumes that needed one are opened again, and encrypted entries
    // ask again when they need one.
    void retryLocked();

    // Extracts the selected entries (all when nothing is selected) into `directory`.
    void extractSelectedTo(const QString &directory);
    // Extract…: the dialog (destination remembered, selection or all, folders or flat, existing names).
    void chooseExtraction();
    // In the banner; with "Try Again" when the file's worker ended (or `workerEnded` says so).
    // Opening `spec` failed: the window shows that, with the error and "Try Again".
    void showFailedOpen(const QString &spec, const Error &error);
    void showError(const QString &context, const Error &error, bool workerEnded = false);

    ProblemBanner *banner() const { return banner_; }
    EntryTreeView *tree() const { return tree_; }
    EntryTreeModel *model() const { return model_; }
    EntryFilterModel *proxy() const { return proxy_; }
    DetailsPane *details() const { return details_; }
    EntryMenu *entryMenu() const { return menu_; }
    QSplitter *splitter() const { return splitter_; }
    TreeLoader *loader() const { return loader_; }

Q_SIGNALS:
    void status(const QString &text);
    void busyChanged();
    void listingFinished();
    void extractionFinished(const QString &summary);
    // The benchmark's target: what is selected when it has content, else the file.
    void targetChanged(const QString &spec, qint64 bytes); // what a benchmark would read
    void benchmarkRequested(const QString &spec, qint64 bytes);
    void checkRequested(const QString &spec, bool checksums);

private:
    void connectLoader();
    void selectionChanged();
    void preview(int32_t node, bool properties);
    QList<int32_t> selectedNodes() const;
    QStringList extractForDrag(const QList<int32_t> &nodes);
    uint64_t bytesOf(const QList<int32_t> &nodes) const;
    // While filtering: expands every row that shows matches below it, once per batch of rows.
    void scheduleExpandMatches();
    void scheduleKeepInView();
    void expandMatches();

    TreeLoader *loader_;
    EntryTreeModel *model_;
    EntryFilterModel *proxy_;
    EntryExtractor *extractor_;
    ProblemBanner *banner_;
    EntryTreeView *tree_;
    DetailsPane *details_;
    QSplitter *splitter_;
    EntryMenu *menu_;
    std::optional<Inspected> current_;
    bool filtering_ = false;
    bool expandPending_ = false;
    // The filter opens the way to this many matches at most, through this many folders.
    static constexpr size_t kExpandedMatches = 1000;
    static constexpr int kFoldersPerPass = 16;
    QList<QPersistentModelIndex> openedByFilter_; // closed again when the next text applies
    uint64_t expandedByFilter_ = 0;
    int32_t shownNode_ = -1; // the entry the details show (-1: the file itself)
    bool previewOnReveal_ = false; // the SPEC named a file: preview it once the tree shows it
    quint64 loaderGeneration_ = 0; // one more for each tree shown or cleared (a question's node is of its own)
    bool entryPasswordDeclined_ = false; // this file's entries asked once and were told no: not again
    bool askingForEntry_ = false;
    // The SPEC's entry, kept in view while its listing goes on, until the user scrolls or moves.
    int32_t keepInView_ = -1;
    bool keepInViewPending_ = false;
};

} // namespace asc::ui
