// SPDX-License-Identifier: MIT
#pragma once
// The container tree as compact records: one node per entry (directories implied by deeper paths
// get a synthesised entry), children as index vectors, no QObjects; about 100 bytes per entry plus
// its path. Nested archives are "layers": a file node can hold the tree of the container it opens as.
// Not thread safe: built and read on one thread (the UI thread, from batches a worker produced).

#include "container.h"

#include <QHash>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace asc {

class EntryTree {
public:
    static constexpr int32_t kRoot = 0;

    struct Layer {
        ContainerPtr container;
        QString spec; // SPEC of the container's bytes ("a.iso", "a.iso!/b.zip")
        int32_t rootNode = kRoot; // node the layer's entries hang under
        QHash<QByteArray, int32_t> directories;
    };

    // Callbacks the model turns into beginInsertRows/endInsertRows/dataChanged.
    struct Observer {
        std::function<void(int32_t parent, int first, int last)> beginInsert;
        std::function<void()> endInsert;
        std::function<void(int32_t node)> changed;
    };

    EntryTree();
    void clear();

    // Adds a container as a layer under `node` (kRoot for the opened file) and returns its index.
    int32_t addLayer(ContainerPtr container, QString spec, int32_t node);
    // Appends entries (in archive order) to a layer, announcing inserts per parent.
    void append(int32_t layer, std::vector<Entry> entries, const Observer &observer);

    int32_t size() const { return int32_t(nodes_.size()); }
    // Structure.
    int32_t parent(int32_t node) const { return nodes_[size_t(node)].parent; }
    int32_t row(int32_t node) const { return nodes_[size_t(node)].row; }
    int32_t childCount(int32_t node) const;
    int32_t child(int32_t node, int row) const { return (*nodes_[size_t(node)].children)[size_t(row)]; }
    int32_t layerOf(int32_t node) const { return nodes_[size_t(node)].layer; }
    bool synthesized(int32_t node) const { return records_[size_t(node)].flags & kSynthesized; }
    // Cheap fields (no copies), for sorting and painting.
    QByteArrayView name(int32_t node) const;
    QByteArrayView path(int32_t node) const { return {records_[size_t(node)].path, records_[size_t(node)].pathLength}; }
    EntryType type(int32_t node) const { return records_[size_t(node)].type; }
    uint64_t contentSize(int32_t node) const { return records_[size_t(node)].size; }
    int64_t mtime(int32_t node) const { return records_[size_t(node)].mtime; }
    uint32_t mtimeNsec(int32_t node) const { return records_[size_t(node)].mtimeNsec; }
    bool isDirectoryLike(int32_t node) const { return type(node) == EntryType::Dir || isLayerRoot(node); }
    // Single fields without building an Entry (views ask for them for every visible cell).
    bool hasMtime(int32_t node) const { return records_[size_t(node)].flags & kHasMtime; }
    bool encrypted(int32_t node) const { return records_[size_t(node)].flags & kEncrypted; }
    bool opaque(int32_t node) const { return records_[size_t(node)].flags & kOpaque; }
    uint32_t mode(int32_t node) const { return records_[size_t(node)].mode; }
    uint32_t uid(int32_t node) const { return records_[size_t(node)].uid; }
    uint32_t gid(int32_t node) const { return records_[size_t(node)].gid; }
    const QByteArray &uname(int32_t node) const { return names_[records_[size_t(node)].uname]; }
    const QByteArray &gname(int32_t node) const { return names_[records_[size_t(node)].gname]; }
    QByteArray target(int32_t node) const;
    QByteArray detail(int32_t node) const;
    bool unreadable(int32_t node) const;
    uint64_t compressedSize(int32_t node) const;
    // The whole entry, rebuilt from the compact record.
    Entry entry(int32_t node) const;

    const Layer &layer(int32_t index) const { return layers_[size_t(index)]; }
    int32_t layerCount() const { return int32_t(layers_.size()); }
    // Whether the node is the root of a nested layer (a file that was opened as a container).
    bool isLayerRoot(int32_t node) const { return layerOfRoot_.contains(node); }
    // The layer a nested layer's root node roots (-1 when it is none).
    int32_t rootedLayer(int32_t node) const { return layerOfRoot_.value(node, -1); }
    // SPEC of a node: its layer's SPEC, "!/", its path.
    QString spec(int32_t node) const;

private:
    enum Flags : uint8_t { kSynthesized = 1,
                           kEncrypted = 2,
                           kHasMtime = 4,
                           kUnsafePath = 8,
                           kOpaque = 16 };
    struct Node {
        int32_t parent = -1;
        int32_t row = 0; // index in the parent's children
        int32_t layer = 0;
        std::unique_ptr<std::vector<int32_t>> children; // only for nodes that have any
    };
    struct Record {
        const char *path = ""; // in pathArena_: no per-string allocation overhead
        uint32_t pathLength = 0;
        uint64_t size = 0;
        uint64_t dataOffset = kUnknown;
        int64_t mtime = 0;
        uint32_t mtimeNsec = 0;
        uint32_t mode = 0;
        uint32_t uid = 0;
        uint32_t gid = 0;
        uint32_t ordinal = 0;
        uint16_t uname = 0; // index into names_ (0 = none)
        uint16_t gname = 0;
        EntryType type = EntryType::File;
        uint8_t flags = 0;
    };
    // What few entries have: kept aside so the common record stays small.
    struct Extra {
        QByteArray target;
        QByteArray detail;
        QByteArray problem;
        uint64_t compressedSize = kUnknown;
        uint64_t ordinal = 0;
        uint32_t rdevMajor = 0;
        uint32_t rdevMinor = 0;
    };
    using Groups = std::vector<std::pair<int32_t, std::vector<int32_t>>>;

    int32_t directoryNode(int32_t layer, const QByteArray &path, Groups &groups, QHash<int32_t, size_t> &groupOf);
    int32_t newNode(int32_t layer, Entry entry, bool synthesized, int32_t parent, Groups &groups, QHash<int32_t, size_t> &groupOf);
    void store(int32_t node, Entry entry, bool synthesized);
    uint16_t intern(const QByteArray &name);
    const char *keepPath(const QByteArray &path);

    std::deque<Node> nodes_; // deque: no doubling slack for a million entries
    std::deque<Record> records_;
    std::vector<std::unique_ptr<char[]>> pathArena_; // fixed-size chunks, never moved
    size_t arenaUsed_ = 0;
    size_t arenaChunk_ = 0;
    QHash<int32_t, Extra> extras_;
    std::vector<QByteArray> names_;
    QHash<QByteArray, uint16_t> nameIds_;
    std::vector<Layer> layers_;
    QHash<int32_t, int32_t> layerOfRoot_; // node -> layer it roots (nested archives)
};

} // namespace asc
