// SPDX-License-Identifier: MIT
#include "entry_tree.h"

#include "io/byte_text.h"

#include <cstring>

namespace asc {

EntryTree::EntryTree()
{
    clear();
}

void EntryTree::clear()
{
    nodes_.clear();
    records_.clear();
    pathArena_.clear();
    arenaUsed_ = arenaChunk_ = 0;
    extras_.clear();
    names_.assign(1, QByteArray());
    nameIds_.clear();
    layers_.clear();
    layerOfRoot_.clear();
    nodes_.emplace_back();
    Entry root;
    root.type = EntryType::Dir;
    records_.emplace_back();
    store(kRoot, root, true);
}

uint16_t EntryTree::intern(const QByteArray &name)
{
    if (name.isEmpty())
        return 0;
    auto it = nameIds_.constFind(name);
    if (it != nameIds_.constEnd())
        return *it;
    if (names_.size() >= UINT16_MAX)
        return 0; // absurdly many distinct owners: show ids only
    names_.push_back(name);
    const auto id = uint16_t(names_.size() - 1);
    nameIds_.insert(name, id);
    return id;
}

const char *EntryTree::keepPath(const QByteArray &path)
{
    constexpr size_t kChunk = 1 << 20;
    const size_t need = size_t(path.size());
    if (need == 0)
        return "";
    if (pathArena_.empty() || arenaUsed_ + need > arenaChunk_) {
        arenaChunk_ = std::max(kChunk, need);
        pathArena_.emplace_back(new char[arenaChunk_]);
        arenaUsed_ = 0;
    }
    char *at = pathArena_.back().get() + arenaUsed_;
    memcpy(at, path.constData(), need);
    arenaUsed_ += need;
    return at;
}

void EntryTree::store(int32_t node, Entry entry, bool synthesized)
{
    Record &r = records_[size_t(node)];
    r.path = keepPath(entry.path);
    r.pathLength = uint32_t(entry.path.size());
    r.size = entry.size;
    r.dataOffset = entry.dataOffset;
    r.mtime = entry.mtime;
    r.mtimeNsec = entry.mtimeNsec;
    r.mode = entry.mode;
    r.uid = entry.uid;
    r.gid = entry.gid;
    r.ordinal = uint32_t(std::min<uint64_t>(entry.ordinal, UINT32_MAX));
    r.uname = intern(entry.uname);
    r.gname = intern(entry.gname);
    r.type = entry.type;
    r.flags = uint8_t((synthesized ? kSynthesized : 0) | (entry.encrypted ? kEncrypted : 0) |
                      (entry.hasMtime ? kHasMtime : 0) | (entry.unsafePath ? kUnsafePath : 0) | (entry.opaque ? kOpaque : 0));
    if (!entry.target.isEmpty() || !entry.detail.isEmpty() || !entry.problem.isEmpty() || entry.compressedSize != kUnknown ||
        entry.rdevMajor || entry.rdevMinor || entry.ordinal > UINT32_MAX) {
        extras_.insert(node, Extra{std::move(entry.target), std::move(entry.detail), std::move(entry.problem), entry.compressedSize,
                                   entry.ordinal, entry.rdevMajor, entry.rdevMinor});
    } else {
        extras_.remove(node);
    }
}

QByteArray EntryTree::target(int32_t node) const
{
    auto extra = extras_.constFind(node);
    return extra == extras_.constEnd() ? QByteArray() : extra->target;
}

QByteArray EntryTree::detail(int32_t node) const
{
    auto extra = extras_.constFind(node);
    return extra == extras_.constEnd() ? QByteArray() : extra->detail;
}

bool EntryTree::unreadable(int32_t node) const
{
    auto extra = extras_.constFind(node);
    return extra != extras_.constEnd() && !extra->problem.isEmpty();
}

uint64_t EntryTree::compressedSize(int32_t node) const
{
    auto extra = extras_.constFind(node);
    return extra == extras_.constEnd() ? kUnknown : extra->compressedSize;
}

Entry EntryTree::entry(int32_t node) const
{
    const Record &r = records_[size_t(node)];
    Entry e;
    e.path = QByteArray(r.path, qsizetype(r.pathLength));
    e.size = r.size;
    e.dataOffset = r.dataOffset;
    e.mtime = r.mtime;
    e.mtimeNsec = r.mtimeNsec;
    e.mode = r.mode;
    e.uid = r.uid;
    e.gid = r.gid;
    e.ordinal = r.ordinal;
    e.uname = names_[r.uname];
    e.gname = names_[r.gname];
    e.type = r.type;
    e.encrypted = r.flags & kEncrypted;
    e.hasMtime = r.flags & kHasMtime;
    e.unsafePath = r.flags & kUnsafePath;
    e.opaque = r.flags & kOpaque;
    auto extra = extras_.constFind(node);
    if (extra != extras_.constEnd()) {
        e.target = extra->target;
        e.detail = extra->detail;
        e.problem = extra->problem;
        e.compressedSize = extra->compressedSize;
        e.ordinal = extra->ordinal;
        e.rdevMajor = extra->rdevMajor;
        e.rdevMinor = extra->rdevMinor;
    }
    return e;
}

int32_t EntryTree::childCount(int32_t node) const
{
    const auto &children = nodes_[size_t(node)].children;
    return children ? int32_t(children->size()) : 0;
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

QByteArrayView EntryTree::name(int32_t node) const
{
    const QByteArrayView whole = path(node);
    const qsizetype slash = whole.lastIndexOf('/');
    return slash < 0 ? whole : whole.sliced(slash + 1);
}

QString EntryTree::spec(int32_t node) const
{
    const Layer &l = layers_[size_t(nodes_[size_t(node)].layer)];
    if (node == l.rootNode)
        return l.spec;
    return l.spec + QStringLiteral("!/") + bytesToText(path(node).toByteArray());
}

int32_t EntryTree::newNode(int32_t layer, Entry entry, bool synthesized, int32_t parent, Groups &groups, QHash<int32_t, size_t> &groupOf)
{
    Node n;
    n.parent = parent;
    n.layer = layer;
    nodes_.push_back(std::move(n));
    records_.emplace_back();
    const int32_t index = int32_t(nodes_.size() - 1);
    store(index, std::move(entry), synthesized);
    auto it = groupOf.constFind(parent);
    if (it == groupOf.constEnd()) {
        groups.emplace_back(parent, std::vector<int32_t>{});
        it = groupOf.insert(parent, groups.size() - 1);
    }
    groups[*it].second.push_back(index);
    return index;
}

int32_t EntryTree::directoryNode(int32_t layer, const QByteArray &path, Groups &groups, QHash<int32_t, size_t> &groupOf)
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
    Groups groups;
    QHash<int32_t, size_t> groupOf;
    std::vector<int32_t> changed;
    QByteArray lastParentPath;
    int32_t lastParent = -1;
    for (Entry &entry : entries) {
        if (entry.path.isEmpty())
            continue;
        auto &directories = layers_[size_t(layer)].directories;
        if (entry.type == EntryType::Dir) {
            auto existing = directories.constFind(entry.path);
            if (existing != directories.constEnd()) {
                // A directory first implied by deeper paths, now named: keep the node, take the metadata.
                if (synthesized(*existing)) {
                    store(*existing, std::move(entry), false);
                    changed.push_back(*existing);
                }
                continue;
            }
        }
        // Archives list siblings together: reuse the last parent when the directory part matches.
        const qsizetype slash = entry.path.lastIndexOf('/');
        const QByteArrayView parentPath = slash < 0 ? QByteArrayView() : QByteArrayView(entry.path).first(slash);
        int32_t parent;
        if (lastParent >= 0 && parentPath == lastParentPath) {
            parent = lastParent;
        } else {
            lastParentPath = parentPath.toByteArray();
            parent = directoryNode(layer, lastParentPath, groups, groupOf);
            lastParent = parent;
        }
        const bool isDir = entry.type == EntryType::Dir;
        const QByteArray path = isDir ? entry.path : QByteArray();
        const int32_t index = newNode(layer, std::move(entry), false, parent, groups, groupOf);
        if (isDir)
            directories.insert(path, index);
    }
    // Phase 2: make them visible, one insert per parent.
    for (auto &[parent, added] : groups) {
        auto &children = nodes_[size_t(parent)].children;
        if (!children)
            children = std::make_unique<std::vector<int32_t>>();
        const int first = int(children->size());
        if (observer.beginInsert)
            observer.beginInsert(parent, first, first + int(added.size()) - 1);
        for (int32_t child : added) {
            nodes_[size_t(child)].row = int32_t(children->size());
            children->push_back(child);
        }
        if (observer.endInsert)
            observer.endInsert();
    }
    for (int32_t node : changed) {
        if (observer.changed)
            observer.changed(node);
    }
}

} // namespace asc
