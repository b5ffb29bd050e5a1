// SPDX-License-Identifier: MIT
#include "main_window.h"
#include "check/check_dialog.h"
#include "mounts.h"
#include "search/content_search_panel.h"
#include "open/spec.h"

#include "about_dialog.h"
#include "bench/bench_panel.h"
#include "benchmark_chart.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "browse/entry_tree_view.h"
#include "browse/extract_job.h"
#include "io/byte_text.h"
#include "location_bar.h"
#include "name_encoding_menu.h"
#include "open/catalog.h"
#include "open_job.h"
#include "recent_menu.h"
#include "password_prompt.h"
#include "stall_prompt.h"
#include "io/units.h"
#include "trace/trace_menu.h"
#include "view_menu.h"
#include "when_finished.h"

#include <QCloseEvent>
#include <QDesktopServices>
#include <QDockWidget>
#include <QKeyEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

// The resources live in a static library: register them before the first use.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace asc::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    initResources();
    setAcceptDrops(true);
    setWindowTitle(tr("ArchiveScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/archivescope.svg")));
    // Where the keyboard is must be seen at a glance: the list that has focus gets a frame in the
    // highlight colour (the styles' own cue for item views is a faint dotted line, or nothing).
    setStyleSheet(QStringLiteral("QAbstractItemView:focus { border: 2px solid palette(highlight); }"));

    // Two workspaces: inspecting gets the whole window; benchmarking is one click (or F5) away.
    workspace_ = new QTabWidget(this);
    workspace_->setObjectName(QStringLiteral("workspace"));
    workspace_->setDocumentMode(true);
    browse_ = new BrowseView(workspace_);
    bench_ = new BenchPanel(workspace_);
    workspace_->addTab(browse_, tr("&Browse"));
    workspace_->addTab(bench_, tr("Bench&mark"));
    // Above both workspaces: the question about a worker that stopped making progress.
    stall_ = new StallPrompt(this);
    stall_->setPromptSeconds(sandbox().promptSeconds);
    stall_->setWorkers([this] { return QList<WorkerPtr>{openingWorker_, worker_}; });
    auto *central = new QWidget(this);
    auto *column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(stall_);
    column->addWidget(workspace_, 1);
    setCentralWidget(central);
    connect(browse_->banner(), &ProblemBanner::retryRequested, this, [this] { openSpec(retrySpec_); });
    connect(browse_, &BrowseView::status, this, [this](const QString &text) { statusBar()->showMessage(text); });
    connect(browse_, &BrowseView::busyChanged, this, &MainWindow::updateStatus);
    connect(browse_, &BrowseView::listingFinished, this, &MainWindow::listingFinished);
    connect(browse_, &BrowseView::extractionFinished, this, &MainWindow::extractionFinished);
    connect(browse_, &BrowseView::targetChanged, bench_, &BenchPanel::setTarget);
    connect(browse_, &BrowseView::checkRequested, this, &MainWindow::check);
    connect(browse_, &BrowseView::benchmarkRequested, this, [this](const QString &spec, qint64 bytes) {
        bench_->setTarget(spec, bytes);
        workspace_->setCurrentWidget(bench_);
    });

    location_ = new LocationBar(this);
    addToolBar(location_);
    address_ = location_->address();
    filter_ = location_->filter();
    // The window's shortcuts that a line edit would take for its own editing keys (Ctrl+E moves to
    // the end of the line in a QLineEdit): the window's action wins in the location bar too.
    address_->installEventFilter(this);
    filter_->installEventFilter(this);
    connect(location_, &LocationBar::downFromFilter, this, [this] {
        // Down from the filter goes to its results: the first one, if nothing is selected.
        QTreeView *tree = treeView();
        tree->setFocus(Qt::ShortcutFocusReason);
        if (!tree->currentIndex().isValid() && proxy()->rowCount() > 0)
            tree->setCurrentIndex(proxy()->index(0, 0));
    });
    connect(location_, &LocationBar::specEntered, this, &MainWindow::openTypedSpec);
    // Tab from the filter goes to its results, not to the workspace's tab bar.
    QWidget::setTabOrder(filter_, treeView());
    connect(location_, &LocationBar::filterChanged, this, &MainWindow::filterChanged);
    connect(location_, &LocationBar::stopRequested, this, &MainWindow::stopLoading);
    buildMenus();
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(160);
    progress_->setRange(0, 0);
    progress_->hide();
    counter_ = new QLabel(this);
    statusBar()->addPermanentWidget(counter_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->showMessage(tr("Open a file with File > Open, or drop it on the window."));

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1200, 780);
    browse_->splitter()->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
}

