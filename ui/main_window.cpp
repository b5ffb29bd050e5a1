// SPDX-License-Identifier: MIT
#include "main_window.h"

#include "io/byte_text.h"
#include "io/remove_tree.h"

#include "bench/bench_panel.h"
#include "conflict_question.h"
#include "details_pane.h"
#include "entry_filter_model.h"
#include "entry_tree_model.h"
#include "extract_job.h"
#include "formats/format.h"
#include "hex_view.h"
#include "listing_job.h"
#include "when_finished.h"
#include "units.h"
#include "vfs/path_text.h"
#include "version.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QMimeDatabase>
#include <QPointer>
#include <QProgressBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

// The resources live in a static library: register them before the first use.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace asc::ui {

// Drag-out extracts into a temporary folder before the drop; beyond this it would stall the UI.
static constexpr uint64_t kDragLimit = 256ULL << 20;

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    initResources();
    setAcceptDrops(true);
    setWindowTitle(tr("ArchiveScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/archivescope.svg")));

    model_ = new EntryTreeModel(this);
    proxy_ = new EntryFilterModel(this);
    proxy_->setSourceModel(model_);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    banner_ = new QLabel(central);
    banner_->setWordWrap(true);
    banner_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    banner_->setOpenExternalLinks(false);
    banner_->setAutoFillBackground(true);
    banner_->setForegroundRole(QPalette::HighlightedText);
    banner_->setBackgroundRole(QPalette::Highlight);
    banner_->setMargin(6);
    banner_->hide();
    connect(banner_, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == QLatin1String("#problems"))
            showProblemDetails();
    });

    tree_ = new QTreeView(central);
    tree_->setModel(proxy_);
    tree_->setSortingEnabled(true);
    tree_->sortByColumn(EntryTreeModel::Name, Qt::AscendingOrder);
    tree_->setUniformRowHeights(true); // needed for 100k-row trees to stay fast
    tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree_->setDragEnabled(true);
    tree_->setDragDropMode(QAbstractItemView::DragOnly);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    tree_->header()->resizeSection(EntryTreeModel::Name, 320);
    connect(tree_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::selectionChanged);
    connect(model_, &EntryTreeModel::expansionRequested, this, &MainWindow::expandNested);
    connect(model_, &EntryTreeModel::dragExtractionRequested, this,
            [this](const QList<int32_t> &nodes, QStringList *paths) { *paths = extractForDrag(nodes); }, Qt::DirectConnection);

    details_ = new DetailsPane(central);
    splitter_ = new QSplitter(Qt::Horizontal, central);
    splitter_->addWidget(tree_);
    splitter_->addWidget(details_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    layout->addWidget(banner_);
    layout->addWidget(splitter_, 1);
    setCentralWidget(central);

    bench_ = new BenchPanel(this);
    auto *dock = new QDockWidget(tr("Benchmark"), this);
    dock->setObjectName(QStringLiteral("benchmark"));
    dock->setWidget(bench_);
    addDockWidget(Qt::BottomDockWidgetArea, dock);

    buildToolBar();
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
    splitter_->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
}

MainWindow::~MainWindow()
{
    if (dragDir_)
        removeTree(dragDir_->path());
    stopLoading();
    for (auto *watcher : listings_)
        watcher->waitForFinished();
    if (extraction_) {
        extractionStop_->store(true); // a question waiting for an answer gives up
        extraction_->cancel();
        extraction_->waitForFinished();
    }
}

HexView *MainWindow::hexView() const
{
    return details_->hexView();
}

QString MainWindow::bannerText() const
{
    return banner_->isHidden() ? QString() : banner_->text();
}

