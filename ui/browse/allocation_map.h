// SPDX-License-Identifier: MIT
#pragma once
// A strip of the virtual disk coloured by what each part holds: data, compressed data, zeros,
// unallocated, or data from a backing file. Colours come from the palette.

#include "open/disk_map.h"

#include <QWidget>

namespace asc::ui {

class AllocationMap : public QWidget {
    Q_OBJECT
public:
    enum Category { Data,
                    Compressed,
                    Zero,
                    Unallocated,
                    Backing,
                    CategoryCount };

    explicit AllocationMap(QWidget *parent = nullptr);
    void setExtents(const std::vector<DiskExtent> &extents, uint64_t diskSize);
    void clear();
    // Bytes per category (for the legend and for tests).
    uint64_t bytes(Category category) const { return totals_[category]; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    static Category categoryOf(const DiskExtent &extent);
    // The tooltip for pixel column `x` of the strip: the disk offsets it stands for and what the
    // extents there hold, with their own offsets (empty past the strip or without a disk).
    QString describeColumn(int x) const;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QColor colour(Category category) const;
    std::vector<DiskExtent> extents_;
    uint64_t size_ = 0;
    uint64_t totals_[CategoryCount] = {};
};

} // namespace asc::ui