MainWindow::~MainWindow() = default;

QTreeView *MainWindow::treeView() const
{
    return browse_->tree();
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseFile);
    recentMenu_ = new RecentMenu(this);
    file->addMenu(recentMenu_);
    connect(recentMenu_, &RecentMenu::chosen, this, &MainWindow::openSpec);
    file->addSeparator();
    QAction *extract = file->addAction(tr("&Extract…"), QKeySequence(Qt::CTRL | Qt::Key_E), browse_, &BrowseView::chooseExtraction);
    extract->setObjectName(QStringLiteral("extractAction"));
    QAction *password = file->addAction(tr("Enter &Password…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this, [this] {
        if (askArchivePassword(this, QFileInfo(splitSpec(currentSpec()).file).fileName())) {
            browse_->showCurrentAgain(); // the entry shown is read again, now with it
            browse_->retryLocked(); // and the volumes that asked for one are opened again
        }
    });
    password->setObjectName(QStringLiteral("enterPassword"));
    // Read-only FUSE mounts of the open file, in processes of their own (ui/mounts.h).
    mounts_ = new Mounts(this);
    QAction *mount = file->addAction(tr("&Mount…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Mount %1 at (an empty folder)").arg(QFileInfo(splitSpec(currentSpec()).file).fileName()));
        if (!dir.isEmpty())
            mountAt(dir);
    });
    mount->setObjectName(QStringLiteral("mountAction"));
    QAction *unmount = file->addAction(tr("&Unmount All"), mounts_, &Mounts::unmountAll);
    unmount->setObjectName(QStringLiteral("unmountAction"));
    connect(mounts_, &Mounts::mountedAt, this, [this](const QString &spec, const QString &dir) {
        statusBar()->showMessage(tr("%1 is mounted read-only at %2 (File > Unmount All, or closing the window, unmounts it)").arg(spec, dir));
    });
    connect(mounts_, &Mounts::failed, this, [this](const QString &spec, const QString &why) {
        browse_->banner()->showMessage(tr("Cannot mount %1: %2").arg(spec, why));
    });
    // Test and Checksums of the whole open file (an entry's are in its context menu).
    QAction *test = file->addAction(tr("&Test"), QKeySequence(Qt::CTRL | Qt::Key_T), this, [this] { check(currentSpec(), false); });
    test->setObjectName(QStringLiteral("testAction"));
    QAction *sums = file->addAction(tr("Check&sums…"), this, [this] { check(currentSpec(), true); });
    sums->setObjectName(QStringLiteral("checksumsAction"));
    QAction *exportChart = file->addAction(tr("Export &Chart…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), QStringLiteral("throughput.png"), tr("Images (*.png *.svg *.pdf)"));
        if (auto ok = path.isEmpty() ? Result<void>() : bench_->exportChart(path); !ok)
            browse_->banner()->showMessage(ok.error().toString());
    });
    exportChart->setObjectName(QStringLiteral("exportChartAction"));
    // Only what can be done now: nothing to extract with no file open, no chart before a run.
    auto updateFileMenu = [this, extract, exportChart, mount, unmount, test, sums] {
        extract->setEnabled(browse_->current() && model()->tree().size() > 1);
        test->setEnabled(browse_->current().has_value());
        sums->setEnabled(browse_->current().has_value());
        mount->setEnabled(browse_->current() && browse_->current()->inspection.isContainer());
        unmount->setEnabled(!mounts_->mounted().isEmpty());
        exportChart->setEnabled(!bench_->chart()->isEmpty());
    };
    connect(file, &QMenu::aboutToShow, this, updateFileMenu);
    connect(this, &MainWindow::opened, this, updateFileMenu);
    connect(this, &MainWindow::listingFinished, this, updateFileMenu);
    connect(bench_, &BenchPanel::runFinished, this, updateFileMenu);
    connect(mounts_, &Mounts::changed, this, updateFileMenu);
    updateFileMenu();
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto *view = new ViewMenu(workspace_, statusBar(), location_, this);
    menuBar()->addMenu(view);
    connect(view, &ViewMenu::filterDepthChanged, this, [this] { filterChanged(filter_->text()); });
    connect(view, &ViewMenu::layoutResetRequested, this, [this] {
        QSplitter *splitter = browse_->splitter();
        splitter->setSizes({splitter->width() * 3 / 5, splitter->width() * 2 / 5});
        workspace_->setCurrentIndex(0);
    });
    encodingMenu_ = view->nameEncoding();
    connect(encodingMenu_, &NameEncodingMenu::chosen, this, &MainWindow::setNameCharset);

    QMenu *benchmark = menuBar()->addMenu(tr("&Benchmark"));
    // F5 shows the benchmark workspace before running: a run is never invisible.
    benchmark->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, [this] {
        workspace_->setCurrentWidget(bench_);
        bench_->run();
    });
    benchmark->addAction(tr("&Cancel"), bench_, &BenchPanel::cancel);

    traceMenu_ = new TraceMenu(this);
    menuBar()->addMenu(traceMenu_);
    // Find in Contents: a panel under the workspace, shown when asked for.
    contentSearch_ = new ContentSearchPanel(this);
    auto *searchDock = new QDockWidget(tr("Find in Contents"), this);
    searchDock->setObjectName(QStringLiteral("contentSearchDock"));
    searchDock->setWidget(contentSearch_);
    searchDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    addDockWidget(Qt::BottomDockWidgetArea, searchDock);
    searchDock->hide();
    traceMenu_->addSeparator();
    QAction *find = traceMenu_->addAction(tr("&Find in Contents…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), this, [this, searchDock] {
        workspace_->setCurrentWidget(browse_);
        searchDock->show();
        contentSearch_->focusPattern();
    });
    find->setObjectName(QStringLiteral("findInContentsAction"));
    find->setShortcutContext(Qt::WindowShortcut);
    connect(this, &MainWindow::opened, this, [this](const QString &, bool ok) {
        if (ok)
            contentSearch_->setTarget(browse_->current() && browse_->current()->inspection.isContainer() ? currentSpec() : QString());
    });
    connect(contentSearch_, &ContentSearchPanel::showMatch, this, &MainWindow::showMatch);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    // Without a browser launcher the link would silently do nothing: the window shows it instead.
    auto openLink = [this](const QString &url) {
        if (!QDesktopServices::openUrl(QUrl(url)))
            browse_->banner()->showMessage(tr("No web browser could be started (is xdg-open installed?): the page is %1").arg(url));
    };
    help->addAction(tr("&Manual (README)"), this, [openLink] { openLink(QStringLiteral("https://github.com/archivescope/archivescope#readme")); });
    help->addAction(tr("&Report a Problem…"), this, [openLink] { openLink(QStringLiteral("https://github.com/archivescope/archivescope/issues/new")); });
    help->addSeparator();
    help->addAction(tr("&About ArchiveScope"), this, [this] { showAbout(this); });
}

