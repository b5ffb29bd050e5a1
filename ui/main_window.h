// SPDX-License-Identifier: MIT
#pragma once
// The main window: address bar, filter, the entry tree (filled incrementally from a worker),
// details and hex view, status bar with progress and Stop. Files open from the command line,
// the Open dialog, Open Recent, and by dropping them on the window.

#include "open_job.h"
#include "recent_files.h"
#include "vfs/extraction.h"

#include <atomic>

#include <QFutureWatcher>
#include <QMainWindow>
#include <QTemporaryDir>
#include <functional>
#include <memory>

class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSplitter;
class QTreeView;

namespace asc::ui {

class BenchPanel;
class DetailsPane;
class EntryFilterModel;
class EntryTreeModel;
class HexView;
struct ListingBatch;
struct ExtractSummary;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Starts opening a SPEC (file path, optionally with !/ parts) on a worker thread.
    void openSpec(const QString &spec);
    QString currentSpec() const { return current_ ? current_->spec : QString(); }
    quint64 currentSize() const { return current_ ? current_->size : 0; }
    bool isBusy() const { return opening_ || !listings_.isEmpty(); }
    HexView *hexView() const;
    EntryTreeModel *model() const { return model_; }
    EntryFilterModel *proxy() const { return proxy_; }
    QTreeView *treeView() const { return tree_; }
    DetailsPane *detailsPane() const { return details_; }
    QLineEdit *filterEdit() const { return filter_; }
    BenchPanel *benchPanel() const { return bench_; }
    QString bannerText() const;
    // Problems reported while reading the open file (damaged headers skipped, unreadable entries).
    QStringList problems() const { return problems_; }
    // Legacy archive names are decoded from this charset (empty: as stored); changing it reopens.
    QByteArray nameCharset() const { return nameCharset_; }
    void setNameCharset(const QByteArray &charset);
    // Extracts the selected entries (all when nothing is selected) into `directory`.
    void extractSelectedTo(const QString &directory);
    void stopLoading();
    // Where files beyond the first go when several are dropped or given (a new window each).
    void setExtraFileOpener(std::function<void(const QString &)> opener) { openElsewhere_ = std::move(opener); }
    void openFiles(const QStringList &specs);

Q_SIGNALS:
    // After each open attempt, successful or not (tests wait on this).
    void opened(const QString &spec, bool ok);
    // When no listing is running any more.
    void listingFinished();
    void extractionFinished(const QString &summary);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void buildToolBar();
    void showOpened(OpenedSpec opened);
    void showError(const QString &context, const Error &error);
    void showBanner(const QString &text);
    // Adds problems to the open file's list and shows one banner summarising them.
    void noteProblems(const std::vector<Error> &problems);
    void showProblemDetails();
    QMenu *buildNameEncodingMenu();
    void rebuildRecentMenu();
    void chooseFile();
    void chooseExtractTarget();
    // Lists a layer: whole, or its top folder when the container is read folder by folder; or,
    // with `folder`, that folder's children.
    static constexpr int32_t kRestOfLayer = -2; // `folder` for readRemainingFolders' listing
    void startListing(int32_t layer, int32_t folder = -1);
    // Lists what has not been read yet of every layer read folder by folder (the filter searches
    // the whole tree, not only the folders expanded so far).
    void readRemainingFolders();
    // Of a batch of the whole layer's entries, those whose folder has no listing of its own.
    std::vector<Entry> unreadOnly(int32_t layer, std::vector<Entry> entries);
    void expandNested(int32_t node);
    // Opened on a directory inside a container: expands the tree down to it as its folders
    // arrive (read on expansion where the container reads folder by folder), then selects it.
    void revealPending();
    void selectionChanged();
    void updateStatus();
    QStringList extractForDrag(const QList<int32_t> &nodes);

    QLineEdit *address_ = nullptr;
    QLineEdit *filter_ = nullptr;
    QLabel *banner_ = nullptr;
    QTreeView *tree_ = nullptr;
    DetailsPane *details_ = nullptr;
    QSplitter *splitter_ = nullptr;
    BenchPanel *bench_ = nullptr;
    QMenu *recentMenu_ = nullptr;
    QAction *stopAction_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *counter_ = nullptr;
    EntryTreeModel *model_ = nullptr;
    EntryFilterModel *proxy_ = nullptr;
    RecentFiles recent_;
    std::optional<OpenedSpec> current_;
    QList<QFutureWatcher<ListingBatch> *> listings_;
    QByteArray pendingReveal_; // directory path still to expand down to ("" = none)
    QSet<int32_t> wholeLayers_; // layers read folder by folder whose every folder has been read (or is being)
    QHash<int32_t, QSet<int32_t>> claimedFolders_; // per layer: folders whose children its whole listing brings
    QFutureWatcher<ExtractSummary> *extraction_ = nullptr;
    std::unique_ptr<QTemporaryDir> dragDir_;
    std::function<void(const QString &)> openElsewhere_;
    QStringList problems_;    // of the open file, in the order reported
    QByteArray nameCharset_;  // "" = names as stored
    std::shared_ptr<std::atomic_bool> extractionStop_ = std::make_shared<std::atomic_bool>(false);
    quint64 generation_ = 0; // a newer open drops results of older ones
    bool opening_ = false;
};

} // namespace asc::ui
