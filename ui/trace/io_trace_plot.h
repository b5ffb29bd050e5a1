// SPDX-License-Identifier: MIT
#pragma once
// A trace drawn over the file: a strip of the file with every read placed at its offset
// (coloured by layer, or by time), a timeline (offset against time: the order of the reads, the
// seeks as jumps), and the requests by size. Hover names the read under the cursor; the wheel
// zooms into a range of the file, a double-click shows it whole. Renders the same to PNG/SVG.

#include "io_trace.h"

#include <QWidget>

namespace asc::ui {

class IoTracePlot : public QWidget {
    Q_OBJECT
public:
    explicit IoTracePlot(QWidget *parent = nullptr);
    void setTrace(const IoTrace *trace);
    void setFile(int file); // which file of the trace is drawn
    int file() const { return file_; }
    void setColourByTime(bool byTime);
    // The offsets shown (zoom); the whole file by default.
    void setRange(uint64_t from, uint64_t to);
    std::pair<uint64_t, uint64_t> range() const { return {from_, to_}; }
    // The read under a point of the strip or the timeline, or -1.
    int recordAt(QPoint point) const;
    QColor layerColour(const QString &layer) const;

    void render(QPainter &painter, QRect area) const;
    QSize sizeHint() const override { return {900, 460}; }

protected:
    void paintEvent(QPaintEvent *) override;
    bool event(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    struct Areas {
        QRect legend, strip, timeline, histogram;
    };
    Areas layout(QRect area) const;
    double xOfOffset(uint64_t offset, QRect strip) const;
    double yOfOffset(uint64_t offset, QRect timeline) const;
    double xOfTime(int64_t tNs, QRect timeline) const;
    QColor colourOf(const TraceRecord &r) const;

    const IoTrace *trace_ = nullptr;
    int file_ = 0;
    bool byTime_ = false;
    uint64_t from_ = 0;
    uint64_t to_ = 1;
    QStringList layers_;
};

} // namespace asc::ui
