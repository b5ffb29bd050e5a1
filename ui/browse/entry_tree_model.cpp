// SPDX-License-Identifier: MIT
#include "entry_tree_model.h"

#include "drag_extraction_data.h"
#include <QPointer>

#include "io/units.h"
#include "vfs/path_text.h"

#include <QApplication>
#include <QDateTime>
#include <QFileIconProvider>
#include <QIcon>
#include <QMimeData>
#include <QPointer>
#include <QStyle>
#include <QUrl>

namespace asc::ui {

EntryTreeModel::EntryTreeModel(TreeLoader *loader, QObject *parent)
    : QAbstractItemModel(parent),
      loader_(loader)
{
    TreeLoader::Observer observer;
    observer.beginReset = [this] { beginResetModel(); };
    observer.endReset = [this] { endResetModel(); };
    observer.rows.beginInsert = [this](int32_t parent, int first, int last) {
        insertingUnder_ = parent;
        beginInsertRows(indexOf(parent), first, last);
    };
    observer.rows.endInsert = [this] {
        endInsertRows();
        // A folder's Size cell counts its items: it changed with them (a view showed "1 item"
        // for two after a streamed listing, never repainted).
        if (insertingUnder_ != EntryTree::kRoot)
            Q_EMIT dataChanged(indexOf(insertingUnder_, Size), indexOf(insertingUnder_, Size), {Qt::DisplayRole});
    };
    observer.rows.changed = [this](int32_t node) { Q_EMIT dataChanged(indexOf(node, 0), indexOf(node, ColumnCount - 1)); };
    loader_->setObserver(std::move(observer));
}

int32_t EntryTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? int32_t(index.internalId()) : EntryTree::kRoot;
}

QModelIndex EntryTreeModel::indexOf(int32_t node, int column) const
{
    if (node == EntryTree::kRoot)
        return {};
    return createIndex(tree().row(node), column, quintptr(node));
}

QModelIndex EntryTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0 || (parent.isValid() && parent.column() != 0))
        return {};
    const int32_t node = nodeOf(parent);
    if (row >= tree().childCount(node))
        return {};
    return createIndex(row, column, quintptr(tree().child(node, row)));
}

QModelIndex EntryTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(tree().parent(nodeOf(child)));
}

int EntryTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return tree().childCount(nodeOf(parent));
}

int EntryTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

bool EntryTreeModel::hasChildren(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return false;
    const int32_t node = nodeOf(parent);
    // A nested container or unread folder keeps its expander while it is read (until it fails or is empty).
    return tree().childCount(node) > 0 || (parent.isValid() && loader_->canExpand(node));
}

bool EntryTreeModel::canFetchMore(const QModelIndex &parent) const
{
    // Still true while the nested container is being opened: proxies only trust canFetchMore.
    return parent.isValid() && parent.column() == 0 && loader_->canExpand(nodeOf(parent));
}

void EntryTreeModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        loader_->expand(nodeOf(parent));
}

const EntryTreeModel::FileKind &EntryTreeModel::fileKind(int32_t node) const
{
    const QString name = pathText(tree().name(node).toByteArray());
    const qsizetype dot = name.indexOf(QLatin1Char('.'), 1);
    const QString key = dot < 0 ? name : name.mid(dot).toLower();
    auto it = kinds_.constFind(key);
    if (it != kinds_.constEnd())
        return *it;
    if (kinds_.size() > 4096)
        kinds_.clear(); // names without a suffix are keyed whole: keep the cache bounded
    static const QFileIconProvider provider;
    const QMimeType mime = mimes_.mimeTypeForFile(name, QMimeDatabase::MatchExtension);
    FileKind kind;
    kind.comment = mime.isDefault() ? QString() : mime.comment();
    kind.icon = QIcon::fromTheme(mime.iconName(), QIcon::fromTheme(mime.genericIconName(), provider.icon(QFileIconProvider::File)));
    return *kinds_.insert(key, kind);
}

QString EntryTreeModel::partitionTitle(int32_t node) const
{
    // "p1 — FIXTURE-FAT32": the GPT partition name when it has one, else what it holds.
    const QString name = pathText(tree().name(node).toByteArray());
    const QString detail = QString::fromUtf8(tree().detail(node));
    const qsizetype open = detail.indexOf(QLatin1Char('"'));
    const qsizetype close = open < 0 ? -1 : detail.indexOf(QLatin1Char('"'), open + 1);
    if (close > open + 1)
        return name + QStringLiteral(" — ") + detail.mid(open + 1, close - open - 1);
    const qsizetype comma = detail.lastIndexOf(QStringLiteral(", "));
    return comma < 0 ? name : name + QStringLiteral(" — ") + detail.mid(comma + 2);
}