void MainWindow::buildToolBar()
{
    QToolBar *bar = addToolBar(tr("Location"));
    bar->setObjectName(QStringLiteral("location"));
    bar->setMovable(false);
    address_ = new QLineEdit(bar);
    address_->setPlaceholderText(tr("File or SPEC (outer!/inner/path) — Enter opens it"));
    address_->setClearButtonEnabled(true);
    connect(address_, &QLineEdit::returnPressed, this, [this] {
        if (!address_->text().trimmed().isEmpty())
            openSpec(address_->text().trimmed());
    });
    filter_ = new QLineEdit(bar);
    filter_->setPlaceholderText(tr("Filter names (text or *.glob)"));
    filter_->setClearButtonEnabled(true);
    filter_->setMaximumWidth(280);
    auto *clearFilter = new QAction(filter_);
    clearFilter->setShortcut(QKeySequence(Qt::Key_Escape));
    clearFilter->setShortcutContext(Qt::WidgetShortcut);
    connect(clearFilter, &QAction::triggered, filter_, &QLineEdit::clear);
    filter_->addAction(clearFilter);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString &text) {
        proxy_->setFilterText(text);
        if (!text.isEmpty()) {
            readRemainingFolders();
            tree_->expandAll();
        }
    });
    stopAction_ = new QAction(QApplication::style()->standardIcon(QStyle::SP_BrowserStop), tr("Stop"), this);
    stopAction_->setToolTip(tr("Stop loading"));
    stopAction_->setEnabled(false);
    connect(stopAction_, &QAction::triggered, this, &MainWindow::stopLoading);
    bar->addWidget(address_);
    bar->addAction(stopAction_);
    bar->addWidget(filter_);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction *extract = file->addAction(tr("&Extract Selected…"), this, &MainWindow::chooseExtractTarget);
    extract->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export &Chart…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), QStringLiteral("throughput.png"), tr("Images (*.png *.svg *.pdf)"));
        if (path.isEmpty())
            return;
        if (auto ok = bench_->exportChart(path); !ok)
            showBanner(ok.error().toString());
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    // A closed dock comes back from here (it was a trap without a View menu).
    if (auto *dock = findChild<QDockWidget *>(QStringLiteral("benchmark"))) {
        QAction *toggle = dock->toggleViewAction();
        toggle->setText(tr("&Benchmark Panel"));
        view->addAction(toggle);
    }
    QAction *statusBarAction = view->addAction(tr("&Status Bar"));
    statusBarAction->setCheckable(true);
    statusBarAction->setChecked(true);
    connect(statusBarAction, &QAction::toggled, this, [this](bool on) { statusBar()->setVisible(on); });
    view->addSeparator();
    QAction *findAction = view->addAction(tr("&Filter Names"), this, [this] {
        filter_->setFocus(Qt::ShortcutFocusReason);
        filter_->selectAll();
    });
    findAction->setShortcut(QKeySequence::Find);
    QAction *locationAction = view->addAction(tr("&Location Bar"), this, [this] {
        address_->setFocus(Qt::ShortcutFocusReason);
        address_->selectAll();
    });
    locationAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    view->addSeparator();
    view->addMenu(buildNameEncodingMenu());

    QMenu *benchmark = menuBar()->addMenu(tr("&Benchmark"));
    // F5 shows the benchmark panel before running: a run is never invisible.
    QAction *runBench = benchmark->addAction(tr("&Run"), this, [this] {
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("benchmark"))) {
            dock->show();
            dock->raise();
        }
        bench_->run();
    });
    runBench->setShortcut(QKeySequence(Qt::Key_F5));
    benchmark->addAction(tr("&Cancel"), bench_, &BenchPanel::cancel);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ArchiveScope"), this, [this] {
        QMessageBox::about(this, tr("About ArchiveScope"),
                           tr("<h3>ArchiveScope %1</h3><p>Browse archives and disk images, and measure how fast "
                              "they read.</p><p>Copyright © 2026 The ArchiveScope developers. Free software under the "
                              "<a href=\"https://opensource.org/license/mit\">MIT licence</a>.</p>"
                              "<p>Homepage: <a href=\"https://github.com/archivescope/archivescope\">"
                              "github.com/archivescope/archivescope</a></p><p>Built with %2.</p>")
                               .arg(programVersion(), libraryVersions().toHtmlEscaped()));
    });
}

