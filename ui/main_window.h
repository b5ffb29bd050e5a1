// SPDX-License-Identifier: MIT
#pragma once
// The main window: address bar, filter, the entry tree (loaded by a TreeLoader off the UI
// thread), details and hex view, the benchmark dock, status bar with progress and Stop. Widgets
// and wiring only: opening goes through the facade, listing through the loader, extraction
// through the EntryExtractor. Files open from the command line, the Open dialog, Open Recent,
// and by dropping them on the window.

#include "open/inspection.h"
#include "details_pane.h"
#include "open/tree_loader.h"
#include "problem_banner.h"

#include <QMainWindow>
#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSplitter;
class QTreeView;

namespace asc::ui {

class BenchPanel;
class EntryExtractor;
class EntryFilterModel;
class EntryTreeModel;
class HexView;
class LocationBar;
class NameEncodingMenu;
class RecentMenu;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Starts opening a SPEC (file path, optionally with !/ parts) on a worker thread.
    void openSpec(const QString &spec);
    QString currentSpec() const { return current_ ? current_->inspection.spec : QString(); }
    quint64 currentSize() const { return current_ ? current_->inspection.size : 0; }
    bool isBusy() const { return opening_ || loader_->isBusy(); }
    HexView *hexView() const { return details_->hexView(); }
    EntryTreeModel *model() const { return model_; }
    EntryFilterModel *proxy() const { return proxy_; }
    QTreeView *treeView() const { return tree_; }
    DetailsPane *detailsPane() const { return details_; }
    QLineEdit *filterEdit() const { return filter_; }
    BenchPanel *benchPanel() const { return bench_; }
    QString bannerText() const { return banner_->message(); }
    // Problems reported while reading the open file (damaged headers skipped, unreadable entries).
    QStringList problems() const { return banner_->problems(); }
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
    void connectLoader();
    void showOpened(Inspected opened);
    void showError(const QString &context, const Error &error);
    void chooseFile();
    void chooseExtractTarget();
    void filterChanged(const QString &text);
    void selectionChanged();
    void updateStatus();
    QStringList extractForDrag(const QList<int32_t> &nodes);

    LocationBar *location_ = nullptr;
    QLineEdit *address_ = nullptr;
    QLineEdit *filter_ = nullptr;
    ProblemBanner *banner_ = nullptr;
    QTreeView *tree_ = nullptr;
    DetailsPane *details_ = nullptr;
    QSplitter *splitter_ = nullptr;
    BenchPanel *bench_ = nullptr;
    RecentMenu *recentMenu_ = nullptr;
    NameEncodingMenu *encodingMenu_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *counter_ = nullptr;
    TreeLoader *loader_ = nullptr;
    EntryTreeModel *model_ = nullptr;
    EntryFilterModel *proxy_ = nullptr;
    EntryExtractor *extractor_ = nullptr;
    std::optional<Inspected> current_;
    std::function<void(const QString &)> openElsewhere_;
    QByteArray nameCharset_; // "" = names as stored
    quint64 generation_ = 0; // a newer open drops results of older ones
    bool opening_ = false;
};

} // namespace asc::ui
