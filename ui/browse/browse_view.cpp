// SPDX-License-Identifier: MIT
#include "browse_view.h"
#include "open/spec.h"

#include "details_pane.h"
#include "entry_extractor.h"
#include "entry_filter_model.h"
#include "entry_menu.h"
#include "entry_tree_model.h"
#include "entry_tree_view.h"
#include "extract_dialog.h"
#include "open/tree_loader.h"
#include "password_prompt.h"
#include "problem_banner.h"
#include "io/units.h"

#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <malloc.h>

namespace asc::ui {

// Drag-out and Open extract into a temporary folder first (on a worker, with progress).
static constexpr uint64_t kDragLimit = 4ULL << 30;

BrowseView::BrowseView(QWidget *parent)
    : QWidget(parent)
{
    loader_ = new TreeLoader(this);
    model_ = new EntryTreeModel(loader_, this);
    proxy_ = new EntryFilterModel(this);
    proxy_->setSourceModel(model_);
    // The view opens the way to the matches once the text is applied (on a big tree a few
    // turns of the event loop after the key).
    // What the last text opened is closed before the next is applied: 101 folders of 10,000
    // rows left open were each filtered again when the proxy dropped its mappings (a 100 ms
    // stall per key). The folders the user opened stay open.
    connect(proxy_, &EntryFilterModel::aboutToApplyFilter, this, [this] {
        for (const QPersistentModelIndex &index : std::as_const(openedByFilter_))
            if (index.isValid())
                tree_->collapse(index);
        openedByFilter_.clear();
    });
    connect(proxy_, &EntryFilterModel::filterApplied, this, [this] {
        if (filtering_)
            scheduleExpandMatches();
    });
    extractor_ = new EntryExtractor(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    banner_ = new ProblemBanner(this);
    tree_ = new EntryTreeView(proxy_, this);
    details_ = new DetailsPane(this);
    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->addWidget(tree_);
    splitter_->addWidget(details_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    layout->addWidget(banner_);
    layout->addWidget(splitter_, 1);
    menu_ = new EntryMenu(tree_, model_, proxy_, extractor_);

    connect(tree_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &BrowseView::selectionChanged);
    // The user scrolled (wheel, keys, bar): the SPEC's entry is no longer held in view.
    connect(tree_->verticalScrollBar(), &QAbstractSlider::actionTriggered, this, [this] { keepInView_ = -1; });
    // A row the filter hides goes without a selection change: the details must not go on
    // showing an entry no longer in view.
    // Checked once the filter's change is complete (its removals come in several steps).
    auto hidden = [this] {
        QTimer::singleShot(0, this, [this] {
            if (shownNode_ > 0 && shownNode_ < model_->tree().size() && !proxy_->mapFromSource(model_->indexOf(shownNode_)).isValid())
                selectionChanged();
        });
    };
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, hidden);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, hidden);
    connect(
        model_, &EntryTreeModel::dragExtractionRequested, this,
        [this](const QList<int32_t> &nodes, QStringList *paths) { *paths = extractForDrag(nodes); }, Qt::DirectConnection);
    connect(menu_, &EntryMenu::previewRequested, this, [this](int32_t node) { preview(node, false); });
    connect(menu_, &EntryMenu::propertiesRequested, this, [this](int32_t node) { preview(node, true); });
    connect(menu_, &EntryMenu::extractRequested, this, &BrowseView::chooseExtraction);
    connect(menu_, &EntryMenu::extractHereRequested, this, [this](const QString &folder) {
        extractor_->extractTo(requestsFor(model_->tree(), selectedNodes()), folder, EntryExtractor::askOptions(), bytesOf(selectedNodes()));
    });
    connect(menu_, &EntryMenu::benchmarkRequested, this, &BrowseView::benchmarkRequested);
    connect(menu_, &EntryMenu::checkRequested, this, &BrowseView::checkRequested);
    connect(menu_, &EntryMenu::message, this, &BrowseView::status);
    connect(extractor_, &EntryExtractor::progress, this, &BrowseView::status);
    connect(extractor_, &EntryExtractor::finished, this, [this](const QString &text, bool failed) {
        if (failed)
            banner_->showMessage(text);
        Q_EMIT status(text.section(QLatin1Char('\n'), 0, 0));
        Q_EMIT busyChanged();
        Q_EMIT extractionFinished(text);
    });
    connectLoader();
    // A tree that goes (another file, a closed one) gives its memory back to the system: a
    // million entries' records left the window 300 MB larger after switching to a small file.
    connect(model_, &QAbstractItemModel::modelReset, this, [] { QTimer::singleShot(0, [] { malloc_trim(0); }); });
}

BrowseView::~BrowseView()
{
    // The models go before the loader they adapt (which then stops and waits for its workers).
    tree_->setModel(nullptr);
    delete proxy_;
    delete model_;
}

void BrowseView::connectLoader()
{
    connect(loader_, &TreeLoader::entriesAdded, this, [this](int32_t layer) {
        // One top folder (the usual tarball): show what is inside it.
        const EntryTree &tree = loader_->tree();
        if (layer == 0 && tree.childCount(EntryTree::kRoot) == 1)
            tree_->expand(proxy_->mapFromSource(model_->indexOf(tree.child(EntryTree::kRoot, 0))));
        if (filtering_)
            scheduleExpandMatches();
        if (keepInView_ >= 0)
            scheduleKeepInView(); // rows sorted above it push it down
        Q_EMIT busyChanged();
    });
    connect(loader_, &TreeLoader::revealStep, this, [this](int32_t node) { tree_->expand(proxy_->mapFromSource(model_->indexOf(node))); });
    connect(loader_, &TreeLoader::revealed, this, [this](int32_t node) {
        const QModelIndex index = proxy_->mapFromSource(model_->indexOf(node));
        tree_->setCurrentIndex(index);
        keepInView_ = node;
        scheduleKeepInView();
        const bool nested = loader_->looksNested(node) || model_->tree().isLayerRoot(node);
        if (std::exchange(previewOnReveal_, false) && model_->tree().type(node) == EntryType::File && !nested)
            preview(node, false);
        if (nested)
            tree_->expand(index); // "pkg.deb!/data.tar.xz" browses into it
    });
    connect(loader_, &TreeLoader::problemsReported, this, [this](const std::vector<Error> &problems) {
        banner_->addProblems(current_ ? current_->inspection.spec : QString(), problems);
    });
    connect(loader_, &TreeLoader::failed, this, [this](const QString &context, const Error &error) { showError(context, error); });
    // An encrypted entry selected: asked once (again when wrong), then read with the answer.
    // Declined, this file's entries are not asked for again until File > Enter Password….
    connect(details_, &DetailsPane::passwordNeeded, this, [this](const QString &spec, const Error &why) {
        if (entryPasswordDeclined_ || askingForEntry_)
            return;
        QMetaObject::invokeMethod(
            this, [this, spec, why, generation = loaderGeneration_] {
                if (generation != loaderGeneration_ || askingForEntry_)
                    return;
                askingForEntry_ = true;
                const bool given = askPasswordFor(this, spec, why);
                askingForEntry_ = false;
                if (given)
                    showCurrentAgain();
                else
                    entryPasswordDeclined_ = true;
            },
            Qt::QueuedConnection);
    });
    connect(loader_, &TreeLoader::passwordNeeded, this, [this](int32_t node, const QString &spec, const Error &error) {
        // Asked once the signal has returned: the dialog runs its own event loop.
        QMetaObject::invokeMethod(
            this, [this, node, spec, error, generation = loaderGeneration_] {
                if (generation != loaderGeneration_)
                    return; // another file is shown now
                if (askPasswordFor(this, spec, error))
                    loader_->retryLocked(node); // opened again with it; a wrong one comes back here
                else
                    showError(spec, error);
            },
            Qt::QueuedConnection);
    });
    connect(loader_, &TreeLoader::busyChanged, this, &BrowseView::busyChanged);
    connect(tree_, &QTreeView::expanded, tree_, &EntryTreeView::scheduleFitNameColumn);
    connect(loader_, &TreeLoader::idle, this, [this](bool stopped) {
        tree_->fitNameColumn();
        if (stopped)
            Q_EMIT status(tr("Loading stopped: the tree shows what was read so far."));
        Q_EMIT busyChanged();
        Q_EMIT listingFinished();
    });
}

bool BrowseView::filterSettling() const
{
    return proxy_->applying() || expandPending_;
}

bool BrowseView::isBusy() const
{
    return loader_->isBusy();
}

bool BrowseView::isExtracting() const
{
    return extractor_->isBusy();
}

void BrowseView::stop()
{
    loader_->stop();
}

void BrowseView::retryLocked()
{
    entryPasswordDeclined_ = false;
    loader_->retryAllLocked();
}

void BrowseView::clear()
{
    ++loaderGeneration_;
    loader_->clear();
}

void BrowseView::show(Inspected opened, const QByteArray &nameCharset, const QList<QByteArray> &reveal)
{
    const Inspection &facts = opened.inspection;
    ++loaderGeneration_;
    entryPasswordDeclined_ = false;
    banner_->reset();
    details_->showSource(facts);
    if (facts.openError)
        banner_->showError(facts.openError->toString());
    else if (!opened.container && !(opened.location.parent && opened.location.entry))
        banner_->showMessage(tr("%1 is not a recognised archive or disk image — the details show its bytes.").arg(facts.spec.toHtmlEscaped()));
    current_ = std::move(opened);
    loader_->setNameCharset(nameCharset);
    // The SPEC named an entry: preview it once the tree shows it, as 7-Zip's address bar does.
    previewOnReveal_ = !reveal.isEmpty();
    const Location &location = current_->location;
    if (current_->container) {
        const bool directory = location.isDirectory();
        const QString spec = current_->inspection.spec;
        QList<QByteArray> path = reveal;
        if (directory)
            path.prepend(location.directory);
        loader_->load(current_->container, directory ? parentSpec(spec) : spec, path);
    } else if (location.parent && location.entry) {
        QList<QByteArray> path = reveal;
        path.prepend(location.entry->path);
        previewOnReveal_ = true;
        loader_->load(location.parent, parentSpec(current_->inspection.spec), path);
    } else {
        loader_->clear();
    }
    banner_->addProblems(current_->inspection.spec, current_->inspection.problems);
}

void BrowseView::setFilter(const QString &text, int nestedDepth)
{
    filtering_ = !text.isEmpty();
    proxy_->setFilterText(text);
    if (!filtering_) {
        loader_->stopReadingEverything();
        return;
    }
    // The filter searches the whole tree, not only what was expanded so far: the loader reads
    // it (nested archives only as deep as asked), and the view opens what matched.
    loader_->readEverything(nestedDepth);
}

void BrowseView::scheduleKeepInView()
{
    if (keepInViewPending_)
        return;
    keepInViewPending_ = true;
    // Centred once the rows above it are laid out (a scroll now would use stale geometry).
    QTimer::singleShot(0, tree_, [this] {
        keepInViewPending_ = false;
        if (keepInView_ < 0)
            return;
        const QModelIndex index = proxy_->mapFromSource(model_->indexOf(keepInView_));
        if (index.isValid() && index == tree_->currentIndex())
            tree_->scrollTo(index, QAbstractItemView::PositionAtCenter);
        if (index != tree_->currentIndex() || !loader_->isBusy())
            keepInView_ = -1; // the user went elsewhere, or nothing more arrives
    });
}

void BrowseView::scheduleExpandMatches()
{
    if (expandPending_)
        return;
    expandPending_ = true;
    QTimer::singleShot(0, this, [this] {
        expandPending_ = false;
        if (filtering_)
            expandMatches();
    });
}

void BrowseView::expandMatches()
{
    // The way to the first matches is opened, not every folder that holds one: a filter matching
    // a million names opened every folder of the tree (and the view laid them all out) for 90 s.
    // Folders on the way hold rows loaded already: expanding them reads nothing, and a row that
    // is an unread nested archive or filesystem is left closed (expanding would open it).
    // A few folders per turn of the event loop: opening 90 folders of 10,000 rows at once (each
    // filtered and sorted) held the window for over 100 ms.
    std::vector<int32_t> chain;
    int opened = 0;
    bool more = false;
    for (int32_t match : proxy_->firstMatches(kExpandedMatches)) {
        chain.clear();
        for (int32_t up = model_->tree().parent(match); up > 0; up = model_->tree().parent(up))
            chain.push_back(up);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const QModelIndex index = proxy_->mapFromSource(model_->indexOf(*it));
            if (!index.isValid() || tree_->isExpanded(index))
                continue;
            if (proxy_->canFetchMore(index))
                break;
            if (opened == kFoldersPerPass) {
                more = true;
                break;
            }
            tree_->expand(index);
            openedByFilter_ << QPersistentModelIndex(index);
            ++opened;
        }
        if (more)
            break;
    }
    expandedByFilter_ += opened;
    if (more)
        scheduleExpandMatches();
    tree_->scheduleFitNameColumn();
}

