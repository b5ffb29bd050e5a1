// SPDX-License-Identifier: MIT
#include "main_window.h"

#include "about_dialog.h"
#include "bench/bench_panel.h"
#include "details_pane.h"
#include "entry_extractor.h"
#include "entry_filter_model.h"
#include "entry_tree_model.h"
#include "entry_tree_view.h"
#include "open/catalog.h"
#include "io/byte_text.h"
#include "location_bar.h"
#include "name_encoding_menu.h"
#include "open/tree_loader.h"
#include "open_job.h"
#include "problem_banner.h"
#include "recent_menu.h"
#include "units.h"
#include "view_menu.h"
#include "when_finished.h"

#include <QCloseEvent>
#include <QDockWidget>
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
#include <QVBoxLayout>

// The resources live in a static library: register them before the first use.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace asc::ui {

// Drag-out extracts into a temporary folder before the drop (on a worker, with progress).
static constexpr uint64_t kDragLimit = 4ULL << 30;

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    initResources();
    setAcceptDrops(true);
    setWindowTitle(tr("ArchiveScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/archivescope.svg")));

    loader_ = new TreeLoader(this);
    model_ = new EntryTreeModel(loader_, this);
    proxy_ = new EntryFilterModel(this);
    proxy_->setSourceModel(model_);
    extractor_ = new EntryExtractor(this);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    banner_ = new ProblemBanner(central);
    tree_ = new EntryTreeView(proxy_, central);
    connect(tree_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::selectionChanged);
    connect(
        model_, &EntryTreeModel::dragExtractionRequested, this,
        [this](const QList<int32_t> &nodes, QStringList *paths) { *paths = extractForDrag(nodes); }, Qt::DirectConnection);
    connectLoader();

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
    connect(extractor_, &EntryExtractor::progress, this, [this](const QString &text) { statusBar()->showMessage(text); });
    connect(extractor_, &EntryExtractor::finished, this, [this](const QString &text, bool failed) {
        if (failed)
            banner_->showMessage(text);
        statusBar()->showMessage(text.section(QLatin1Char('\n'), 0, 0));
        updateStatus();
        Q_EMIT extractionFinished(text);
    });

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1200, 780);
    splitter_->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
}

MainWindow::~MainWindow()
{
    // The models go before the loader they adapt (which then stops and waits for its workers).
    tree_->setModel(nullptr);
    delete proxy_;
    delete model_;
}

void MainWindow::connectLoader()
{
    connect(loader_, &TreeLoader::entriesAdded, this, [this](int32_t layer) {
        // One top folder (the usual tarball): show what is inside it.
        const EntryTree &tree = loader_->tree();
        if (layer == 0 && tree.childCount(EntryTree::kRoot) == 1)
            tree_->expand(proxy_->mapFromSource(model_->indexOf(tree.child(EntryTree::kRoot, 0))));
        if (!filter_->text().isEmpty())
            tree_->expandAll();
        updateStatus();
    });
    connect(loader_, &TreeLoader::revealStep, this, [this](int32_t node) { tree_->expand(proxy_->mapFromSource(model_->indexOf(node))); });
    connect(loader_, &TreeLoader::revealed, this, [this](int32_t node) {
        const QModelIndex index = proxy_->mapFromSource(model_->indexOf(node));
        tree_->setCurrentIndex(index);
        tree_->scrollTo(index);
    });
    connect(loader_, &TreeLoader::problemsReported, this,
            [this](const std::vector<Error> &problems) { banner_->addProblems(currentSpec(), problems); });
    connect(loader_, &TreeLoader::failed, this, &MainWindow::showError);
    connect(loader_, &TreeLoader::busyChanged, this, &MainWindow::updateStatus);
    connect(loader_, &TreeLoader::idle, this, [this](bool stopped) {
        if (stopped)
            statusBar()->showMessage(tr("Loading stopped: the tree shows what was read so far."));
        updateStatus();
        Q_EMIT listingFinished();
    });
}

