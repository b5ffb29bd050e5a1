// SPDX-License-Identifier: MIT
#include "tree_loader.h"

#include <QTimer>
#include <deque>
#include <functional>
#include <memory>
#include <utility>

#include "formats/format.h"
#include "open/listing.h"
#include "open/spec.h"

namespace asc {

TreeLoader::TreeLoader(QObject *parent)
    : QObject(parent)
{
}

TreeLoader::~TreeLoader()
{
    stop();
    for (auto *watcher : listings_)
        watcher->waitForFinished();
    for (auto *watcher : findChildren<QFutureWatcher<Result<ContainerPtr>> *>())
        watcher->waitForFinished();
}

void TreeLoader::clear()
{
    ++generation_; // results still arriving belong to the old tree
    stop();
    if (observer_.beginReset)
        observer_.beginReset();
    tree_.clear();
    state_.clear();
    filterQueue_.clear();
    filterOpens_ = 0;
    examinedUpTo_ = 1;
    layersExamined_ = 0;
    wholeLayers_.clear();
    claimed_.clear();
    pendingReveal_.clear();
    opening_ = 0;
    if (observer_.endReset)
        observer_.endReset();
    Q_EMIT busyChanged();
}

void TreeLoader::load(ContainerPtr container, const QString &spec, const QList<QByteArray> &reveal)
{
    clear();
    const int32_t layer = tree_.addLayer(std::move(container), spec, EntryTree::kRoot);
    pendingReveal_ = reveal;
    startListing(layer);
}

void TreeLoader::setState(int32_t node, NodeState state)
{
    if (size_t(node) >= state_.size())
        state_.resize(std::max(size_t(node) + 1, size_t(tree_.size())), NodeState::Unread);
    state_[size_t(node)] = state;
}

void TreeLoader::stop()
{
    everything_ = false;
    filterQueue_.clear();
    for (auto *watcher : listings_)
        watcher->cancel();
    cancel_.cancel();
    cancel_ = CancelFlag(); // opens started later are not stopped by this
}

bool TreeLoader::looksNested(int32_t node) const
{
    if (stateOf(node) == NodeState::Failed)
        return false;
    if (tree_.type(node) == EntryType::Partition)
        return !tree_.opaque(node); // a partition is opened to see what it holds (not an extended one)
    return tree_.type(node) == EntryType::File && nameSuggestsContainer(tree_.name(node));
}

bool TreeLoader::canExpand(int32_t node) const
{
    const NodeState state = stateOf(node);
    if (node == EntryTree::kRoot || state == NodeState::Read || state == NodeState::Failed || tree_.childCount(node) > 0)
        return false;
    if (looksNested(node))
        return true;
    // Synthesised folders (implied by a path) have nothing to read; layer roots are listed on opening.
    return tree_.type(node) == EntryType::Dir && !tree_.synthesized(node) && !tree_.isLayerRoot(node) &&
           tree_.layer(tree_.layerOf(node)).container->listsFolderByFolder();
}

void TreeLoader::expand(int32_t node)
{
    if (stateOf(node) != NodeState::Unread || !canExpand(node))
        return;
    setState(node, NodeState::Reading);
    if (tree_.type(node) == EntryType::Dir)
        startListing(tree_.layerOf(node), node);
    else
        openNested(node, false);
}

void TreeLoader::retryLocked(int32_t node)
{
    if (stateOf(node) != NodeState::Locked)
        return;
    setState(node, NodeState::Unread);
    expand(node);
    if (observer_.rows.changed)
        observer_.rows.changed(node); // its expander comes back while it opens
}

void TreeLoader::retryAllLocked()
{
    for (size_t node = 0; node < state_.size(); ++node)
        if (state_[node] == NodeState::Locked)
            retryLocked(int32_t(node));
}

void TreeLoader::openNested(int32_t node, bool forFilter)
{
    const ContainerPtr parent = tree_.layer(tree_.layerOf(node)).container;
    const QString spec = tree_.spec(node);
    const quint64 generation = generation_;
    ++opening_;
    Q_EMIT busyChanged();
    auto *watcher = new QFutureWatcher<Result<ContainerPtr>>(this);
    connect(watcher, &QFutureWatcher<Result<ContainerPtr>>::finished, this, [this, watcher, node, spec, generation, forFilter] {
        watcher->deleteLater();
        if (generation != generation_)
            return; // a newer file replaced this tree
        --opening_;
        if (forFilter) {
            --filterOpens_;
            // The next one starts once this one's outcome is in the tree (below).
            QMetaObject::invokeMethod(
                this, [this, generation] {
                    if (generation == generation_)
                        openNextQueued();
                },
                Qt::QueuedConnection);
        }
        Result<ContainerPtr> container = watcher->result();
        if (!container) {
            const bool stopped = container.error().kind == ErrorKind::Cancelled;
            if (stopped) {
                setState(node, NodeState::Unread); // stopped, not broken: expanding again tries again
            } else if (container.error().kind == ErrorKind::Password) {
                // Not broken: with a password it opens. Not Unread either: the view would fetch it
                // again at once, and ask again, for ever.
                setState(node, NodeState::Locked);
                if (!forFilter) // the filter's own opens never ask
                    Q_EMIT passwordNeeded(node, spec, container.error());
            } else {
                setState(node, NodeState::Failed);
                Q_EMIT failed(spec, container.error());
            }
            if (observer_.rows.changed)
                observer_.rows.changed(node); // the expander goes away, or comes back
            finishedOne(stopped);
            return;
        }
        startListing(tree_.addLayer(std::move(container).value(), spec, node));
        finishedOne(false);
    });
    watcher->setFuture(openNestedAsync(parent, tree_.entry(node), nameCharset_, cancel_));
}

void TreeLoader::readEverything(int nestedDepth)
{
    // Each key typed into the filter asks again: a search already running at this depth goes on
    // from where it is (starting it over examined every node of a million-entry tree per key).
    if (everything_ && nestedDepth == nestedDepth_) {
        expandEverything();
        return;
    }
    everything_ = true;
    nestedDepth_ = nestedDepth;
    // Looked at again from the start: the depth may be new, and what a stop left unread is
    // unread again.
    examinedUpTo_ = 1;
    layersExamined_ = 0;
    filterQueue_.clear();
    expandEverything();
}

void TreeLoader::stopReadingEverything()
{
    everything_ = false;
    filterQueue_.clear(); // what runs goes on; nothing queued starts
}

int TreeLoader::depthOf(int32_t layer) const
{
    // Archives and images inside files count; partitions and filesystems are part of their disk.
    int depth = 0;
    for (int32_t node = tree_.layer(layer).rootNode; node != EntryTree::kRoot; node = tree_.layer(tree_.layerOf(node)).rootNode) {
        if (tree_.type(node) == EntryType::File)
            ++depth;
    }
    return depth;
}

void TreeLoader::expandEverything()
{
    if (!everything_)
        return;
    // Only what arrived since the last look: each batch costs its own entries, not the tree's.
    for (; layersExamined_ < tree_.layerCount(); ++layersExamined_) {
        const int32_t layer = layersExamined_;
        if (tree_.layer(layer).container->listsFolderByFolder() && !wholeLayers_.contains(layer))
            readRest(layer);
    }
    // A slice at a time from the event loop: looking at a million names at once held the window
    // for 400 ms on the first key typed into the filter.
    const int32_t sliceEnd = std::min(tree_.size(), examinedUpTo_ + kExamineSlice);
    for (; examinedUpTo_ < sliceEnd; ++examinedUpTo_) {
        const int32_t node = examinedUpTo_;
        ++nodesExamined_;
        if (stateOf(node) != NodeState::Unread || !looksNested(node) || !canExpand(node))
            continue;
        if (tree_.type(node) != EntryType::File)
            expand(node); // a partition: part of its disk, opened at once
        else if (depthOf(tree_.layerOf(node)) < nestedDepth_)
            filterQueue_.push_back(node);
    }
    if (examinedUpTo_ < tree_.size() && !examineScheduled_) {
        examineScheduled_ = true;
        QTimer::singleShot(0, this, [this] {
            examineScheduled_ = false;
            const bool wasBusy = isBusy();
            expandEverything();
            if (wasBusy && !isBusy())
                finishedOne(false);
        });
    }
    openNextQueued();
}

void TreeLoader::openNextQueued()
{
    // One nested open at a time per file: each may decode its container from the start, and a
    // thousand at once would fill the pool and the worker's queue ahead of the user's own clicks.
    bool skipped = false;
    while (everything_ && filterOpens_ == 0 && !filterQueue_.empty()) {
        const int32_t node = filterQueue_.front();
        filterQueue_.pop_front();
        if (stateOf(node) != NodeState::Unread || !canExpand(node)) {
            skipped = true;
            continue;
        }
        setState(node, NodeState::Reading);
        ++filterOpens_;
        mostFilterOpens_ = std::max(mostFilterOpens_, filterOpens_);
        openNested(node, true);
    }
    if (skipped && !isBusy())
        finishedOne(false); // the queue ended on nodes already read: nothing runs any more
}

void TreeLoader::readRest(int32_t layer)
{
    wholeLayers_.insert(layer);
    startListing(layer, kRestOfLayer);
}

std::vector<Entry> TreeLoader::unreadOnly(int32_t layer, std::vector<Entry> entries)
{
    const EntryTree::Layer &l = tree_.layer(layer);
    QSet<int32_t> &claimed = claimed_[layer];
    std::vector<Entry> kept;
    for (Entry &entry : entries) {
        const qsizetype slash = entry.path.lastIndexOf('/');
        const int32_t parent = slash < 0 ? l.rootNode : l.directories.value(entry.path.left(slash), -1);
        if (parent >= 0 && !claimed.contains(parent)) {
            const bool ownListing = parent == EntryTree::kRoot || tree_.isLayerRoot(parent) || stateOf(parent) != NodeState::Unread;
            if (ownListing)
                continue; // that folder's own listing brings it
            claimed.insert(parent); // this listing brings its children
            setState(parent, NodeState::Read);
        }
        kept.push_back(std::move(entry));
    }
    return kept;
}

void TreeLoader::revealPending()
{
    if (pendingReveal_.isEmpty())
        return;
    int32_t node = EntryTree::kRoot;
    for (qsizetype part = 0; part < pendingReveal_.size(); ++part) {
        if (part > 0) {
            // A nested container on the way: opened in place, so what is beside it stays in the tree.
            if (!tree_.isLayerRoot(node)) {
                const EntryType type = tree_.type(node);
                if (stateOf(node) == NodeState::Unread && (type == EntryType::File || type == EntryType::Partition)) {
                    setState(node, NodeState::Reading);
                    openNested(node, false); // whatever its name says: the SPEC says it is a container
                } else if (stateOf(node) == NodeState::Failed) {
                    pendingReveal_.clear(); // its failure was reported: "not found" would say less
                }
                return; // its listing calls again
            }
            Q_EMIT revealStep(node);
        }
        for (const QByteArray &name : pendingReveal_[part].split('/')) {
            if (name.isEmpty())
                continue;
            int32_t found = -1;
            for (int row = 0; row < tree_.childCount(node) && found < 0; ++row) {
                if (tree_.name(tree_.child(node, row)) == QByteArrayView(name))
                    found = tree_.child(node, row);
            }
            if (found < 0)
                return; // not listed yet: the next batch tries again
            node = found;
            if (tree_.isDirectoryLike(node)) {
                expand(node); // a folder read on expansion is read now, with or without a view
                Q_EMIT revealStep(node); // the view expands it
            }
        }
    }
    pendingReveal_.clear();
    Q_EMIT revealed(node);
}

void TreeLoader::revealNotFound()
{
    SpecParts wanted{tree_.layer(0).spec, pendingReveal_};
    pendingReveal_.clear();
    Q_EMIT failed(joinSpec(wanted), Error::make(ErrorKind::NotFound, joinSpec(wanted), QStringLiteral("no such entry")));
}

void TreeLoader::startListing(int32_t layer, int32_t folder)
{
    auto *watcher = new QFutureWatcher<ListingBatch>(this);
    listings_ << watcher;
    const quint64 generation = generation_;
    // Batches go into the tree kAppendPerTurn entries per turn of the event loop: a batch of a
    // hundred thousand names (or several delivered at once) appended in one go held the window
    // for over a second while the view sorted them in.
    struct Drain {
        std::deque<ListingBatch> batches;
        size_t offset = 0; // entries of the front batch already appended
        bool scheduled = false;
        bool pumping = false; // a nested event loop (a question asked while appending) must not re-enter
        std::function<void()> pump;
        std::function<void()> onEnd; // the listing's end, once every batch is in
    };
    auto drain = std::make_shared<Drain>();
    Drain *d = drain.get();
    d->pump = [this, d, drain = std::weak_ptr<Drain>(drain), layer, generation] {
        if (d->pumping)
            return; // the running pump goes on with what arrived
        d->scheduled = false;
        d->pumping = true;
        if (generation != generation_)
            d->batches.clear();
        size_t budget = kAppendPerTurn;
        while (!d->batches.empty() && budget > 0) {
            ListingBatch &front = d->batches.front();
            const size_t take = std::min(budget, front.entries.size() - d->offset);
            std::vector<Entry> chunk;
            if (d->offset == 0 && take == front.entries.size())
                chunk = std::move(front.entries);
            else
                chunk.assign(std::make_move_iterator(front.entries.begin() + qsizetype(d->offset)),
                             std::make_move_iterator(front.entries.begin() + qsizetype(d->offset + take)));
            d->offset += take;
            budget -= take;
            largestAppend_ = std::max(largestAppend_, kAppendPerTurn - budget);
            if (!chunk.empty()) {
                tree_.append(layer, std::move(chunk), observer_.rows);
                Q_EMIT entriesAdded(layer);
                revealPending();
                expandEverything(); // what arrived may hold more to read for the filter
            }
            if (d->offset < front.entries.size() && !front.entries.empty() && take > 0)
                continue;
            if (!front.problems.empty())
                Q_EMIT problemsReported(front.problems);
            if (front.error)
                Q_EMIT failed(tree_.layer(layer).spec, *front.error);
            d->batches.pop_front();
            d->offset = 0;
        }
        d->pumping = false;
        if (!d->batches.empty()) {
            if (!d->scheduled) {
                d->scheduled = true;
                QTimer::singleShot(0, this, [keep = drain.lock()] {
                    if (keep)
                        keep->pump();
                });
            }
            return;
        }
        if (d->onEnd)
            std::exchange(d->onEnd, nullptr)();
    };
    connect(watcher, &QFutureWatcher<ListingBatch>::resultsReadyAt, this, [this, watcher, layer, folder, generation, drain](int first, int last) {
        if (generation != generation_)
            return;
        for (int i = first; i < last; ++i) {
            ListingBatch batch = watcher->resultAt(i);
            if (folder == kRestOfLayer)
                batch.entries = unreadOnly(layer, std::move(batch.entries));
            drain->batches.push_back(std::move(batch));
        }
        if (!drain->scheduled)
            drain->pump();
    });
    connect(watcher, &QFutureWatcher<ListingBatch>::finished, this, [this, watcher, layer, folder, generation, drain] {
        auto end = [this, watcher, layer, folder, generation] {
            listings_.removeAll(watcher);
            watcher->deleteLater(); // releases the batches the future still holds
            const bool stopped = watcher->isCanceled();
            if (generation == generation_) {
                if (folder == kRestOfLayer) {
                    claimed_.remove(layer);
                    if (stopped) {
                        wholeLayers_.remove(layer); // reading everything again reads on
                    } else {
                        for (int32_t directory : tree_.layer(layer).directories)
                            setState(directory, NodeState::Read); // empty ones too: nothing left to read
                    }
                } else if (folder >= 0) {
                    setState(folder, NodeState::Read);
                } else if (layer > 0) {
                    setState(tree_.layer(layer).rootNode, NodeState::Read);
                }
            }
            finishedOne(stopped);
        };
        if (drain->batches.empty())
            end();
        else
            drain->onEnd = end;
    });
    const ContainerPtr container = tree_.layer(layer).container;
    if (folder >= 0) {
        watcher->setFuture(listFolderAsync(container, tree_.entry(folder)));
    } else if (container->listsFolderByFolder() && folder != kRestOfLayer) {
        Entry top;
        top.type = EntryType::Dir;
        watcher->setFuture(listFolderAsync(container, top));
    } else {
        watcher->setFuture(listAsync(container));
    }
    Q_EMIT busyChanged();
}

void TreeLoader::finishedOne(bool stopped)
{
    Q_EMIT busyChanged();
    if (isBusy())
        return;
    if (!pendingReveal_.isEmpty()) {
        revealPending(); // may start the next nested open on the way
        if (isBusy())
            return;
        if (stopped)
            pendingReveal_.clear(); // stopped on the way: nothing to say
        else if (!pendingReveal_.isEmpty())
            revealNotFound();
    }
    Q_EMIT idle(stopped);
}

} // namespace asc
