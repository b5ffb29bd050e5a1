#include "entry_tree.h"

namespace asc {

EntryTree::EntryTree()
{
    clear();
}

void EntryTree::clear()
{
    nodes_.assign(1, Node{});
    Entry root;
    root.type = EntryType::Dir;
    entries_.assign(1, root);
    layers_.clear();
    layerOfRoot_.clear();
}

int32_t EntryTree::addLayer(ContainerPtr container, QString spec, int32_t node)
{
    Layer layer;
    layer.container = std::move(container);
    layer.spec = std::move(spec);
    layer.rootNode = node;
    layers_.push_back(std::move(layer));
    const int32_t index = int32_t(layers_.size() - 1);
    if (node != kRoot)
        layerOfRoot_.insert(node, index);
    return index;
}

QByteArrayView EntryTree::name(int32_t index) const
{
    const QByteArray &path = entries_[size_t(index)].path;
    const qsizetype slash = path.lastIndexOf('/');
    return slash < 0 ? QByteArrayView(path) : QByteArrayView(path).sliced(slash + 1);
}

bool EntryTree::isLayerRoot(int32_t index) const
{
    return layerOfRoot_.contains(index);
}

QString EntryTree::spec(int32_t index) const
{
    const Layer &l = layers_[size_t(nodes_[size_t(index)].layer)];
    if (index == l.rootNode)
        return l.spec;
    return l.spec + QStringLiteral("!/") + QString::fromUtf8(entries_[size_t(index)].path);
}

int32_t EntryTree::newNode(int32_t layer, Entry entry, bool synthesized, int32_t parent,
                           std::vector<std::pair<int32_t, std::vector<int32_t>>> &groups, QHash<int32_t, size_t> &groupOf)
{
    Node n;
    n.parent = parent;
    n.layer = layer;
    n.synthesized = synthesized;
    nodes_.push_back(std::move(n));
    entries_.push_back(std::move(entry));
    const int32_t index = int32_t(nodes_.size() - 1);
    auto it = groupOf.constFind(parent);
    if (it == groupOf.constEnd()) {
        groups.emplace_back(parent, std::vector<int32_t>{});
        it = groupOf.insert(parent, groups.size() - 1);
    }
    groups[*it].second.push_back(index);
    return index;
}

int32_t EntryTree::directoryNode(int32_t layer, const QByteArray &path, std::vector<std::pair<int32_t, std::vector<int32_t>>> &groups,
                                 QHash<int32_t, size_t> &groupOf)
{
    if (path.isEmpty())
        return layers_[size_t(layer)].rootNode;
    auto &directories = layers_[size_t(layer)].directories;
    auto found = directories.constFind(path);
    if (found != directories.constEnd())
        return *found;
    const qsizetype slash = path.lastIndexOf('/');
    const int32_t parent = directoryNode(layer, slash < 0 ? QByteArray() : path.left(slash), groups, groupOf);
    Entry dir;
    dir.path = path;
    dir.type = EntryType::Dir;
    dir.mode = 0755;
    const int32_t index = newNode(layer, std::move(dir), true, parent, groups, groupOf);
    layers_[size_t(layer)].directories.insert(path, index);
    return index;
}

void EntryTree::append(int32_t layer, std::vector<Entry> entries, const Observer &observer)
{
    // Phase 1: create nodes, grouped by parent in order of first appearance (a new directory is
    // always grouped before its own children, so announcing groups in order is consistent).
    std::vector<std::pair<int32_t, std::vector<int32_t>>> groups;
    QHash<int32_t, size_t> groupOf;
    std::vector<int32_t> changed;
    for (Entry &entry : entries) {
        if (entry.path.isEmpty())
            continue;
        auto &directories = layers_[size_t(layer)].directories;
        if (entry.type == EntryType::Dir) {
            auto existing = directories.constFind(entry.path);
            if (existing != directories.constEnd()) {
                // A directory first implied by deeper paths, now named: keep the node, take the metadata.
                Node &n = nodes_[size_t(*existing)];
                if (n.synthesized) {
                    entries_[size_t(*existing)] = std::move(entry);
                    n.synthesized = false;
                    changed.push_back(*existing);
                }
                continue;
            }
        }
        const qsizetype slash = entry.path.lastIndexOf('/');
        const int32_t parent = directoryNode(layer, slash < 0 ? QByteArray() : entry.path.left(slash), groups, groupOf);
        const bool isDir = entry.type == EntryType::Dir;
        const QByteArray path = isDir ? entry.path : QByteArray();
        const int32_t index = newNode(layer, std::move(entry), false, parent, groups, groupOf);
        if (isDir)
            directories.insert(path, index);
    }
    // Phase 2: make them visible, one insert per parent.
    for (auto &[parent, added] : groups) {
        auto &children = nodes_[size_t(parent)].children;
        const int first = int(children.size());
        if (observer.beginInsert)
            observer.beginInsert(parent, first, first + int(added.size()) - 1);
        for (int32_t child : added) {
            nodes_[size_t(child)].row = int32_t(children.size());
            children.push_back(child);
        }
        if (observer.endInsert)
            observer.endInsert();
    }
    for (int32_t node : changed) {
        if (observer.changed && node < int32_t(nodes_.size()) && nodes_[size_t(node)].parent >= 0)
            observer.changed(node);
    }
}

} // namespace asc
