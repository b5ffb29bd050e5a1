// SPDX-License-Identifier: MIT
#pragma once
// A thin QAbstractItemModel over the TreeLoader's EntryTree: rows arrive in batches from its
// listings; nested containers expand in place and folders read folder by folder are read when
// expanded, through canFetchMore/fetchMore (the loader runs the listing).

#include "open/tree_loader.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QIcon>
#include <QMimeDatabase>

namespace asc::ui {

class EntryTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name,
                  Size,
                  Compressed,
                  Type,
                  Modified,
                  Permissions,
                  Owner,
                  LinkTarget,
                  ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1,
                NodeRole,
                IsDirRole };

    // The model adapts `loader` (which must outlive it) and observes its tree.
    explicit EntryTreeModel(TreeLoader *loader, QObject *parent = nullptr);

    TreeLoader *loader() const { return loader_; }
    const EntryTree &tree() const { return loader_->tree(); }
    int32_t nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(int32_t node, int column = 0) const;

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
    // Drag-out: the window extracts these nodes to a temporary folder and returns the paths.
    void dragExtractionRequested(const QList<int32_t> &nodes, QStringList *paths) const;

private:
    int32_t insertingUnder_ = EntryTree::kRoot; // the folder rows are being inserted into
    struct FileKind {
        QString comment; // the MIME type's words, or "" for unknown
        QIcon icon;
    };
    // By name suffix, looked up once per suffix (MIME lookups are too slow for every cell).
    const FileKind &fileKind(int32_t node) const;
    QString typeText(int32_t node) const;
    QString partitionTitle(int32_t node) const;
    QVariant icon(int32_t node) const;

    TreeLoader *loader_;
    mutable QMimeDatabase mimes_;
    mutable QHash<QString, FileKind> kinds_;
};

} // namespace asc::ui
