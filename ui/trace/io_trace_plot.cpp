// SPDX-License-Identifier: MIT
#include "io_trace_plot.h"

#include "io/units.h"

#include <QFileInfo>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <map>

namespace asc::ui {

IoTracePlot::IoTracePlot(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(480, 360);
}

void IoTracePlot::setTrace(const IoTrace *trace)
{
    trace_ = trace;
    layers_ = trace ? trace->layers() : QStringList();
    // The file that was read most, first.
    file_ = 0;
    if (trace) {
        std::vector<uint64_t> bytes(size_t(trace->files.size()));
        for (const TraceRecord &r : trace->records)
            bytes[size_t(r.file)] += r.length;
        if (!bytes.empty())
            file_ = int(std::max_element(bytes.begin(), bytes.end()) - bytes.begin());
    }
    setFile(file_);
}

void IoTracePlot::setFile(int file)
{
    file_ = file;
    uint64_t end = 1;
    if (trace_) {
        if (size_t(file) < trace_->fileSizes.size())
            end = std::max<uint64_t>(end, trace_->fileSizes[size_t(file)]);
        for (const TraceRecord &r : trace_->records)
            if (r.file == file)
                end = std::max(end, r.offset + r.length);
    }
    setRange(0, end);
}

void IoTracePlot::setColourByTime(bool byTime)
{
    byTime_ = byTime;
    update();
}

void IoTracePlot::setRange(uint64_t from, uint64_t to)
{
    from_ = from;
    to_ = std::max(to, from + 1);
    update();
}

QColor IoTracePlot::layerColour(const QString &layer) const
{
    static const char *palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
    const qsizetype i = layers_.indexOf(layer);
    return QColor(QLatin1String(palette[size_t(std::max<qsizetype>(0, i)) % std::size(palette)]));
}

QColor IoTracePlot::colourOf(const TraceRecord &r) const
{
    if (!byTime_)
        return layerColour(QString::fromUtf8(r.layer));
    const double f = trace_->durationNs() > 0 ? double(r.tNs) / double(trace_->durationNs()) : 0;
    return QColor::fromHsvF(0.66 * (1 - f), 0.85, 0.85); // blue (first) to red (last)
}

IoTracePlot::Areas IoTracePlot::layout(QRect area) const
{
    const int margin = 12;
    const QRect inner = area.adjusted(70, margin, -margin, -margin);
    Areas a;
    a.legend = QRect(inner.left(), inner.top(), inner.width(), 22);
    a.strip = QRect(inner.left(), a.legend.bottom() + 22, inner.width(), 48);
    const int rest = inner.bottom() - a.strip.bottom() - 40;
    a.timeline = QRect(inner.left(), a.strip.bottom() + 30, inner.width(), rest * 62 / 100);
    // Room under the bars for their size labels and the axis title.
    a.histogram = QRect(inner.left(), a.timeline.bottom() + 40, inner.width(), inner.bottom() - a.timeline.bottom() - 40 - 34);
    return a;
}

double IoTracePlot::xOfOffset(uint64_t offset, QRect strip) const
{
    const double f = (double(offset) - double(from_)) / double(to_ - from_);
    return strip.left() + f * strip.width();
}

double IoTracePlot::yOfOffset(uint64_t offset, QRect timeline) const
{
    const double f = (double(offset) - double(from_)) / double(to_ - from_);
    return timeline.top() + f * timeline.height();
}

double IoTracePlot::xOfTime(int64_t tNs, QRect timeline) const
{
    return timeline.left() + double(tNs) / std::max<double>(1, double(trace_->durationNs())) * timeline.width();
}

void IoTracePlot::render(QPainter &p, QRect area) const
{
    const QPalette pal = palette();
    p.fillRect(area, pal.color(QPalette::Base));
    p.setPen(pal.color(QPalette::Text));
    if (!trace_ || trace_->records.empty()) {
        p.drawText(area, Qt::AlignCenter, tr("No reads were recorded."));
        return;
    }
    const Areas a = layout(area);
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    p.setFont(small);
    const QFontMetrics fm(small);

    // Legend: the layers, or the time scale.
    int x = a.legend.left();
    const QString fileName = QFileInfo(trace_->files.value(file_)).fileName();
    const QString title = QStringLiteral("%1 — %2, %3 of %4 shown").arg(trace_->title, fileName, sizeLabel(to_ - from_), sizeLabel(size_t(file_) < trace_->fileSizes.size() ? trace_->fileSizes[size_t(file_)] : 0));
    p.drawText(QRect(area.left() + 8, a.legend.top() - 2, area.width() - 16, 18), Qt::AlignLeft | Qt::AlignVCenter, title);
    const int legendY = a.legend.top() + 20;
    if (byTime_) {
        for (int i = 0; i < 100; ++i)
            p.fillRect(QRect(x + i, legendY, 1, 10), QColor::fromHsvF(0.66 * (1 - i / 99.0), 0.85, 0.85));
        p.drawText(x + 106, legendY + 10, tr("first read → last read (%1 ms)").arg(double(trace_->durationNs()) / 1e6, 0, 'f', 1));
    } else {
        for (const QString &layer : layers_) {
            p.fillRect(QRect(x, legendY, 10, 10), layerColour(layer));
            p.drawText(x + 14, legendY + 10, layer);
            x += 14 + fm.horizontalAdvance(layer) + 16;
        }
    }

    // The file strip: every read of this file at its offset.
    p.drawText(QRect(area.left(), a.strip.top(), a.strip.left() - area.left() - 6, a.strip.height()), Qt::AlignRight | Qt::AlignVCenter, tr("file"));
    p.fillRect(a.strip, pal.color(QPalette::AlternateBase));
    for (const TraceRecord &r : trace_->records) {
        if (r.file != file_ || r.offset + r.length <= from_ || r.offset >= to_)
            continue;
        const double x0 = std::max<double>(a.strip.left(), xOfOffset(r.offset, a.strip));
        const double x1 = std::min<double>(a.strip.right(), xOfOffset(r.offset + r.length, a.strip));
        QColor c = colourOf(r);
        c.setAlpha(170);
        p.fillRect(QRectF(x0, a.strip.top(), std::max(1.0, x1 - x0), a.strip.height()), c);
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(a.strip);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(a.strip.left(), a.strip.bottom() + 14, QString::number(from_));
    const QString end = QString::number(to_);
    p.drawText(a.strip.right() - fm.horizontalAdvance(end), a.strip.bottom() + 14, end);

    // The timeline: offset (down) against time (right).
    const double duration = std::max<double>(1, double(trace_->durationNs()));
    p.fillRect(a.timeline, pal.color(QPalette::AlternateBase));
    p.save();
    p.translate(area.left() + 14, a.timeline.center().y());
    p.rotate(-90);
    p.drawText(QRect(-a.timeline.height() / 2, -10, a.timeline.height(), 20), Qt::AlignCenter, tr("offset"));
    p.restore();
    for (const TraceRecord &r : trace_->records) {
        if (r.file != file_ || r.offset + r.length <= from_ || r.offset >= to_)
            continue;
        const double tx = xOfTime(r.tNs, a.timeline);
        const double y0 = std::max<double>(a.timeline.top(), yOfOffset(r.offset, a.timeline));
        const double y1 = std::min<double>(a.timeline.bottom(), yOfOffset(r.offset + r.length, a.timeline));
        p.fillRect(QRectF(tx - 1.5, y0, 3, std::max(2.0, y1 - y0)), colourOf(r));
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(a.timeline);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(a.timeline.left(), a.timeline.bottom() + 14, QStringLiteral("0 ms"));
    const QString last = tr("%1 ms (time →)").arg(duration / 1e6, 0, 'f', 1);
    p.drawText(a.timeline.right() - fm.horizontalAdvance(last), a.timeline.bottom() + 14, last);

    // Requests by size: powers of two.
    std::map<int, int> buckets;
    for (const TraceRecord &r : trace_->records) {
        if (r.file != file_)
            continue;
        int k = 0;
        while ((uint64_t(1) << k) < r.length && k < 40)
            ++k;
        ++buckets[k];
    }
    if (!buckets.empty() && a.histogram.height() > 20) {
        const int lo = buckets.begin()->first, hi = buckets.rbegin()->first;
        const int n = hi - lo + 1;
        int most = 1;
        for (const auto &[k, count] : buckets)
            most = std::max(most, count);
        const double w = double(a.histogram.width()) / n;
        p.drawText(QRect(area.left(), a.histogram.top(), a.histogram.left() - area.left() - 6, 16), Qt::AlignRight, tr("reads"));
        for (int k = lo; k <= hi; ++k) {
            const int count = buckets.count(k) ? buckets[k] : 0;
            const double h = double(count) / most * (a.histogram.height() - 14);
            const QRectF bar(a.histogram.left() + (k - lo) * w + 2, a.histogram.bottom() - h, w - 4, h);
            p.fillRect(bar, pal.color(QPalette::Highlight));
            if (count)
                p.drawText(QRectF(bar.left(), bar.top() - 14, bar.width(), 14), Qt::AlignCenter, QString::number(count));
            p.drawText(QRectF(a.histogram.left() + (k - lo) * w, a.histogram.bottom() + 2, w, 14), Qt::AlignCenter, sizeLabel(uint64_t(1) << k));
        }
        p.drawText(a.histogram.left(), a.histogram.bottom() + 30, tr("request size (up to)"));
    }
}

void IoTracePlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    render(p, rect());
}

int IoTracePlot::recordAt(QPoint point) const
{
    if (!trace_)
        return -1;
    const Areas a = layout(rect());
    int best = -1;
    double bestDistance = 1e9;
    for (size_t i = 0; i < trace_->records.size(); ++i) {
        const TraceRecord &r = trace_->records[i];
        if (r.file != file_)
            continue;
        if (a.strip.contains(point)) {
            // The last read covering the offset under the cursor.
            const double x0 = xOfOffset(r.offset, a.strip), x1 = xOfOffset(r.offset + r.length, a.strip);
            if (point.x() >= x0 - 1 && point.x() <= std::max(x0 + 1, x1))
                best = int(i);
        } else if (a.timeline.contains(point)) {
            const double tx = xOfTime(r.tNs, a.timeline);
            const double y0 = yOfOffset(r.offset, a.timeline);
            const double y1 = yOfOffset(r.offset + r.length, a.timeline);
            const double dy = point.y() < y0 ? y0 - point.y() : point.y() > y1 ? point.y() - y1
                                                                               : 0;
            const double d = std::abs(tx - point.x()) + dy;
            if (d < bestDistance && d < 8) {
                bestDistance = d;
                best = int(i);
            }
        }
    }
    return best;
}

bool IoTracePlot::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && trace_) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int i = recordAt(help->pos());
        if (i < 0) {
            QToolTip::hideText();
        } else {
            const TraceRecord &r = trace_->records[size_t(i)];
            QToolTip::showText(help->globalPos(), tr("read %1 of %2\n%3 at offset %4\n%5 ms, thread %6\n%7").arg(i + 1).arg(trace_->records.size()).arg(sizeLabel(r.length)).arg(r.offset).arg(double(r.tNs) / 1e6, 0, 'f', 3).arg(r.thread).arg(QString::fromUtf8(r.layer)),
                               this);
        }
        return true;
    }
    return QWidget::event(event);
}

void IoTracePlot::wheelEvent(QWheelEvent *event)
{
    const Areas a = layout(rect());
    // Zoom around the offset under the cursor (strip: x; timeline: y).
    double f = 0.5;
    if (a.strip.contains(event->position().toPoint()))
        f = (event->position().x() - a.strip.left()) / a.strip.width();
    else if (a.timeline.contains(event->position().toPoint()))
        f = (event->position().y() - a.timeline.top()) / a.timeline.height();
    const double span = double(to_ - from_);
    const double scale = event->angleDelta().y() > 0 ? 0.5 : 2.0;
    const double center = double(from_) + f * span;
    const double newSpan = std::max(64.0, span * scale);
    const double start = std::max(0.0, center - f * newSpan);
    setRange(uint64_t(start), uint64_t(start + newSpan));
    event->accept();
}

void IoTracePlot::mouseDoubleClickEvent(QMouseEvent *)
{
    setFile(file_);
}

} // namespace asc::ui