void MainWindow::buildToolBar()
{
    location_ = new LocationBar(this);
    addToolBar(location_);
    address_ = location_->address();
    filter_ = location_->filter();
    connect(location_, &LocationBar::specEntered, this, &MainWindow::openSpec);
    connect(location_, &LocationBar::filterChanged, this, &MainWindow::filterChanged);
    connect(location_, &LocationBar::stopRequested, this, &MainWindow::stopLoading);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseFile);
    recentMenu_ = new RecentMenu(this);
    file->addMenu(recentMenu_);
    connect(recentMenu_, &RecentMenu::chosen, this, &MainWindow::openSpec);
    file->addSeparator();
    file->addAction(tr("&Extract Selected…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::chooseExtractTarget);
    file->addAction(tr("Export &Chart…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), QStringLiteral("throughput.png"), tr("Images (*.png *.svg *.pdf)"));
        if (auto ok = path.isEmpty() ? Result<void>() : bench_->exportChart(path); !ok)
            banner_->showMessage(ok.error().toString());
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto *dock = findChild<QDockWidget *>(QStringLiteral("benchmark"));
    auto *view = new ViewMenu(dock, statusBar(), location_, this);
    menuBar()->addMenu(view);
    connect(view, &ViewMenu::filterDepthChanged, this, [this] { filterChanged(filter_->text()); });
    encodingMenu_ = view->nameEncoding();
    connect(encodingMenu_, &NameEncodingMenu::chosen, this, &MainWindow::setNameCharset);

    QMenu *benchmark = menuBar()->addMenu(tr("&Benchmark"));
    // F5 shows the benchmark panel before running: a run is never invisible.
    benchmark->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, [this, dock] {
        dock->show();
        dock->raise();
        bench_->run();
    });
    benchmark->addAction(tr("&Cancel"), bench_, &BenchPanel::cancel);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ArchiveScope"), this, [this] { showAbout(this); });
}

void MainWindow::setNameCharset(const QByteArray &charset)
{
    if (charset == nameCharset_)
        return;
    nameCharset_ = charset;
    encodingMenu_->setCurrent(charset);
    if (current_)
        openSpec(current_->inspection.spec); // names are decoded when the archive is read
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

void MainWindow::stopLoading()
{
    loader_->stop();
}

void MainWindow::filterChanged(const QString &text)
{
    proxy_->setFilterText(text);
    if (text.isEmpty()) {
        loader_->stopReadingEverything();
    } else {
        // The filter searches the whole tree, not only what was expanded so far.
        loader_->readEverything(ViewMenu::filterDepth());
        tree_->expandAll();
    }
    updateStatus();
}

void MainWindow::openSpec(const QString &spec)
{
    const quint64 generation = ++generation_;
    opening_ = true;
    loader_->clear(); // stops what the old file still reads
    address_->setText(spec);
    banner_->reset();
    // A filter belongs to the file it was typed for: the next one starts unfiltered.
    if (!current_ || textToBytes(spec).split('!').first() != textToBytes(current_->inspection.spec).split('!').first())
        filter_->clear();
    statusBar()->showMessage(tr("Opening %1…").arg(spec));
    updateStatus();
    QPointer<MainWindow> self(this);
    whenFinished(this, openSpecAsync(spec, nameCharset_), [self, generation, spec](Result<Inspected> result) {
        if (!self || generation != self->generation_)
            return; // a newer open replaced this one
        self->opening_ = false;
        if (result) {
            self->showOpened(std::move(result).value());
            return;
        }
        self->showError(spec, result.error());
        self->updateStatus();
        Q_EMIT self->opened(spec, false);
    });
}

void MainWindow::showOpened(Inspected opened)
{
    const Inspection &facts = opened.inspection;
    const QString spec = facts.spec;
    setWindowTitle(tr("%1 — ArchiveScope").arg(QFileInfo(spec.section(QStringLiteral("!/"), 0, 0)).fileName() + (spec.contains(QStringLiteral("!/")) ? QStringLiteral("!/") + spec.section(QStringLiteral("!/"), 1) : QString())));
    details_->showSource(facts);
    if (facts.openError)
        banner_->showMessage(facts.openError->toString());
    statusBar()->showMessage(tr("%1: %2 bytes").arg(spec).arg(facts.size));
    recentMenu_->add(spec);
    bench_->setTarget(spec);
    current_ = std::move(opened);
    loader_->setNameCharset(nameCharset_);
    if (current_->container) {
        const bool directory = current_->location.isDirectory();
        loader_->load(current_->container, directory ? spec.section(QStringLiteral("!/"), 0, -2) : spec,
                      directory ? current_->location.directory : QByteArray());
        if (!filter_->text().isEmpty())
            filterChanged(filter_->text());
    }
    banner_->addProblems(spec, current_->inspection.problems);
    updateStatus();
    Q_EMIT this->opened(spec, true);
}

void MainWindow::selectionChanged()
{
    const QModelIndex current = tree_->selectionModel()->currentIndex();
    if (!current.isValid()) {
        if (current_) {
            bench_->setTarget(current_->inspection.spec);
            details_->showSource(current_->inspection);
        }
        return;
    }
    // The benchmark reads what is selected when it has content (a file, a partition), else the file.
    const int32_t node = model_->nodeOf(proxy_->mapToSource(current));
    const EntryType type = model_->tree().type(node);
    if (type == EntryType::File || type == EntryType::Partition)
        bench_->setTarget(model_->tree().spec(node));
    details_->showNode(model_->tree(), node);
}

void MainWindow::updateStatus()
{
    location_->stopAction()->setEnabled(loader_->isBusy());
    progress_->setVisible(isBusy() || extractor_->isBusy());
    const int32_t entries = model_->tree().size() - 1;
    QString count = entries > 0 ? countText(uint64_t(entries), tr("%n entry"), tr("%n entries")) : QString();
    // The filter says when nothing matches, and that it is still searching while it reads.
    if (!filter_->text().isEmpty() && current_)
        count = proxy_->rowCount() > 0 ? tr("filtered: %1").arg(count)
                : loader_->isBusy()    ? tr("searching %1…").arg(count)
                                       : tr("no matches in %1").arg(count);
    counter_->setText(count);
}

void MainWindow::showError(const QString &context, const Error &error)
{
    banner_->showMessage(error.file.isEmpty() ? context + QStringLiteral(": ") + error.withoutFile() : error.toString());
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
    if (extractor_->isBusy() || !current_ || !current_->container)
        return;
    QList<int32_t> nodes;
    for (const QModelIndex &index : tree_->selectionModel()->selectedRows())
        nodes << model_->nodeOf(proxy_->mapToSource(index));
    QList<ExtractRequest> requests = requestsFor(model_->tree(), nodes);
    if (requests.isEmpty())
        requests << ExtractRequest{current_->container, current_->location.isDirectory() ? current_->location.directory : QByteArray()};
    extractor_->extractTo(std::move(requests), directory);
    updateStatus();
}

QStringList MainWindow::extractForDrag(const QList<int32_t> &nodes)
{
    uint64_t total = 0;
    for (int32_t node : nodes)
        total += model_->tree().contentSize(node) == kUnknown ? 0 : model_->tree().contentSize(node);
    if (total > kDragLimit) {
        statusBar()->showMessage(tr("Too large to drag (%1): use Extract Selected… instead").arg(sizeLabel(total)));
        return {};
    }
    return extractor_->extractForDrag(requestsFor(model_->tree(), nodes), total);
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
    ++generation_; // an open still running is dropped
    loader_->clear();
    bench_->cancel();
    QMainWindow::closeEvent(event);
}

} // namespace asc::ui
