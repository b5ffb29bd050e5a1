// SPDX-License-Identifier: MIT
#pragma once
// The main window: the location bar and filter, two workspaces — Browse (the tree, details,
// previews, extraction: BrowseView) and Benchmark (BenchPanel) — menus, and a status bar with
// progress and Stop. Widgets and wiring only: opening goes through the facade (open_job), listing
// through the TreeLoader. Files open from the command line, the Open dialog, Open Recent, the
// location bar, and by dropping them on the window.

#include "browse/browse_view.h"
#include "browse/details_pane.h"
#include "open/tree_loader.h"
#include "browse/problem_banner.h"
#include "remote/worker_channel.h"

#include <QMainWindow>
#include <functional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QTabWidget;
class QTreeView;

namespace asc::ui {

class TraceMenu;
class StallPrompt;

class BenchPanel;
class EntryFilterModel;
class EntryTreeModel;
class EntryTreeView;
class HexView;
class LocationBar;
class NameEncodingMenu;
class RecentMenu;
class Mounts;
class ContentSearchPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Starts opening a SPEC (file path, optionally with !/ parts) on a worker thread.
    void openSpec(const QString &spec);
    // A SPEC typed into the location bar: as openSpec, but one that cannot be opened leaves the
    // open tree as it was and says what is wrong (7-Zip's address bar), the text kept to correct.
    void openTypedSpec(const QString &spec);
    QString currentSpec() const { return browse_->current() ? browse_->current()->inspection.spec : QString(); }
    quint64 currentSize() const { return browse_->current() ? browse_->current()->inspection.size : 0; }
    bool isBusy() const { return opening_ || browse_->isBusy(); }
    BrowseView *browseView() const { return browse_; }
    HexView *hexView() const { return browse_->details()->hexView(); }
    EntryTreeModel *model() const { return browse_->model(); }
    EntryFilterModel *proxy() const { return browse_->proxy(); }
    QTreeView *treeView() const;
    DetailsPane *detailsPane() const { return browse_->details(); }
    QLineEdit *filterEdit() const { return filter_; }
    QLineEdit *addressEdit() const { return address_; }
    BenchPanel *benchPanel() const { return bench_; }
    QTabWidget *workspace() const { return workspace_; }
    QString bannerText() const { return browse_->banner()->message(); }
    // Problems reported while reading the open file (damaged headers skipped, unreadable entries).
    QStringList problems() const { return browse_->banner()->problems(); }
    // Legacy archive names are decoded from this charset (empty: as stored); changing it reopens.
    QByteArray nameCharset() const { return nameCharset_; }
    void setNameCharset(const QByteArray &charset);
    // Extracts the selected entries (all when nothing is selected) into `directory`.
    void extractSelectedTo(const QString &directory) { browse_->extractSelectedTo(directory); }
    // Stops the listing; while a file is being opened, ends its worker process.
    void stopLoading();
    StallPrompt *stallPrompt() const { return stall_; }
    // The worker process reading the open file (null with --no-sandbox or before a file opens).
    const WorkerPtr &worker() const { return worker_; }
    // Where files beyond the first go when several are dropped or given (a new window each).
    void setExtraFileOpener(std::function<void(const QString &)> opener) { openElsewhere_ = std::move(opener); }
    void openFiles(const QStringList &specs);
    TraceMenu *traceMenu() const { return traceMenu_; }
    // Mounts the open file's SPEC read-only at `dir` (File > Mount… after its folder dialog).
    void mountAt(const QString &dir);
    // File > Test / Checksums… and an entry's: a dialog of its own per run (ui/check).
    void check(const QString &spec, bool checksums);
    Mounts *mounts() const { return mounts_; }
    ContentSearchPanel *contentSearch() const { return contentSearch_; }
    // A Find in Contents match: its entry selected in the tree (opened to, when not there yet),
    // its line highlighted in the text preview.
    void showMatch(const QString &spec, qint64 line);

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
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildMenus();
    void chooseFile();
    void filterChanged(const QString &text);
    void updateStatus();
    // A status message that stays only while the window is busy.
    void showBusyMessage(const QString &text);

    LocationBar *location_ = nullptr;
    QLineEdit *address_ = nullptr;
    QLineEdit *filter_ = nullptr;
    BrowseView *browse_ = nullptr;
    QTabWidget *workspace_ = nullptr;
    BenchPanel *bench_ = nullptr;
    RecentMenu *recentMenu_ = nullptr;
    NameEncodingMenu *encodingMenu_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *counter_ = nullptr;
    std::function<void(const QString &)> openElsewhere_;
    QByteArray nameCharset_; // "" = names as stored
    quint64 generation_ = 0; // a newer open drops results of older ones
    bool opening_ = false;
    WorkerPtr openingWorker_; // the worker of the file being opened
    WorkerPtr worker_; // the open file's
    QString retrySpec_;
    bool keepTreeOnFailure_ = false; // the open running was typed: a failure keeps the tree // what "Try Again" opens
    StallPrompt *stall_ = nullptr;
    bool busyMessage_ = false;
    TraceMenu *traceMenu_ = nullptr;
    Mounts *mounts_ = nullptr;
    ContentSearchPanel *contentSearch_ = nullptr;
};

} // namespace asc::ui