void MainWindow::setNameCharset(const QByteArray &charset)
{
    if (charset == nameCharset_)
        return;
    nameCharset_ = charset;
    encodingMenu_->setCurrent(charset);
    if (browse_->current())
        openSpec(currentSpec()); // names are decoded when the archive is read
}

void MainWindow::chooseFile()
{
    // The formats' declared suffixes (the .desktop list comes from their MIME types).
    const QString filters = tr("Archives and disk images (%1)").arg(openableNameGlobs().join(QLatin1Char(' '))) +
                            QStringLiteral(";;") + tr("All files (*)");
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Archive or Disk Image"), QString(), filters);
    if (!path.isEmpty())
        openSpec(path);
}

void MainWindow::filterChanged(const QString &text)
{
    browse_->setFilter(text, ViewMenu::filterDepth());
    if (!text.isEmpty() && browse_->isBusy())
        showBusyMessage(tr("Searching every folder of %1 for “%2”…").arg(currentSpec(), text));
    updateStatus();
}

void MainWindow::openTypedSpec(const QString &spec)
{
    openSpec(spec);
    keepTreeOnFailure_ = true; // after openSpec, which starts every open afresh
}

void MainWindow::openSpec(const QString &given)
{
    keepTreeOnFailure_ = false;
    // The file by its absolute path: a file named relative to the folder the window was started
    // in must still open from Open Recent, and title, location and details name it fully.
    SpecParts absolute = splitSpec(given);
    const bool relative = !absolute.file.isEmpty() && QFileInfo(absolute.file).isRelative();
    absolute.file = QFileInfo(absolute.file).absoluteFilePath();
    const QString spec = relative ? joinSpec(absolute) : given;
    const quint64 generation = ++generation_;
    opening_ = true;
    browse_->stop(); // the old file's tree stays until the new one opens (a failed open keeps it)
    address_->setText(spec);
    // A filter belongs to the file it was typed for: the next one starts unfiltered. A SPEC that
    // names an entry clears it too: the filter would hide the row the SPEC is opened to.
    if (!browse_->current() || splitSpec(spec).file != splitSpec(currentSpec()).file || !splitSpec(spec).inner.isEmpty())
        filter_->clear();
    showBusyMessage(tr("Opening %1…").arg(spec));
    updateStatus();
    retrySpec_ = spec;
    QPointer<MainWindow> self(this);
    // The file is opened, and the tree opens its way to the SPEC's inner parts: the entries beside
    // them stay reachable ("pkg.deb!/data.tar.xz!/usr" keeps control.tar.xz), and nothing is
    // decoded twice (resolving the SPEC first read a nested archive once to find the path, then
    // again to list it).
    const QList<QByteArray> reveal = splitSpec(spec).inner;
    whenFinished(this, openSpecAsync(splitSpec(spec).file, nameCharset_, &openingWorker_), [self, generation, spec, reveal](Result<Inspected> result) {
        if (!self || generation != self->generation_)
            return; // a newer open replaced this one
        self->opening_ = false;
        WorkerPtr worker = std::exchange(self->openingWorker_, nullptr);
        const bool keepTree = std::exchange(self->keepTreeOnFailure_, false);
        if (!result && keepTree && self->browse_->current()) {
            // Typed into the location bar: the open tree stays, the banner says what is wrong and
            // the location keeps the text to correct.
            self->browse_->banner()->showError(tr("Cannot open %1: %2").arg(spec, result.error().toString()));
            self->address_->setText(spec);
            self->updateStatus();
            Q_EMIT self->opened(spec, false);
            return;
        }
        if (!result) {
            // The window now shows the file that failed (title, location, error), not the
            // previous file's tree under a banner; the location keeps what was asked, to correct.
            self->worker_.reset();
            self->browse_->showFailedOpen(spec, result.error());
            self->setWindowTitle(tr("%1 — ArchiveScope").arg(QFileInfo(splitSpec(spec).file).fileName()));
            self->address_->setText(spec);
            self->updateStatus();
            Q_EMIT self->opened(spec, false);
            return;
        }
        // The file's name, then the path inside it: "backup.tar.gz!/src/BUILD".
        SpecParts parts = splitSpec(spec);
        parts.file = QFileInfo(parts.file).fileName();
        self->setWindowTitle(tr("%1 — ArchiveScope").arg(joinSpec(parts)));
        self->recentMenu_->add(splitSpec(spec).file); // one entry per file, whatever was opened inside it
        self->bench_->setTarget(result.value().inspection.spec, qint64(result.value().inspection.size));
        self->worker_ = worker;
        const std::optional<Error> locked = result->inspection.openError && result->inspection.openError->kind == ErrorKind::Password
                                                ? result->inspection.openError
                                                : std::nullopt;
        self->browse_->show(std::move(result).value(), self->nameCharset_, reveal);
        if (!self->filter_->text().isEmpty())
            self->filterChanged(self->filter_->text());
        self->updateStatus();
        Q_EMIT self->opened(spec, true);
        if (locked) {
            // An encrypted volume opened as the file (a LUKS image): asked, then opened again with
            // it; a wrong password comes back here and says so.
            QMetaObject::invokeMethod(
                self, [self, spec, error = *locked, generation] {
                    if (self && generation == self->generation_ && askPasswordFor(self, spec, error))
                        self->openSpec(spec);
                },
                Qt::QueuedConnection);
        }
    });
}