// The charsets legacy archives were written in most often (Ark and 7-Zip offer the same kind of list).
QMenu *MainWindow::buildNameEncodingMenu()
{
    auto *menu = new QMenu(tr("Name &Encoding"), this);
    menu->setObjectName(QStringLiteral("nameEncoding"));
    auto *group = new QActionGroup(menu);
    static const std::pair<const char *, const char *> charsets[] = {
        {"", QT_TR_NOOP("As Stored")},
        {"CP437", "DOS Latin US (CP437)"},       {"CP850", "DOS Latin 1 (CP850)"},
        {"CP866", "DOS Cyrillic (CP866)"},       {"CP1250", "Windows Central European (CP1250)"},
        {"CP1251", "Windows Cyrillic (CP1251)"}, {"CP1252", "Windows Western (CP1252)"},
        {"KOI8-R", "Cyrillic (KOI8-R)"},         {"ISO-8859-1", "Western (ISO-8859-1)"},
        {"ISO-8859-2", "Central European (ISO-8859-2)"}, {"SHIFT_JIS", "Japanese (Shift JIS)"},
        {"CP932", "Japanese (CP932)"},           {"EUC-JP", "Japanese (EUC-JP)"},
        {"GBK", "Chinese Simplified (GBK)"},     {"BIG5", "Chinese Traditional (Big5)"},
        {"EUC-KR", "Korean (EUC-KR)"},
    };
    for (const auto &[charset, label] : charsets) {
        QAction *action = menu->addAction(*charset ? QString::fromLatin1(label) : tr(label));
        action->setCheckable(true);
        action->setData(QByteArray(charset));
        action->setChecked(nameCharset_ == QByteArray(charset));
        group->addAction(action);
        const QByteArray chosen(charset);
        connect(action, &QAction::triggered, this, [this, chosen] { setNameCharset(chosen); });
    }
    return menu;
}

void MainWindow::setNameCharset(const QByteArray &charset)
{
    if (charset == nameCharset_)
        return;
    nameCharset_ = charset;
    if (auto *menu = findChild<QMenu *>(QStringLiteral("nameEncoding"))) {
        for (QAction *action : menu->actions())
            action->setChecked(action->data().toByteArray() == charset);
    }
    if (current_)
        openSpec(current_->spec); // names are decoded when the archive is read
}

void MainWindow::noteProblems(const std::vector<Error> &problems)
{
    if (problems.empty())
        return;
    for (const Error &problem : problems) {
        const QString line = pathText(textToBytes(problem.toString()));
        if (!problems_.contains(line))
            problems_ << line;
    }
    const QString file = current_ ? current_->spec : QString();
    showBanner(tr("%1 reading %2 — the tree shows everything that could be read. <a href=\"#problems\">Details…</a><br>%3")
                   .arg(countText(uint64_t(problems_.size()), tr("%n problem"), tr("%n problems")), file.toHtmlEscaped(),
                        problems_.first().toHtmlEscaped()));
}

void MainWindow::showProblemDetails()
{
    QMessageBox box(QMessageBox::Warning, tr("Problems"),
                    countText(uint64_t(problems_.size()), tr("%n problem was reported while reading the file."),
                              tr("%n problems were reported while reading the file.")),
                    QMessageBox::Close, this);
    box.setObjectName(QStringLiteral("problemDetails"));
    box.setDetailedText(problems_.join(QLatin1Char('\n')));
    box.exec();
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recent_.list();
    for (const QString &spec : files)
        recentMenu_->addAction(spec, this, [this, spec] { openSpec(spec); });
    if (files.isEmpty()) {
        recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    } else {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), this, [this] {
            recent_.clear();
            rebuildRecentMenu();
        });
    }
}

void MainWindow::chooseFile()
{
    // Filters from the formats' declared types (the .desktop list comes from the same place).
    QStringList patterns;
    const QMimeDatabase mimes;
    for (const Format &format : registeredFormats()) {
        for (const QString &type : format.mimeTypes)
            patterns << mimes.mimeTypeForName(type).globPatterns();
    }
    patterns.removeDuplicates();
    const QString filters = tr("Archives and disk images (%1)").arg(patterns.join(QLatin1Char(' '))) + QStringLiteral(";;") + tr("All files (*)");
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Archive or Disk Image"), QString(), filters);
    if (!path.isEmpty())
        openSpec(path);
}

void MainWindow::stopLoading()
{
    for (auto *watcher : listings_)
        watcher->cancel();
}

void MainWindow::openSpec(const QString &spec)
{
    stopLoading();
    const quint64 generation = ++generation_;
    opening_ = true;
    address_->setText(spec);
    banner_->hide();
    problems_.clear();
    // A filter belongs to the file it was typed for: the next one starts unfiltered.
    if (!current_ || textToBytes(spec).split('!').first() != textToBytes(current_->spec).split('!').first())
        filter_->clear();
    statusBar()->showMessage(tr("Opening %1…").arg(spec));
    updateStatus();
    QPointer<MainWindow> self(this);
    whenFinished(this, openSpecAsync(spec, nameCharset_), [self, generation, spec](Result<OpenedSpec> result) {
        if (!self || generation != self->generation_)
            return; // a newer open replaced this one
        self->opening_ = false;
        if (result) {
            self->showOpened(std::move(result).value());
        } else {
            self->showError(spec, result.error());
            self->updateStatus();
            Q_EMIT self->opened(spec, false);
        }
    });
}

