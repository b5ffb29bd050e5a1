// SPDX-License-Identifier: MIT
#include "entry_tree_model.h"

#include "units.h"
#include "vfs/path_text.h"

#include <QApplication>
#include <QDateTime>
#include <QFileIconProvider>
#include <QIcon>
#include <QMimeData>
#include <QStyle>
#include <QUrl>

namespace asc::ui {

EntryTreeModel::EntryTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void EntryTreeModel::clear()
{
    beginResetModel();
    tree_.clear();
    expansionStarted_.clear();
    expanded_.clear();
    expansionFailed_.clear();
    endResetModel();
}

int32_t EntryTreeModel::addLayer(ContainerPtr container, const QString &spec, const QModelIndex &parent)
{
    return tree_.addLayer(std::move(container), spec, parent.isValid() ? nodeOf(parent) : EntryTree::kRoot);
}

void EntryTreeModel::appendEntries(int32_t layer, std::vector<Entry> entries)
{
    EntryTree::Observer observer;
    observer.beginInsert = [this](int32_t parent, int first, int last) { beginInsertRows(indexOf(parent), first, last); };
    observer.endInsert = [this] { endInsertRows(); };
    observer.changed = [this](int32_t node) { Q_EMIT dataChanged(indexOf(node, 0), indexOf(node, ColumnCount - 1)); };
    tree_.append(layer, std::move(entries), observer);
}

int32_t EntryTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? int32_t(index.internalId()) : EntryTree::kRoot;
}

QModelIndex EntryTreeModel::indexOf(int32_t node, int column) const
{
    if (node == EntryTree::kRoot)
        return {};
    return createIndex(tree_.row(node), column, quintptr(node));
}

QModelIndex EntryTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0 || (parent.isValid() && parent.column() != 0))
        return {};
    const int32_t node = nodeOf(parent);
    if (row >= tree_.childCount(node))
        return {};
    return createIndex(row, column, quintptr(tree_.child(node, row)));
}

QModelIndex EntryTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(tree_.parent(nodeOf(child)));
}

int EntryTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return tree_.childCount(nodeOf(parent));
}

int EntryTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

bool EntryTreeModel::looksNested(int32_t node) const
{
    if (expansionFailed_.contains(node))
        return false;
    if (tree_.type(node) == EntryType::Partition)
        return true; // a partition is opened to see what it holds
    if (tree_.type(node) != EntryType::File)
        return false;
    static const char *suffixes[] = {".tar", ".tgz", ".tbz2", ".txz", ".tzst", ".zip", ".jar", ".7z", ".iso", ".cpio", ".a",
                                     ".deb", ".rpm", ".xar", ".cab", ".rar", ".lha", ".lzh", ".gz", ".bz2", ".xz", ".zst",
                                     ".lz4", ".lz", ".apk", ".whl", ".epub", ".war", ".qcow2", ".img", ".pxar", ".mpxar"};
    const QByteArrayView name = tree_.name(node);
    for (const char *suffix : suffixes) {
        if (name.size() > qsizetype(qstrlen(suffix)) && name.endsWith(QByteArrayView(suffix)))
            return true;
    }
    return false;
}

bool EntryTreeModel::unreadFolder(int32_t node) const
{
    // Synthesised folders (implied by a path) have nothing to read; layer roots are listed on opening.
    if (node == EntryTree::kRoot || tree_.type(node) != EntryType::Dir || tree_.synthesized(node) || tree_.isLayerRoot(node) ||
        expanded_.contains(node) || expansionFailed_.contains(node))
        return false;
    return tree_.layer(tree_.layerOf(node)).container->listsFolderByFolder();
}

bool EntryTreeModel::folderListingStarted(int32_t node) const
{
    return node == EntryTree::kRoot || tree_.isLayerRoot(node) || expansionStarted_.contains(node) || expanded_.contains(node);
}

void EntryTreeModel::markFolderListed(int32_t node)
{
    expansionStarted_.insert(node);
    expanded_.insert(node);
}

void EntryTreeModel::markExpanded(int32_t node)
{
    expanded_.insert(node);
}

void EntryTreeModel::markExpansionFailed(int32_t node)
{
    expansionFailed_.insert(node);
    const QModelIndex index = indexOf(node);
    Q_EMIT dataChanged(index, index);
}

bool EntryTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return false;
    const int32_t node = nodeOf(parent);
    if (tree_.childCount(node) > 0)
        return true;
    // A nested archive or unread folder keeps its expander while it is read (until it fails or is empty).
    return parent.isValid() && ((looksNested(node) && !expanded_.contains(node)) || unreadFolder(node));
}

bool EntryTreeModel::canFetchMore(const QModelIndex &parent) const
{
    if (!parent.isValid() || parent.column() != 0)
        return false;
    // Still true while the nested archive is being opened: proxies only trust canFetchMore.
    const int32_t node = nodeOf(parent);
    return ((looksNested(node) && !expanded_.contains(node)) || unreadFolder(node)) && tree_.childCount(node) == 0;
}

void EntryTreeModel::fetchMore(const QModelIndex &parent)
{
    const int32_t node = nodeOf(parent);
    if (!canFetchMore(parent) || expansionStarted_.contains(node))
        return;
    expansionStarted_.insert(node);
    Q_EMIT expansionRequested(node);
}