void MainWindow::stopLoading()
{
    if (opening_ && openingWorker_)
        openingWorker_->stop();
    browse_->stop();
}

void MainWindow::showBusyMessage(const QString &text)
{
    statusBar()->showMessage(text);
    busyMessage_ = true;
}

void MainWindow::updateStatus()
{
    // "Opening…" and "Searching…" end with the work they describe.
    if (busyMessage_ && !isBusy()) {
        busyMessage_ = false;
        statusBar()->showMessage(browse_->current() ? tr("%1: %2").arg(currentSpec(), sizeLabel(currentSize())) : QString());
    }
    location_->stopAction()->setEnabled(isBusy()); // while opening too: Stop then ends the worker
    progress_->setVisible(isBusy() || browse_->isExtracting());
    const int32_t entries = model()->tree().size() - 1;
    // While the next file opens, the old count would read as the new file's.
    QString count = entries > 0 && !opening_ ? countText(uint64_t(entries), tr("%n entry"), tr("%n entries")) : QString();
    // The filter says when nothing matches, and that it is still searching while it reads.
    if (!filter_->text().isEmpty() && browse_->current()) {
        const uint64_t matches = proxy()->matchCount();
        const QString found = countText(matches, tr("%n match"), tr("%n matches"));
        count = matches == 0        ? (browse_->isBusy() ? tr("searching %1…").arg(count) : tr("no matches in %1").arg(count))
                : browse_->isBusy() ? tr("filtered: %1 so far in %2, searching…").arg(found, count)
                                    : tr("filtered: %1 in %2").arg(found, count);
    }
    counter_->setText(count);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() && event->source() == nullptr)
        event->acceptProposedAction();
}