void MainWindow::showOpened(OpenedSpec opened)
{
    const QString name = QFileInfo(opened.spec.section(QStringLiteral("!/"), 0, 0)).fileName();
    const QString inner = opened.spec.contains(QStringLiteral("!/")) ? QStringLiteral("!/") + opened.spec.section(QStringLiteral("!/"), 1) : QString();
    setWindowTitle(tr("%1 — ArchiveScope").arg(name + inner));
    model_->clear();
    wholeLayers_.clear();
    pendingReveal_.clear();
    claimedFolders_.clear();
    details_->showSource(opened.spec, opened.size, opened.formatName,
                         opened.container ? opened.container->info() : QJsonObject(), opened.head, opened.imageInfo, opened.allocation);
    const std::vector<Error> problems = std::move(opened.problems);
    if (!opened.problem.isEmpty())
        showBanner(opened.problem);
    statusBar()->showMessage(tr("%1: %2 bytes").arg(opened.spec).arg(opened.size));
    recent_.add(opened.spec);
    rebuildRecentMenu();
    const QString spec = opened.spec;
    bench_->setTarget(spec);
    current_ = std::move(opened);
    if (current_->container) {
        const int32_t layer = model_->addLayer(current_->container, current_->location.isDirectory() ? spec.section(QStringLiteral("!/"), 0, -2) : spec);
        if (current_->location.isDirectory())
            pendingReveal_ = current_->location.directory;
        startListing(layer);
    }
    noteProblems(problems);
    updateStatus();
    Q_EMIT this->opened(spec, true);
}

void MainWindow::revealPending()
{
    if (pendingReveal_.isEmpty())
        return;
    const EntryTree &tree = model_->tree();
    int32_t node = EntryTree::kRoot;
    for (const QByteArray &part : pendingReveal_.split('/')) {
        int32_t found = -1;
        for (int row = 0; row < tree.childCount(node) && found < 0; ++row) {
            if (tree.name(tree.child(node, row)) == QByteArrayView(part))
                found = tree.child(node, row);
        }
        if (found < 0)
            return; // not listed yet: the next batch tries again
        node = found;
        if (tree.isDirectoryLike(node))
            tree_->expand(proxy_->mapFromSource(model_->indexOf(node))); // lists it, if read on expansion
    }
    pendingReveal_.clear();
    const QModelIndex index = proxy_->mapFromSource(model_->indexOf(node));
    tree_->setCurrentIndex(index);
    tree_->scrollTo(index);
}

void MainWindow::readRemainingFolders()
{
    const EntryTree &tree = model_->tree();
    for (int32_t layer = 0; layer < tree.layerCount(); ++layer) {
        if (!tree.layer(layer).container->listsFolderByFolder() || wholeLayers_.contains(layer))
            continue;
        wholeLayers_.insert(layer);
        statusBar()->showMessage(tr("Reading every folder of %1 for the filter…").arg(tree.layer(layer).spec));
        startListing(layer, kRestOfLayer);
    }
}

std::vector<Entry> MainWindow::unreadOnly(int32_t layer, std::vector<Entry> entries)
{
    const EntryTree &tree = model_->tree();
    const EntryTree::Layer &l = tree.layer(layer);
    QSet<int32_t> &claimed = claimedFolders_[layer];
    std::vector<Entry> kept;
    for (Entry &entry : entries) {
        const qsizetype slash = entry.path.lastIndexOf('/');
        const int32_t parent = slash < 0 ? l.rootNode : l.directories.value(entry.path.left(slash), -1);
        if (parent >= 0 && !claimed.contains(parent)) {
            if (model_->folderListingStarted(parent))
                continue; // that folder's own listing brings it
            claimed.insert(parent); // this listing brings its children
            model_->markFolderListed(parent);
        }
        kept.push_back(std::move(entry));
    }
    return kept;
}