QString EntryTreeModel::typeText(const Entry &entry) const
{
    switch (entry.type) {
    case EntryType::File: {
        const QString name = pathText(entry.name());
        const QMimeType mime = mimes_.mimeTypeForFile(name, QMimeDatabase::MatchExtension);
        return mime.isDefault() ? tr("File") : mime.comment();
    }
    case EntryType::Dir: return tr("Folder");
    case EntryType::Symlink: return tr("Symbolic link");
    case EntryType::Hardlink: return tr("Hard link");
    case EntryType::CharDev: return tr("Character device");
    case EntryType::BlockDev: return tr("Block device");
    case EntryType::Fifo: return tr("FIFO");
    case EntryType::Socket: return tr("Socket");
    case EntryType::Partition: return entry.detail.isEmpty() ? tr("Partition") : tr("Partition: %1").arg(QString::fromUtf8(entry.detail));
    }
    return {};
}

QVariant EntryTreeModel::icon(const Entry &entry, int32_t node) const
{
    static const QFileIconProvider provider;
    if (entry.type == EntryType::Dir)
        return provider.icon(QFileIconProvider::Folder);
    if (entry.type == EntryType::Symlink || entry.type == EntryType::Hardlink)
        return QApplication::style()->standardIcon(QStyle::SP_FileLinkIcon);
    if (entry.type == EntryType::Partition)
        return provider.icon(QFileIconProvider::Drive);
    const QMimeType mime = mimes_.mimeTypeForFile(pathText(entry.name()), QMimeDatabase::MatchExtension);
    const QIcon fallback = tree_.isLayerRoot(node) || looksNested(node) ? provider.icon(QFileIconProvider::Folder)
                                                                        : provider.icon(QFileIconProvider::File);
    return QIcon::fromTheme(mime.iconName(), QIcon::fromTheme(mime.genericIconName(), fallback));
}

QVariant EntryTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const int32_t node = nodeOf(index);
    const Entry entry = tree_.entry(node);
    const bool isFile = entry.type == EntryType::File || entry.type == EntryType::Partition;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name: return pathText(entry.name());
        case Size: return isFile ? (entry.size == kUnknown ? tr("unknown") : sizeLabel(entry.size)) : QVariant();
        case Compressed: return entry.compressedSize == kUnknown ? QVariant() : sizeLabel(entry.compressedSize);
        case Type: return typeText(entry) + (entry.encrypted ? tr(" (encrypted)") : QString()) + (entry.problem.isEmpty() ? QString() : tr(" (unreadable)"));
        case Modified:
            return entry.hasMtime ? QDateTime::fromSecsSinceEpoch(entry.mtime).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QVariant();
        case Permissions: return tree_.synthesized(node) ? QVariant() : permissionText(entry.type, entry.mode);
        case Owner: {
            if (tree_.synthesized(node))
                return {};
            const QString user = entry.uname.isEmpty() ? QString::number(entry.uid) : QString::fromUtf8(entry.uname);
            const QString group = entry.gname.isEmpty() ? QString::number(entry.gid) : QString::fromUtf8(entry.gname);
            return user + QLatin1Char('/') + group;
        }
        case LinkTarget: return entry.target.isEmpty() ? QVariant() : pathText(entry.target);
        }
        return {};
    case Qt::DecorationRole:
        return index.column() == Name ? icon(entry, node) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Size || index.column() == Compressed ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        return index.column() == Name ? tree_.spec(node) : QVariant();
    case SortRole:
        switch (index.column()) {
        case Name: return pathText(entry.name());
        case Size: return isFile ? qulonglong(entry.size == kUnknown ? 0 : entry.size) : qulonglong(0);
        case Compressed: return entry.compressedSize == kUnknown ? qulonglong(0) : qulonglong(entry.compressedSize);
        case Modified: return qlonglong(entry.mtime);
        default: return data(index, Qt::DisplayRole);
        }
    case NodeRole:
        return node;
    case IsDirRole:
        return entry.type == EntryType::Dir || tree_.isLayerRoot(node);
    }
    return {};
}

QVariant EntryTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Name");
    case Size: return tr("Size");
    case Compressed: return tr("Compressed");
    case Type: return tr("Type");
    case Modified: return tr("Modified");
    case Permissions: return tr("Permissions");
    case Owner: return tr("Owner");
    case LinkTarget: return tr("Link target");
    }
    return {};
}

Qt::ItemFlags EntryTreeModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled;
}

QStringList EntryTreeModel::mimeTypes() const
{
    return {QStringLiteral("text/uri-list")};
}

QMimeData *EntryTreeModel::mimeData(const QModelIndexList &indexes) const
{
    QList<int32_t> nodes;
    for (const QModelIndex &index : indexes) {
        if (index.column() == 0 && !nodes.contains(nodeOf(index)))
            nodes << nodeOf(index);
    }
    QStringList paths;
    Q_EMIT dragExtractionRequested(nodes, &paths);
    if (paths.isEmpty())
        return nullptr;
    auto *mime = new QMimeData;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls << QUrl::fromLocalFile(path);
    mime->setUrls(urls);
    return mime;
}

} // namespace asc::ui