void BrowseView::selectionChanged()
{
    const QModelIndex current = tree_->selectionModel()->currentIndex();
    shownNode_ = current.isValid() ? model_->nodeOf(proxy_->mapToSource(current)) : -1;
    if (shownNode_ > 0 && !proxy_->mapFromSource(model_->indexOf(shownNode_)).isValid())
        shownNode_ = -1; // the current index outlived its row
    if (shownNode_ <= 0) {
        if (current_) {
            Q_EMIT targetChanged(current_->inspection.spec, qint64(current_->inspection.size));
            details_->showSource(current_->inspection);
        }
        return;
    }
    const int32_t node = shownNode_;
    const EntryType type = model_->tree().type(node);
    if (type == EntryType::File || type == EntryType::Partition)
        Q_EMIT targetChanged(model_->tree().spec(node), qint64(model_->tree().contentSize(node)));
    details_->showNode(model_->tree(), node);
}

void BrowseView::preview(int32_t node, bool properties)
{
    const QModelIndex index = proxy_->mapFromSource(model_->indexOf(node));
    if (tree_->currentIndex() != index)
        tree_->setCurrentIndex(index);
    if (properties)
        details_->setFocus(Qt::OtherFocusReason);
    else
        details_->requestPreview();
}

QList<int32_t> BrowseView::selectedNodes() const
{
    return menu_->selectedNodes();
}