void MainWindow::startListing(int32_t layer, int32_t folder)
{
    auto *watcher = new QFutureWatcher<ListingBatch>(this);
    listings_ << watcher;
    const quint64 generation = generation_;
    connect(watcher, &QFutureWatcher<ListingBatch>::resultsReadyAt, this, [this, watcher, layer, folder, generation](int first, int last) {
        if (generation != generation_)
            return;
        for (int i = first; i < last; ++i) {
            ListingBatch batch = watcher->resultAt(i);
            if (folder == kRestOfLayer)
                batch.entries = unreadOnly(layer, std::move(batch.entries));
            if (!batch.entries.empty()) {
                model_->appendEntries(layer, std::move(batch.entries));
                // One top folder (the usual tarball): show what is inside it.
                const EntryTree &entries = model_->tree();
                if (layer == 0 && entries.childCount(EntryTree::kRoot) == 1)
                    tree_->expand(proxy_->mapFromSource(model_->indexOf(entries.child(EntryTree::kRoot, 0))));
                revealPending();
            }
            noteProblems(batch.problems);
            if (batch.error)
                showError(model_->tree().layer(layer).spec, *batch.error);
        }
        updateStatus();
    });
    connect(watcher, &QFutureWatcher<ListingBatch>::finished, this, [this, watcher, layer, folder, generation] {
        listings_.removeAll(watcher);
        if (generation == generation_ && folder == kRestOfLayer)
            claimedFolders_.remove(layer);
        if (generation == generation_ && folder == kRestOfLayer && watcher->isCanceled()) {
            wholeLayers_.remove(layer); // typing a filter again reads on
        } else if (generation == generation_ && folder == kRestOfLayer) {
            for (int32_t directory : model_->tree().layer(layer).directories)
                model_->markFolderListed(directory); // empty ones too: nothing left to read
        } else if (generation == generation_ && folder >= 0) {
            model_->markExpanded(folder);
        } else if (generation == generation_ && layer > 0) {
            model_->markExpanded(model_->tree().layer(layer).rootNode);
        }
        if (watcher->isCanceled())
            statusBar()->showMessage(tr("Loading stopped: the tree shows what was read so far."));
        watcher->deleteLater(); // releases the batches the future still holds
        updateStatus();
        if (listings_.isEmpty())
            Q_EMIT listingFinished();
    });
    const ContainerPtr container = model_->tree().layer(layer).container;
    if (folder >= 0) {
        watcher->setFuture(listFolderAsync(container, model_->tree().entry(folder)));
    } else if (container->listsFolderByFolder() && folder != kRestOfLayer) {
        Entry top;
        top.type = EntryType::Dir;
        watcher->setFuture(listFolderAsync(container, top));
    } else {
        watcher->setFuture(listAsync(container));
    }
    updateStatus();
}

void MainWindow::expandNested(int32_t node)
{
    const EntryTree &tree = model_->tree();
    if (tree.type(node) == EntryType::Dir) {
        startListing(tree.layerOf(node), node); // a folder read when expanded
        return;
    }
    const ContainerPtr parent = tree.layer(tree.layerOf(node)).container;
    const QString spec = tree.spec(node);
    const quint64 generation = generation_;
    statusBar()->showMessage(tr("Opening %1…").arg(spec));
    QPointer<MainWindow> self(this);
    whenFinished(this, openNestedAsync(parent, tree.entry(node), nameCharset_), [self, node, spec, generation](Result<ContainerPtr> container) {
        if (!self || generation != self->generation_)
            return;
        if (!container) {
            self->model_->markExpansionFailed(node);
            self->showError(spec, container.error());
            return;
        }
        const int32_t layer = self->model_->addLayer(std::move(container).value(), spec, self->model_->indexOf(node));
        self->startListing(layer);
        if (!self->filter_->text().isEmpty())
            self->readRemainingFolders(); // a filesystem opened while filtering is searched whole too
    });
}

void MainWindow::selectionChanged()
{
    const QModelIndex current = tree_->selectionModel()->currentIndex();
    // The benchmark reads what is selected when it has content (a file, a partition), else the file.
    if (current.isValid()) {
        const int32_t node = model_->nodeOf(proxy_->mapToSource(current));
        const EntryType type = model_->tree().type(node);
        if (type == EntryType::File || type == EntryType::Partition)
            bench_->setTarget(model_->tree().spec(node));
    } else if (current_) {
        bench_->setTarget(current_->spec);
    }
    if (!current.isValid()) {
        if (current_)
            details_->showSource(current_->spec, current_->size, current_->formatName,
                                 current_->container ? current_->container->info() : QJsonObject(), current_->head,
                                 current_->imageInfo, current_->allocation);
        return;
    }
    details_->showNode(model_->tree(), model_->nodeOf(proxy_->mapToSource(current)));
}