QString EntryTreeModel::typeText(int32_t node) const
{
    switch (tree().type(node)) {
    case EntryType::File: {
        const QString comment = fileKind(node).comment;
        return comment.isEmpty() ? tr("File") : comment;
    }
    case EntryType::Dir: return tr("Folder");
    case EntryType::Symlink: return tr("Symbolic link");
    case EntryType::Hardlink: return tr("Hard link");
    case EntryType::CharDev: return tr("Character device");
    case EntryType::BlockDev: return tr("Block device");
    case EntryType::Fifo: return tr("FIFO");
    case EntryType::Socket: return tr("Socket");
    case EntryType::Partition: {
        const QByteArray detail = tree().detail(node);
        return detail.isEmpty() ? tr("Partition") : tr("Partition: %1").arg(QString::fromUtf8(detail));
    }
    }
    return {};
}

QVariant EntryTreeModel::icon(int32_t node) const
{
    static const QFileIconProvider provider;
    switch (tree().type(node)) {
    case EntryType::Dir: return provider.icon(QFileIconProvider::Folder);
    case EntryType::Symlink:
    case EntryType::Hardlink: return QApplication::style()->standardIcon(QStyle::SP_FileLinkIcon);
    case EntryType::Partition: return provider.icon(QFileIconProvider::Drive);
    default: break;
    }
    const FileKind &kind = fileKind(node);
    // An opened or openable container without a themed icon of its own looks like a folder.
    if (kind.comment.isEmpty() && (tree().isLayerRoot(node) || loader_->looksNested(node)))
        return provider.icon(QFileIconProvider::Folder);
    return kind.icon;
}

QVariant EntryTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const int32_t node = nodeOf(index);
    const EntryTree &t = tree();
    const EntryType type = t.type(node);
    const bool isFile = type == EntryType::File || type == EntryType::Partition;
    const uint64_t size = t.contentSize(node);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name: return type == EntryType::Partition ? partitionTitle(node) : pathText(t.name(node).toByteArray());
        case Size:
            if (isFile)
                return size == kUnknown ? tr("unknown") : sizeLabel(size);
            // A folder counts what it holds, once that is known (not for a folder read on expansion).
            if (type == EntryType::Dir && !loader_->canExpand(node))
                return countText(uint64_t(t.childCount(node)), tr("%n item"), tr("%n items"));
            return {};
        case Compressed: {
            const uint64_t packed = t.compressedSize(node);
            return packed == kUnknown ? QVariant() : sizeLabel(packed);
        }
        case Type:
            return typeText(node) + (t.encrypted(node) ? tr(" (encrypted)") : QString()) + (t.unreadable(node) ? tr(" (unreadable)") : QString());
        case Modified:
            return t.hasMtime(node) ? QDateTime::fromSecsSinceEpoch(t.mtime(node)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QVariant();
        case Permissions: return t.synthesized(node) ? QVariant() : permissionText(type, t.mode(node));
        case Owner: {
            if (t.synthesized(node))
                return {};
            const QString user = t.uname(node).isEmpty() ? QString::number(t.uid(node)) : QString::fromUtf8(t.uname(node));
            const QString group = t.gname(node).isEmpty() ? QString::number(t.gid(node)) : QString::fromUtf8(t.gname(node));
            return user + QLatin1Char('/') + group;
        }
        case LinkTarget: {
            const QByteArray target = t.target(node);
            return target.isEmpty() ? QVariant() : pathText(target);
        }
        }
        return {};
    case Qt::DecorationRole:
        return index.column() == Name ? icon(node) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Size || index.column() == Compressed ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        // The full text of cells that are often cut (the Type of a partition names its GUID).
        return index.column() == Name ? t.spec(node) : index.column() == Type ? data(index, Qt::DisplayRole)
                                                                              : QVariant();
    case SortRole:
        switch (index.column()) {
        case Name: return pathText(t.name(node).toByteArray());
        case Size: return isFile ? qulonglong(size == kUnknown ? 0 : size) : qulonglong(0);
        case Compressed: {
            const uint64_t packed = t.compressedSize(node);
            return packed == kUnknown ? qulonglong(0) : qulonglong(packed);
        }
        case Modified: return qlonglong(t.mtime(node));
        default: return data(index, Qt::DisplayRole);
        }
    case NodeRole:
        return node;
    case IsDirRole:
        return type == EntryType::Dir || t.isLayerRoot(node);
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
    if (nodes.isEmpty())
        return nullptr;
    // Extracted when the drop target asks for the files, not when the drag starts.
    QPointer<const EntryTreeModel> model(this);
    return new DragExtractionData([model, nodes] {
        QStringList paths;
        if (model)
            Q_EMIT model->dragExtractionRequested(nodes, &paths);
        return paths;
    });
}

} // namespace asc::ui
