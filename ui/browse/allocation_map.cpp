// SPDX-License-Identifier: MIT
#include "allocation_map.h"

#include "io/units.h"

#include <QEvent>
#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <QPainter>
#include <array>

namespace asc::ui {

static const char *kNames[] = {QT_TRANSLATE_NOOP("AllocationMap", "data"), QT_TRANSLATE_NOOP("AllocationMap", "compressed"),
                               QT_TRANSLATE_NOOP("AllocationMap", "zero"), QT_TRANSLATE_NOOP("AllocationMap", "unallocated"),
                               QT_TRANSLATE_NOOP("AllocationMap", "from backing file")};

AllocationMap::AllocationMap(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

AllocationMap::Category AllocationMap::categoryOf(const DiskExtent &e)
{
    if (!e.present)
        return Unallocated;
    if (e.depth > 0 && e.data)
        return Backing;
    if (e.compressed)
        return Compressed;
    if (e.data)
        return Data;
    return Zero;
}

void AllocationMap::setExtents(const std::vector<DiskExtent> &extents, uint64_t diskSize)
{
    extents_ = extents;
    size_ = diskSize;
    std::fill(std::begin(totals_), std::end(totals_), 0);
    for (const DiskExtent &e : extents_)
        totals_[categoryOf(e)] += e.length;
    setVisible(true);
    update();
}

void AllocationMap::clear()
{
    extents_.clear();
    size_ = 0;
    setVisible(false);
}

QSize AllocationMap::sizeHint() const
{
    return {400, fontMetrics().height() * 3 + 12};
}

QSize AllocationMap::minimumSizeHint() const
{
    return {120, fontMetrics().height() * 3 + 12};
}

QColor AllocationMap::colour(Category category) const
{
    // Distinct roles of the current palette, so light and dark themes both read well.
    const QPalette &p = palette();
    switch (category) {
    case Data: return p.color(QPalette::Highlight);
    case Compressed: return p.color(QPalette::Link);
    case Zero: return p.color(QPalette::Mid);
    case Unallocated: return p.color(QPalette::Base);
    case Backing: return p.color(QPalette::LinkVisited);
    case CategoryCount: break;
    }
    return p.color(QPalette::Text);
}

void AllocationMap::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const int stripHeight = fontMetrics().height() + 4;
    const QRect strip(0, 0, width() - 1, stripHeight);
    painter.fillRect(strip, colour(Unallocated));
    if (size_ > 0) {
        // One pixel column per bucket: the category holding most bytes of it wins.
        const int columns = std::max(1, strip.width());
        std::vector<std::array<uint64_t, CategoryCount>> buckets{size_t(columns)};
        for (auto &b : buckets)
            b.fill(0);
        const double perColumn = double(size_) / columns;
        for (const DiskExtent &e : extents_) {
            const Category c = categoryOf(e);
            uint64_t at = e.start;
            const uint64_t end = e.start + e.length;
            while (at < end) {
                const int column = std::min(columns - 1, int(double(at) / perColumn));
                const uint64_t columnEnd = std::min<uint64_t>(end, uint64_t(double(column + 1) * perColumn) + 1);
                buckets[size_t(column)][c] += std::max<uint64_t>(1, columnEnd - at);
                at = std::max(at + 1, columnEnd);
            }
        }
        for (int x = 0; x < columns; ++x) {
            const auto &b = buckets[size_t(x)];
            const auto best = std::max_element(b.begin(), b.end());
            if (*best == 0)
                continue;
            painter.setPen(colour(Category(best - b.begin())));
            painter.drawLine(x, 1, x, stripHeight - 1);
        }
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(strip);
    // Legend: a swatch and bytes per category.
    int x = 0;
    const int y = stripHeight + 6;
    const int box = fontMetrics().height() - 4;
    for (int c = 0; c < CategoryCount; ++c) {
        if (totals_[c] == 0)
            continue;
        painter.fillRect(QRect(x, y + 2, box, box), colour(Category(c)));
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawRect(QRect(x, y + 2, box, box));
        painter.setPen(palette().color(QPalette::WindowText));
        const QString label = tr(kNames[c]) + QStringLiteral(" ") + sizeLabel(totals_[c]);
        painter.drawText(QPoint(x + box + 4, y + fontMetrics().ascent()), label);
        x += box + 12 + fontMetrics().horizontalAdvance(label);
    }
}

static QString offsetText(uint64_t offset)
{
    return QStringLiteral("0x%1 (%2)").arg(offset, 0, 16).arg(sizeLabel(offset));
}

QString AllocationMap::describeColumn(int x) const
{
    const int columns = std::max(1, width() - 1);
    if (size_ == 0 || x < 0 || x >= columns)
        return {};
    const double perColumn = double(size_) / columns;
    const uint64_t from = uint64_t(double(x) * perColumn);
    const uint64_t to = std::min(size_, std::max(from + 1, uint64_t(double(x + 1) * perColumn)));
    QStringList lines{tr("Disk bytes %1 – %2").arg(offsetText(from), offsetText(to))};
    // The extents overlapping the column (sorted by start): at most a few named, then a count.
    const auto first = std::partition_point(extents_.begin(), extents_.end(), [&](const DiskExtent &e) { return e.start + e.length <= from; });
    int shown = 0, more = 0;
    for (auto e = first; e != extents_.end() && e->start < to; ++e) {
        if (shown == 4) {
            ++more;
            continue;
        }
        ++shown;
        QString line = tr("%1 from %2, %3").arg(tr(kNames[categoryOf(*e)]), offsetText(e->start), sizeLabel(e->length));
        if (e->offset)
            line += e->depth == 0 ? tr(", at file offset %1").arg(offsetText(*e->offset))
                                  : tr(", at offset %1 of backing file %2").arg(offsetText(*e->offset)).arg(e->depth);
        lines << line;
    }
    if (more)
        lines << tr("and %n more extent(s)", nullptr, more);
    if (shown == 0)
        lines << tr(kNames[Unallocated]);
    return lines.join(QLatin1Char('\n'));
}

bool AllocationMap::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString text = help->pos().y() <= fontMetrics().height() + 4 ? describeColumn(help->pos().x()) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void AllocationMap::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        update();
    QWidget::changeEvent(event);
}

} // namespace asc::ui
