// SPDX-License-Identifier: MIT
#include "mounted_tree.h"

#include "formats/format.h"

#include <sys/sysmacros.h>
#include <unistd.h>

namespace asc {

namespace {

constexpr uint8_t kFilled = 1; // its children are in the tree
constexpr uint8_t kTriedOpen = 2; // a partition or archive: opening it as a container was tried
constexpr uint8_t kOpens = 4; // ... and it opened: shown as a folder

// Whether a container lists its children one folder at a time (a filesystem).
bool byFolder(const ContainerPtr &container)
{
    return container->listsFolderByFolder();
}

} // namespace

MountedTree::MountedTree(ContainerPtr root, QString spec, bool recursive, int64_t fileMtime)
    : recursive_(recursive),
      fileMtime_(fileMtime),
      uid_(::getuid()),
      gid_(::getgid())
{
    tree_.addLayer(std::move(root), std::move(spec), EntryTree::kRoot);
    state_.resize(size_t(tree_.size()), 0);
}

bool MountedTree::valid(int32_t node) const
{
    const std::lock_guard lock(mutex_);
    return node >= 0 && node < tree_.size();
}

QString MountedTree::spec(int32_t node) const
{
    const std::lock_guard lock(mutex_);
    return node == kRoot ? tree_.layer(0).spec : tree_.spec(node);
}

bool MountedTree::shownAsFolder(int32_t node, std::unique_lock<std::mutex> &lock)
{
    if (node == kRoot || tree_.type(node) == EntryType::Dir || tree_.isLayerRoot(node))
        return true;
    const EntryType type = tree_.type(node);
    const bool candidate = type == EntryType::Partition || (recursive_ && type == EntryType::File && nameSuggestsContainer(tree_.name(node).toByteArray()));
    if (!candidate || tree_.opaque(node) || tree_.unreadable(node))
        return false;
    if (state_[size_t(node)] & kTriedOpen)
        return state_[size_t(node)] & kOpens;
    state_[size_t(node)] |= kTriedOpen;
    // Opened in the worker; the lock is let go meanwhile (another lookup may go on).
    const ContainerPtr outer = tree_.layer(tree_.layerOf(node)).container;
    const Entry entry = tree_.entry(node);
    const QString spec = tree_.spec(node);
    lock.unlock();
    // A worker's container opens it there; nothing is parsed in the mounting process.
    Result<ContainerPtr> nested = outer->openNested(entry, [&spec](SourcePtr) -> Result<ContainerPtr> {
        return Error::make(ErrorKind::Unsupported, spec, QStringLiteral("not a worker's container"));
    });
    lock.lock();
    if (!nested || tree_.isLayerRoot(node))
        return tree_.isLayerRoot(node);
    tree_.addLayer(std::move(*nested), spec, node);
    state_[size_t(node)] |= kOpens;
    return true;
}

int32_t MountedTree::childNamed(int32_t folder, QByteArrayView name)
{
    const int count = tree_.childCount(folder);
    if (count < 16) { // a short scan beats a table
        for (int row = 0; row < count; ++row) {
            const int32_t child = tree_.child(folder, row);
            if (tree_.name(child) == name)
                return child;
        }
        return -1;
    }
    QHash<QByteArray, int32_t> &names = byName_[folder];
    if (names.size() != count) {
        names.clear();
        names.reserve(count);
        for (int row = 0; row < count; ++row) {
            const int32_t child = tree_.child(folder, row);
            names.insert(tree_.name(child).toByteArray(), child);
        }
    }
    return names.value(name.toByteArray(), -1);
}

Result<void> MountedTree::fill(int32_t folder, std::unique_lock<std::mutex> &lock)
{
    if (state_[size_t(folder)] & kFilled)
        return {};
    if (!shownAsFolder(folder, lock))
        return Error::make(ErrorKind::Usage, tree_.spec(folder), QStringLiteral("is not a folder"));
    const int32_t layerIndex = folder == kRoot ? 0 : tree_.isLayerRoot(folder) ? tree_.rootedLayer(folder)
                                                                               : tree_.layerOf(folder);
    const EntryTree::Layer &layer = tree_.layer(layerIndex);
    const ContainerPtr container = layer.container;
    const bool isLayerRoot = folder == kRoot || tree_.isLayerRoot(folder);
    // A whole listing fills every folder of an archive at once; a filesystem lists one folder.
    const bool oneFolder = byFolder(container);
    Entry dir;
    if (!isLayerRoot)
        dir = tree_.entry(folder);
    lock.unlock();
    std::vector<Entry> entries;
    const Container::EntrySink keep = [&](const Entry &entry) {
        entries.push_back(entry);
        return true;
    };
    const Result<void> listed = oneFolder ? container->listDirectory(dir, keep) : container->list(keep);
    lock.lock();
    if (state_[size_t(folder)] & kFilled)
        return {}; // another thread filled it meanwhile
    if (!listed)
        return listed;
    const int32_t before = tree_.size();
    tree_.append(layerIndex, std::move(entries), {});
    state_.resize(size_t(tree_.size()), 0);
    state_[size_t(folder)] |= kFilled;
    // A whole listing made every folder of this layer, each complete now.
    for (int32_t node = before; !oneFolder && node < tree_.size(); ++node)
        if (tree_.type(node) == EntryType::Dir)
            state_[size_t(node)] |= kFilled;
    return {};
}

Result<int32_t> MountedTree::lookup(int32_t folder, QByteArrayView name)
{
    std::unique_lock lock(mutex_);
    if (auto filled = fill(folder, lock); !filled)
        return std::move(filled).error();
    const int32_t child = childNamed(folder, name);
    if (child < 0)
        return Error::make(ErrorKind::NotFound, tree_.spec(folder), QStringLiteral("no entry named %1").arg(QString::fromUtf8(name.toByteArray())));
    return child;
}

Result<std::vector<std::pair<int32_t, QByteArray>>> MountedTree::children(int32_t folder)
{
    std::unique_lock lock(mutex_);
    if (auto filled = fill(folder, lock); !filled)
        return std::move(filled).error();
    std::vector<std::pair<int32_t, QByteArray>> out;
    for (int row = 0; row < tree_.childCount(folder); ++row) {
        const int32_t child = tree_.child(folder, row);
        out.emplace_back(child, tree_.name(child).toByteArray());
    }
    return out;
}

Result<struct stat> MountedTree::attributes(int32_t node)
{
    std::unique_lock lock(mutex_);
    struct stat st {};
    st.st_ino = ino_t(node) + 1;
    st.st_uid = uid_;
    st.st_gid = gid_;
    st.st_blksize = 64 * 1024;
    const bool folder = shownAsFolder(node, lock);
    const uint32_t mode = node == kRoot ? 0 : tree_.mode(node) & 07777;
    st.st_mtim.tv_sec = fileMtime_; // what has no time of its own (a partition) has its file's
    if (node != kRoot && tree_.hasMtime(node)) {
        st.st_mtim.tv_sec = tree_.mtime(node);
        st.st_mtim.tv_nsec = long(tree_.mtimeNsec(node));
    }
    st.st_ctim = st.st_mtim;
    st.st_atim = st.st_mtim;
    if (folder) {
        // Whoever may read a folder may go into it (a partition's r--r--r-- becomes r-xr-xr-x).
        const uint32_t bits = mode ? (mode | ((mode & 0444) >> 2)) & 07555 : 0555;
        st.st_mode = S_IFDIR | bits | 0500;
        st.st_nlink = 2;
        return st;
    }
    st.st_nlink = 1;
    switch (tree_.type(node)) {
    case EntryType::Symlink:
        st.st_mode = S_IFLNK | 0777;
        st.st_size = off_t(tree_.target(node).size());
        return st;
    case EntryType::CharDev:
    case EntryType::BlockDev: {
        const Entry entry = tree_.entry(node);
        st.st_mode = (tree_.type(node) == EntryType::CharDev ? S_IFCHR : S_IFBLK) | (mode & 0555);
        st.st_rdev = makedev(entry.rdevMajor, entry.rdevMinor);
        return st;
    }
    case EntryType::Fifo:
        st.st_mode = S_IFIFO | (mode & 0555);
        return st;
    case EntryType::Socket:
        st.st_mode = S_IFSOCK | (mode & 0555);
        return st;
    default:
        break;
    }
    st.st_mode = S_IFREG | (mode ? (mode & 07555) | 0400 : 0444);
    uint64_t size = tree_.contentSize(node);
    if (tree_.type(node) == EntryType::Hardlink && size == 0) { // tar: the content is its target's
        const ContainerPtr container = tree_.layer(tree_.layerOf(node)).container;
        const QByteArray target = tree_.target(node);
        lock.unlock();
        auto found = container->find(target);
        lock.lock();
        size = found ? found->size : 0;
    }
    st.st_size = off_t(size == kUnknown ? 0 : size);
    st.st_blocks = blkcnt_t((st.st_size + 511) / 512);
    return st;
}

mode_t MountedTree::knownType(int32_t node) const
{
    const std::lock_guard lock(mutex_);
    if (node == kRoot || tree_.isLayerRoot(node) || tree_.type(node) == EntryType::Dir)
        return S_IFDIR;
    if (state_[size_t(node)] & kTriedOpen)
        return state_[size_t(node)] & kOpens ? S_IFDIR : S_IFREG;
    switch (tree_.type(node)) {
    case EntryType::Symlink:
        return S_IFLNK;
    case EntryType::CharDev:
        return S_IFCHR;
    case EntryType::BlockDev:
        return S_IFBLK;
    case EntryType::Fifo:
        return S_IFIFO;
    case EntryType::Socket:
        return S_IFSOCK;
    case EntryType::Partition:
        return 0;
    default:
        return recursive_ && nameSuggestsContainer(tree_.name(node).toByteArray()) ? 0 : S_IFREG;
    }
}

Result<QByteArray> MountedTree::linkTarget(int32_t node)
{
    const std::lock_guard lock(mutex_);
    if (tree_.type(node) != EntryType::Symlink)
        return Error::make(ErrorKind::Usage, tree_.spec(node), QStringLiteral("is not a symbolic link"));
    return tree_.target(node);
}

Result<SourcePtr> MountedTree::open(int32_t node)
{
    std::unique_lock lock(mutex_);
    if (shownAsFolder(node, lock))
        return Error::make(ErrorKind::Usage, tree_.spec(node), QStringLiteral("is a folder"));
    const ContainerPtr container = tree_.layer(tree_.layerOf(node)).container;
    Entry entry = tree_.entry(node);
    if (entry.type == EntryType::Hardlink && entry.size == 0) {
        // Its target's content, as the target is listed in the same layer.
        const QByteArray target = entry.target;
        lock.unlock();
        auto found = container->find(target);
        if (!found)
            return std::move(found).error();
        return container->open(*found);
    }
    lock.unlock();
    return container->open(entry);
}

} // namespace asc