void MainWindow::updateStatus()
{
    const bool busy = isBusy();
    stopAction_->setEnabled(!listings_.isEmpty());
    progress_->setVisible(busy || (extraction_ != nullptr));
    const int32_t entries = model_->tree().size() - 1;
    counter_->setText(entries > 0 ? countText(uint64_t(entries), tr("%n entry"), tr("%n entries")) : QString());
}

void MainWindow::showBanner(const QString &text)
{
    banner_->setText(text);
    banner_->show();
}

void MainWindow::showError(const QString &context, const Error &error)
{
    showBanner(error.file.isEmpty() ? context + QStringLiteral(": ") + error.withoutFile() : error.toString());
    statusBar()->showMessage(tr("Problem with %1").arg(context));
}

void MainWindow::chooseExtractTarget()
{
    if (!current_ || !current_->container)
        return;
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Extract To"));
    if (!directory.isEmpty())
        extractSelectedTo(directory);
}

void MainWindow::extractSelectedTo(const QString &directory)
{
    if (extraction_ || !current_ || !current_->container)
        return;
    const EntryTree &tree = model_->tree();
    QList<ExtractRequest> requests;
    for (const QModelIndex &index : tree_->selectionModel()->selectedRows()) {
        const int32_t node = model_->nodeOf(proxy_->mapToSource(index));
        requests << ExtractRequest{tree.layer(tree.layerOf(node)).container, tree.path(node).toByteArray()};
    }
    if (requests.isEmpty())
        requests << ExtractRequest{current_->container, current_->location.isDirectory() ? current_->location.directory : QByteArray()};
    extraction_ = new QFutureWatcher<ExtractSummary>(this);
    connect(extraction_, &QFutureWatcher<ExtractSummary>::progressTextChanged, this,
            [this](const QString &text) { statusBar()->showMessage(tr("Extracting… %1").arg(text)); });
    connect(extraction_, &QFutureWatcher<ExtractSummary>::finished, this, [this] {
        const ExtractSummary summary = extraction_->future().resultCount() ? extraction_->result() : ExtractSummary{};
        extraction_->deleteLater();
        extraction_ = nullptr;
        QString text = describe(summary);
        if (!summary.refusals.isEmpty())
            text += QStringLiteral("\n") + summary.refusals.mid(0, 20).join(QLatin1Char('\n')) +
                    (summary.refusals.size() > 20 ? tr("\n… and %1 more").arg(summary.refusals.size() - 20) : QString());
        if (!summary.refusals.isEmpty() || summary.error)
            showBanner(text);
        statusBar()->showMessage(describe(summary));
        updateStatus();
        Q_EMIT extractionFinished(text);
    });
    ExtractOptions options;
    options.existing = ExistingPolicy::Ask; // names already in the destination: the user decides
    extractionStop_->store(false);
    options.ask = conflictQuestion(QPointer<QWidget>(this), extractionStop_);
    extraction_->setFuture(extractAsync(requests, directory, options));
    updateStatus();
}

QStringList MainWindow::extractForDrag(const QList<int32_t> &nodes)
{
    const EntryTree &tree = model_->tree();
    uint64_t total = 0;
    for (int32_t node : nodes)
        total += tree.contentSize(node) == kUnknown ? 0 : tree.contentSize(node);
    if (total > kDragLimit) {
        statusBar()->showMessage(tr("Too large to drag (%1): use Extract Selected… instead").arg(sizeLabel(total)));
        return {};
    }
    // Removed by bytes: entries dragged out may have names that are not UTF-8 (QDir cannot).
    if (dragDir_)
        removeTree(dragDir_->path());
    dragDir_ = std::make_unique<QTemporaryDir>();
    dragDir_->setAutoRemove(false);
    QStringList paths;
    for (int32_t node : nodes) {
        const auto &layer = tree.layer(tree.layerOf(node));
        auto report = extractEntries(*layer.container, tree.path(node).toByteArray(), dragDir_->path(), ExtractOptions{});
        if (report && report->refused.empty() && !report->stopped)
            paths << dragDir_->filePath(bytesToText(tree.path(node).toByteArray()));
    }
    return paths;
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/splitter"), splitter_->saveState());
    ++generation_; // results still arriving are dropped
    stopLoading();
    bench_->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace asc::ui