uint64_t BrowseView::bytesOf(const QList<int32_t> &nodes) const
{
    uint64_t total = 0;
    for (int32_t node : nodes)
        total += model_->tree().contentSize(node) == kUnknown ? 0 : model_->tree().contentSize(node);
    return total;
}

void BrowseView::extractSelectedTo(const QString &directory)
{
    if (extractor_->isBusy() || !current_ || !current_->container)
        return;
    QList<ExtractRequest> requests = requestsFor(model_->tree(), selectedNodes());
    if (requests.isEmpty())
        requests << ExtractRequest{current_->container, current_->location.isDirectory() ? current_->location.directory : QByteArray()};
    extractor_->extractTo(std::move(requests), directory, EntryExtractor::askOptions(), bytesOf(selectedNodes()));
    Q_EMIT busyChanged();
}

void BrowseView::chooseExtraction()
{
    if (extractor_->isBusy() || !current_ || !current_->container)
        return;
    const QList<int32_t> nodes = selectedNodes();
    ExtractDialog dialog(int(nodes.size()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ExtractChoice choice = dialog.choice();
    QList<ExtractRequest> requests;
    if (choice.everything || nodes.isEmpty())
        requests << ExtractRequest{current_->container, current_->location.isDirectory() ? current_->location.directory : QByteArray()};
    else
        requests = requestsFor(model_->tree(), nodes);
    extractor_->extractTo(std::move(requests), choice.directory, choice.options, choice.everything ? 0 : bytesOf(nodes), choice.openWhenDone);
    Q_EMIT busyChanged();
}

QStringList BrowseView::extractForDrag(const QList<int32_t> &nodes)
{
    const uint64_t total = bytesOf(nodes);
    if (total > kDragLimit) {
        Q_EMIT status(tr("Too large to drag (%1): use Extract… instead").arg(sizeLabel(total)));
        return {};
    }
    return extractor_->extractForDrag(requestsFor(model_->tree(), nodes), total);
}

void BrowseView::showFailedOpen(const QString &spec, const Error &error)
{
    ++loaderGeneration_;
    // The window shows the file that failed, not the previous one under a banner: no tree, no
    // details of another file.
    loader_->clear();
    current_.reset();
    banner_->reset();
    Inspection failed;
    failed.spec = spec;
    failed.failed = error;
    details_->showSource(failed);
    banner_->showFailure(error.file.isEmpty() ? spec + QStringLiteral(": ") + error.withoutFile() : error.toString(), true);
    Q_EMIT status(tr("Could not open %1").arg(spec));
}

void BrowseView::showError(const QString &context, const Error &error, bool workerEnded)
{
    // The open file's worker process ended (a crash, its memory limit, Stop): what is shown stays,
    // nothing more can be read from it until the file is opened again.
    if (current_ && current_->container)
        workerEnded = workerEnded || !current_->container->reachable();
    banner_->showFailure(error.file.isEmpty() ? context + QStringLiteral(": ") + error.withoutFile() : error.toString(), workerEnded);
    Q_EMIT status(tr("Problem with %1").arg(context));
}

bool BrowseView::selectSpec(const QString &spec)
{
    const SpecParts parts = splitSpec(spec);
    if (parts.inner.isEmpty())
        return false;
    const EntryTree &tree = model_->tree();
    const QByteArray last = parts.inner.last();
    for (int32_t node = 1; node < tree.size(); ++node) {
        if (tree.path(node) != QByteArrayView(last) || tree.spec(node) != spec)
            continue;
        const QModelIndex index = proxy_->mapFromSource(model_->indexOf(node));
        if (!index.isValid())
            return false; // filtered out
        for (QModelIndex up = index.parent(); up.isValid(); up = up.parent())
            tree_->expand(up);
        tree_->setCurrentIndex(index);
        tree_->scrollTo(index);
        return true;
    }
    return false;
}

} // namespace asc::ui
