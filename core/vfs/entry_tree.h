#pragma once
// The container tree as compact records: one node per entry (directories implied by deeper paths
// get a synthesised entry), children as index vectors, no QObjects. Nested archives are "layers":
// a file node can hold the tree of the container it opens as.
// Not thread safe: built and read on one thread (the UI thread, from batches a worker produced).

#include "container.h"

#include <QHash>
#include <functional>
#include <vector>

namespace asc {

class EntryTree {
public:
    static constexpr int32_t kRoot = 0;

    struct Node {
        int32_t parent = -1;
        int32_t row = 0;          // index in the parent's children
        int32_t layer = 0;
        bool synthesized = false; // a directory no entry named (zip without dir entries)
        std::vector<int32_t> children;
    };

    struct Layer {
        ContainerPtr container;
        QString spec;             // SPEC of the container's bytes ("a.iso", "a.iso!/b.zip")
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
    const Node &node(int32_t index) const { return nodes_[size_t(index)]; }
    const Entry &entry(int32_t index) const { return entries_[size_t(index)]; }
    const Layer &layer(int32_t index) const { return layers_[size_t(index)]; }
    int32_t layerCount() const { return int32_t(layers_.size()); }
    // The node's display name (last path component).
    QByteArrayView name(int32_t index) const;
    // Whether the node is the root of a nested layer (a file that was opened as a container).
    bool isLayerRoot(int32_t index) const;
    // SPEC of a node: its layer's SPEC, "!/", its path.
    QString spec(int32_t index) const;

private:
    int32_t directoryNode(int32_t layer, const QByteArray &path, std::vector<std::pair<int32_t, std::vector<int32_t>>> &groups,
                          QHash<int32_t, size_t> &groupOf);
    int32_t newNode(int32_t layer, Entry entry, bool synthesized, int32_t parent,
                    std::vector<std::pair<int32_t, std::vector<int32_t>>> &groups, QHash<int32_t, size_t> &groupOf);

    std::vector<Node> nodes_;
    std::vector<Entry> entries_;
    std::vector<Layer> layers_;
    QHash<int32_t, int32_t> layerOfRoot_; // node -> layer it roots (nested archives)
};

} // namespace asc
