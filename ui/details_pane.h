// SPDX-License-Identifier: MIT
#pragma once
// The selected entry: every metadata field and format extra, and a hex view of its first 64 KiB
// (read on a worker thread; a newer selection drops older reads).

#include "open/inspection.h"
#include "vfs/entry_tree.h"

#include <QWidget>

class QTextBrowser;

namespace asc::ui {

class AllocationMap;
class HexView;

class DetailsPane : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPane(QWidget *parent = nullptr);
    // Shows the opened file itself (no entry selected).
    void showSource(const Inspection &source);
    void showNode(const EntryTree &tree, int32_t node);
    HexView *hexView() const { return hex_; }
    AllocationMap *allocationMap() const { return map_; }
    QString text() const;

private:
    QTextBrowser *fields_;
    HexView *hex_;
    AllocationMap *map_;
    quint64 generation_ = 0;
};

} // namespace asc::ui
