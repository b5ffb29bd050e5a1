// SPDX-License-Identifier: MIT
#pragma once
// A thin QAbstractItemModel over EntryTree. Rows arrive in batches from a listing worker; nested
// archives expand in place, and folders of containers read folder by folder are read when expanded,
// through canFetchMore/fetchMore (the window runs the listing).

#include "vfs/entry_tree.h"

#include <QAbstractItemModel>
#include <QMimeDatabase>

namespace asc::ui {

class EntryTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Size, Compressed, Type, Modified, Permissions, Owner, LinkTarget, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, NodeRole, IsDirRole };

    explicit EntryTreeModel(QObject *parent = nullptr);

    void clear();
    // Adds a container's layer under `parent` (invalid = top level) and returns its index.
    int32_t addLayer(ContainerPtr container, const QString &spec, const QModelIndex &parent = {});
    void appendEntries(int32_t layer, std::vector<Entry> entries);

    const EntryTree &tree() const { return tree_; }
    int32_t nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(int32_t node, int column = 0) const;
    // Whether a file looks like an archive that can be expanded in place (by name; opening decides).
    bool looksNested(int32_t node) const;
    // Whether a folder's children are read when it is expanded (filesystems), and not read yet.
    bool unreadFolder(int32_t node) const;
    // Whether a listing of this folder's children was started (by expanding it or by reading the
    // rest of its layer); layer roots count as started.
    bool folderListingStarted(int32_t node) const;
    // The children of `node` come from reading the rest of its layer: no listing on expansion.
    void markFolderListed(int32_t node);
    void markExpansionFailed(int32_t node);
    // The nested archive or folder at `node` has been listed completely.
    void markExpanded(int32_t node);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;

Q_SIGNALS:
    // The view wants a nested archive's children (the window opens and lists it) or an unread
    // folder's (the window lists that folder).
    void expansionRequested(int32_t node);
    // Drag-out: the window extracts these nodes to a temporary folder and returns the paths.
    void dragExtractionRequested(const QList<int32_t> &nodes, QStringList *paths) const;

private:
    QString typeText(const Entry &entry) const;
    QVariant icon(const Entry &entry, int32_t node) const;

    EntryTree tree_;
    QSet<int32_t> expansionStarted_;
    QSet<int32_t> expanded_;
    QSet<int32_t> expansionFailed_;
    mutable QMimeDatabase mimes_;
};

} // namespace asc::ui
