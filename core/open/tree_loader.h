// SPDX-License-Identifier: MIT
#pragma once
// What the GUI shows as a tree, loaded off the UI thread: the open file's container as the top
// layer, folders read when expanded (filesystems, pxar), nested containers (partitions, archives
// in archives) opened in place, and for the filter "read everything not read yet". Owns the
// EntryTree, the listings (batches, generations: results of an older file are dropped),
// cancellation, and which node has been expanded, is being read, or failed.
// Qt Core only: the item model adapts it for views; tests drive it without widgets.

#include "io/cancel.h"
#include "vfs/entry_tree.h"

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QSet>
#include <deque>
#include <vector>

namespace asc {

struct ListingBatch;

class TreeLoader : public QObject {
    Q_OBJECT
public:
    // How the item model hears of changes (it turns them into its own signals).
    struct Observer {
        std::function<void()> beginReset;
        std::function<void()> endReset;
        EntryTree::Observer rows;
    };

    explicit TreeLoader(QObject *parent = nullptr);
    ~TreeLoader() override; // stops and waits for its workers

    void setObserver(Observer observer) { observer_ = std::move(observer); }
    const EntryTree &tree() const { return tree_; }

    // Drops the tree and every listing still running (their results are ignored).
    void clear();
    // A new file: clear(), then `container` as the top layer named `spec`, listed (whole, or its
    // top folder when read folder by folder). With `reveal` (a SPEC's inner parts: a path in the
    // top layer, then one in each nested container, "data.tar.xz" then "usr/share/doc") the tree
    // is expanded down to that node as it arrives (revealStep; nested containers on the way are
    // opened in place, so the file's other entries stay reachable), then `revealed`. A path not
    // there once its listings ended is `failed` with NotFound.
    void load(ContainerPtr container, const QString &spec, const QList<QByteArray> &reveal = {});
    // Names of nested containers opened from now on are decoded from this charset.
    void setNameCharset(const QByteArray &charset) { nameCharset_ = charset; }

    // Whether `node` may be expanded although no children are listed yet: a partition, a file
    // whose name suggests an archive or image, or a folder read on expansion; and it has not
    // been listed completely nor failed.
    bool canExpand(int32_t node) const;
    bool looksNested(int32_t node) const;
    bool expansionStarted(int32_t node) const { return stateOf(node) != NodeState::Unread; }
    bool expansionFailed(int32_t node) const { return stateOf(node) == NodeState::Failed; }
    // Lists a folder read on expansion, or opens a nested container and lists it.
    void expand(int32_t node);
    // Opens again, now that a password may have been given, a node whose open needed one (or
    // every such node).
    void retryLocked(int32_t node);
    void retryAllLocked();

    // For the filter: reads every folder not read yet and opens every partition and nested
    // container up to `nestedDepth` containers below the file (and keeps doing so for what
    // arrives) until stop() or clear().
    void readEverything(int nestedDepth);
    // The filter was cleared: what runs goes on, nothing new is started for it.
    void stopReadingEverything();
    bool readingEverything() const { return everything_; }
    // Work counters for tests: nodes the filter's reading looked at (linear in the entries, not a
    // rescan of the tree per batch), and the most nested opens the filter had running at once.
    uint64_t nodesExamined() const { return nodesExamined_; }
    // The most listed entries put into the tree in one turn of the event loop (for tests).
    size_t largestAppend() const { return largestAppend_; }
    static constexpr size_t kAppendPerTurn = 8192; // listed entries put into the tree per turn
    int mostFilterOpensAtOnce() const { return mostFilterOpens_; }
    // Stops every listing (within one read: the request reaches the I/O).
    void stop();
    bool isBusy() const
    {
        return !listings_.isEmpty() || opening_ > 0 || (everything_ && (!filterQueue_.empty() || examinedUpTo_ < tree_.size()));
    }

Q_SIGNALS:
    void entriesAdded(int32_t layer);
    void revealStep(int32_t node); // the view should expand this folder on the way to `reveal`
    void revealed(int32_t node); // the folder given to load() is in the tree
    void problemsReported(const std::vector<Error> &problems);
    void failed(const QString &context, const Error &error);
    // A nested open the user asked for failed for want of a password (a LUKS volume): the node
    // is Locked until retryLocked.
    void passwordNeeded(int32_t node, const QString &spec, const Error &error);
    void busyChanged();
    // No listing runs any more; `stopped` when the last one was stopped.
    void idle(bool stopped);

private:
    // Where the expansion of a node stands: a folder read on expansion, a partition, a nested
    // container.
    enum class NodeState : uint8_t {
        Unread, // nothing asked yet (or asked and stopped: expanding again tries again)
        Reading, // its listing or nested open runs
        Read, // listed completely (or its children come with a whole-layer listing)
        Failed, // its nested open failed: no expander any more
        Locked, // its nested open needs a password: no expander until retried with one (retryLocked)
    };
    NodeState stateOf(int32_t node) const { return node >= 0 && size_t(node) < state_.size() ? state_[size_t(node)] : NodeState::Unread; }
    void setState(int32_t node, NodeState state);
    static constexpr int32_t kRestOfLayer = -2; // `folder` for readRest's listing
    void startListing(int32_t layer, int32_t folder = -1);
    void readRest(int32_t layer);
    void openNested(int32_t node, bool forFilter);
    void expandEverything();
    void openNextQueued(); // the filter's nested opens run one at a time
    // Of a batch of a whole layer's entries, those whose folder has no listing of its own.
    std::vector<Entry> unreadOnly(int32_t layer, std::vector<Entry> entries);
    void revealPending();
    void revealNotFound(); // the listings on the way to `reveal` ended without it
    int depthOf(int32_t layer) const;
    void finishedOne(bool stopped);

    EntryTree tree_;
    Observer observer_;
    QList<QFutureWatcher<ListingBatch> *> listings_;
    std::vector<NodeState> state_; // by node
    QSet<int32_t> wholeLayers_; // layers read folder by folder whose rest is read (or being read)
    QHash<int32_t, QSet<int32_t>> claimed_; // per layer: folders whose children its rest listing brings
    QList<QByteArray> pendingReveal_; // per layer, as load() got it
    QByteArray nameCharset_;
    CancelFlag cancel_; // for nested opens; replaced on clear()
    quint64 generation_ = 0;
    int opening_ = 0;
    int nestedDepth_ = 0;
    bool everything_ = false;
    int32_t examinedUpTo_ = 1; // the filter's reading has looked at nodes below this one
    static constexpr int32_t kExamineSlice = 1 << 14; // nodes looked at per turn of the event loop
    bool examineScheduled_ = false;
    int32_t layersExamined_ = 0; // ... and at these first layers
    std::deque<int32_t> filterQueue_; // nested containers the filter opens, in tree order
    int filterOpens_ = 0; // running
    int mostFilterOpens_ = 0;
    uint64_t nodesExamined_ = 0;
    size_t largestAppend_ = 0;
};

} // namespace asc