void MainWindow::openFiles(const QStringList &specs)
{
    if (specs.isEmpty())
        return;
    // A file given on the command line or dropped is there to be browsed, whichever workspace
    // the window was last closed on.
    workspace_->setCurrentIndex(0);
    openSpec(specs.first());
    for (qsizetype i = 1; i < specs.size() && openElsewhere_; ++i)
        openElsewhere_(specs[i]);
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList files;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    if (files.isEmpty())
        return;
    openFiles(files); // the first here, the others in windows of their own
    event->acceptProposedAction();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // A line edit claims its editing keys before the shortcut map sees them (on X11, Ctrl+E is
    // end-of-line): in the location and filter fields, the window's own actions win.
    if (event->type() == QEvent::ShortcutOverride && (watched == address_ || watched == filter_)) {
        const QKeySequence pressed(static_cast<QKeyEvent *>(event)->keyCombination());
        const QList<QAction *> actions = findChildren<QAction *>();
        for (const QAction *action : actions) {
            if (action->isEnabled() && action->shortcutContext() != Qt::WidgetShortcut && action->shortcuts().contains(pressed)) {
                event->ignore(); // not the line edit's: the shortcut map goes on to the action
                return true;
            }
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showMatch(const QString &spec, qint64 line)
{
    workspace_->setCurrentWidget(browse_);
    // In the tree already (the file's own entries, or a nested archive opened in place): selected
    // there; else opened with the way to it.
    if (!browse_->selectSpec(spec)) {
        filter_->clear();
        if (!browse_->selectSpec(spec)) {
            openSpec(spec);
            browse_->details()->highlightLine(line);
            return;
        }
    }
    browse_->details()->highlightLine(line);
}

void MainWindow::check(const QString &spec, bool checksums)
{
    if (spec.isEmpty())
        return;
    auto *dialog = new CheckDialog(spec, checksums ? CheckDialog::Mode::Checksums : CheckDialog::Mode::Test, this);
    dialog->show();
}

void MainWindow::mountAt(const QString &dir)
{
    if (browse_->current())
        mounts_->mount(currentSpec(), dir);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    mounts_->unmountAll();
    contentSearch_->stop();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/splitter"), browse_->splitter()->saveState());
    ++generation_; // an open still running is dropped
    browse_->clear();
    bench_->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace asc::ui
