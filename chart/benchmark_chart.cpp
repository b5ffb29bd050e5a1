// SPDX-License-Identifier: MIT
#include "benchmark_chart.h"

#include "bench/bench_defaults.h"
#include "io/atomic_file.h"
#include "io/units.h"

#include <QApplication>
#include <QAreaSeries>
#include <QBuffer>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPdfWriter>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QToolTip>
#include <QValueAxis>
#include <cmath>
#include <map>

namespace asc::ui {

namespace {

// The throughput axis: 0 to the first round step above the top, at most 8 steps. Qt's
// applyNiceNumbers() starts from the axis's current tick count, so the same data charted
// after another run got another axis (a 5,800 maximum ran to 10,000 with 3 ticks).
void setThroughputRange(QValueAxis *y, double top)
{
    if (!(top > 0))
        top = 1;
    // The smallest round step (1, 2 or 5 times a power of ten) that covers the top in 8 steps.
    const double magnitude = std::pow(10.0, std::floor(std::log10(top / 8)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 5.0})
        if (std::ceil(top / (m * magnitude) - 1e-9) <= 8) {
            step = m * magnitude;
            break;
        }
    const int steps = std::max(1, int(std::ceil(top / step - 1e-9)));
    y->setRange(0, steps * step);
    y->setTickCount(steps + 1);
}

} // namespace

BenchmarkChart::BenchmarkChart(QObject *parent)
    : QObject(parent),
      chart_(new QChart)
{
    chart_->setAnimationOptions(QChart::NoAnimation);
    chart_->legend()->setAlignment(Qt::AlignBottom);
    // A narrow chart cuts legend labels ("pxar-acces…" for two strategies): hovering one shows
    // its whole name.
    chart_->legend()->setShowToolTips(true);
    // Buffer labels ("128 KiB") that no longer fit side by side turn instead of being cut to
    // "128 …" (small windows, the legend on the right).
    connect(chart_, &QChart::plotAreaChanged, this, [this](const QRectF &area) {
        const auto horizontal = chart_->axes(Qt::Horizontal);
        auto *x = horizontal.isEmpty() ? nullptr : qobject_cast<QCategoryAxis *>(horizontal.first());
        if (!x || x->count() == 0)
            return;
        const double perLabel = area.width() / x->count();
        // Level, slanted, upright: each needs less room per label than the one before. The gaps
        // between thresholds keep the relayout this causes from flipping back.
        int angle = x->labelsAngle();
        if (angle == 0 && perLabel < 58)
            angle = perLabel < 26 ? -90 : -40;
        else if (angle == -40 && (perLabel > 72 || perLabel < 26))
            angle = perLabel > 72 ? 0 : -90;
        else if (angle == -90 && perLabel > 34)
            angle = perLabel > 72 ? 0 : -40;
        if (angle != x->labelsAngle()) {
            x->setLabelsAngle(angle);
            x->setTruncateLabels(angle == 0); // turned labels have the room they need ("…" otherwise)
        }
    });
    connect(chart_, &QGraphicsWidget::geometryChanged, this, &BenchmarkChart::fitLegend);
    // The title reads as one: larger than the tick labels (it was drawn at their size).
    QFont titleFont = QApplication::font();
    titleFont.setPointSizeF(QFontInfo(titleFont).pointSizeF() * 1.35);
    chart_->setTitleFont(titleFont);
    applyPalette();
    rebuild();
}

// Qt 6.4 lays a bottom legend out in one row and cuts every label to fit it ("c…", or no text at
// all for twenty strategies in a small window). Names that do not fit one row go on the right,
// one per line, in a smaller font when the column would be taller than the chart. Decided from
// the chart's size only, so the relayout it causes cannot flip it back.
void BenchmarkChart::fitLegend()
{
    QLegend *legend = chart_->legend();
    const QSizeF size = chart_->size();
    if (size.isEmpty())
        return;
    QFont font = QApplication::font();
    const QFontMetricsF metrics(font);
    // From the lines (the legend's markers are not visible yet while the chart is rebuilt).
    double row = 0;
    int shown = 0;
    for (QAbstractSeries *series : chart_->series()) {
        auto *line = qobject_cast<QLineSeries *>(series);
        if (!line || line->name().isEmpty())
            continue;
        ++shown;
        row += metrics.horizontalAdvance(line->name()) + metrics.height() * 2.5; // marker and gaps
    }
    const bool right = legendOnRight_ || row > size.width() - 40;
    const Qt::Alignment alignment = right ? Qt::AlignRight : Qt::AlignBottom;
    if (legend->alignment() != alignment)
        legend->setAlignment(alignment);
    if (right) {
        const double room = size.height() - 100; // title, axis title, margins
        double points = QFontInfo(font).pointSizeF();
        QFont smaller = font;
        smaller.setPointSizeF(points);
        // A legend row is the text's height and Qt's 2 x 4 px margins.
        while (points > 6.5 && shown * (QFontMetricsF(smaller).height() + 9) > room) {
            points -= 0.5;
            smaller.setPointSizeF(points);
        }
        font = smaller;
    }
    if (legend->font() != font)
        legend->setFont(font);
    for (QLegendMarker *marker : legend->markers()) {
        if (marker->font() != font)
            marker->setFont(font); // each marker keeps the font it was made with
    }
}

BenchmarkChart::~BenchmarkChart()
{
    // A view owns the chart once created; otherwise we do.
    if (chart_ && !chart_->scene())
        delete chart_.data();
}

QChartView *BenchmarkChart::createView(QWidget *parent)
{
    auto *view = new QChartView(chart_, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

void BenchmarkChart::applyPalette()
{
    const QPalette p = QApplication::palette();
    const bool dark = p.color(QPalette::Window).lightness() < 128;
    chart_->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart_->setBackgroundBrush(p.color(QPalette::Base));
    chart_->setTitleBrush(p.color(QPalette::Text));
    chart_->legend()->setLabelColor(p.color(QPalette::Text));
    fitLegend(); // the theme reset the legend's font
}

// Colours for the strategies of one chart: each its own (read and inflate-zlib shared one when
// colours went by group), and the same strategy the same colour in every run of the chart. Slots
// go to the chart's strategies in one fixed order, so the same sweep is coloured the same in
// every chart; commands and names we do not know come after, by name.
static std::map<QString, QColor> coloursOf(std::vector<QString> strategies, bool dark)
{
    // None pale enough to vanish on a white chart.
    static const char *palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                                    "#7f7f7f", "#bcbd22", "#17becf", "#000075", "#800000", "#469990", "#f032e6",
                                    "#808000", "#e6ab02", "#000000", "#fa8072", "#4b0082", "#00c853"};
    static const char *order[] = {"read", "pread", "mmap", "stdio", "stdio-default", "qfile", "direct", "fadvise-seq", "source",
                                  "uring-qd1", "uring-qd4", "uring-qd16", "buffered-stream-copy", "buffered-stream-zero-copy",
                                  "pxar-decoder-sync", "pxar-decoder-async", "pxar-accessor-sync", "pxar-accessor-async", "copy",
                                  "copy-fsync", "inflate-zlib", "inflate-isal", "inflate-isal-pieces", "inflate-libdeflate",
                                  "xz-1thread", "xz-mt", "zstd", "bzip2-1thread", "bzip2-mt", "lz4", "lzop"};
    auto rank = [](const QString &name) {
        for (size_t i = 0; i < std::size(order); ++i)
            if (name == QLatin1String(order[i]))
                return i;
        return std::size(order);
    };
    std::sort(strategies.begin(), strategies.end(), [&](const QString &a, const QString &b) {
        return std::make_pair(rank(a), a) < std::make_pair(rank(b), b);
    });
    strategies.erase(std::unique(strategies.begin(), strategies.end()), strategies.end());
    std::map<QString, QColor> colours;
    for (size_t i = 0; i < strategies.size(); ++i) {
        // More strategies than the palette holds: evenly spread hues, still one each.
        const QColor colour = i < std::size(palette) ? QColor(QLatin1String(palette[i]))
                                                     : QColor::fromHsv(int((i * 360) / strategies.size()), 200, 190);
        colours[strategies[i]] = dark ? colour.lighter(140) : colour;
    }
    return colours;
}

void BenchmarkChart::setResults(const std::vector<std::pair<QString, BenchResult>> &results)
{
    results_ = results;
    rebuild();
}

void BenchmarkChart::addPoint(const BenchPoint &point, const BenchConfig &config)
{
    if (results_.empty()) {
        results_.push_back({QString(), BenchResult()});
    }
    BenchResult &live = results_.front().second;
    // The running sweep's own settings: its band note counted a default 5 runs for a 3-run sweep.
    const bool sameSettings = live.config.runs == config.runs && live.config.passes == config.passes;
    live.config = config;
    live.points.push_back(point);
    // A point of a series already drawn joins it: its line, its band, and the axes if it widens
    // them. Rebuilding every series for each point made a 78-point sweep redraw 3,000 points.
    auto series = liveSeries_.find({point.strategy, point.pass});
    if (results_.size() != 1 || writes_ || !sameSettings || series == liveSeries_.end()) {
        rebuild();
        return;
    }
    LiveSeries &drawn = series->second;
    auto at = std::upper_bound(drawn.points->begin(), drawn.points->end(), point.buffer, [](uint64_t b, const BenchPoint &p) { return b < p.buffer; });
    const int index = int(at - drawn.points->begin());
    drawn.points->insert(at, point);
    const double lx = std::log2(double(point.buffer));
    drawn.line->insert(index, QPointF(lx, point.mibps.mean));
    drawn.upper->insert(index, QPointF(lx, point.mibps.max));
    drawn.lower->insert(index, QPointF(lx, point.mibps.min));
    fitAxes();
}
void BenchmarkChart::clear()
{
    results_.clear();
    writes_.reset();
    rebuild();
}

void BenchmarkChart::setAmplification(const WriteBenchResult &result)
{
    results_.clear();
    writes_ = result;
    rebuild();
}

int BenchmarkChart::seriesCount() const
{
    int n = 0;
    for (auto *s : chart_->series())
        n += s->type() == QAbstractSeries::SeriesTypeLine ? 1 : 0;
    return n;
}

int BenchmarkChart::pointCount() const
{
    int n = 0;
    for (auto *s : chart_->series())
        if (auto *line = qobject_cast<QLineSeries *>(s); line && s->type() == QAbstractSeries::SeriesTypeLine)
            n += int(line->count());
    return n;
}

QStringList BenchmarkChart::axisLabels() const
{
    for (auto *axis : chart_->axes(Qt::Horizontal))
        if (auto *category = qobject_cast<QCategoryAxis *>(axis))
            return category->categoriesLabels();
    return {};
}

// The chart's two axes, kept from the last rebuild when they are of the right kind, with the x
// categories emptied. Reused rather than replaced: Qt 6.4 left a removed axis's labels in the
// scene, drawn under the new ones (tst_bench_panel counts the scene's text items).
template <typename YAxis>
std::pair<QCategoryAxis *, YAxis *> BenchmarkChart::axes()
{
    auto *x = chart_->axes(Qt::Horizontal).isEmpty() ? nullptr : qobject_cast<QCategoryAxis *>(chart_->axes(Qt::Horizontal).first());
    auto *y = chart_->axes(Qt::Vertical).isEmpty() ? nullptr : qobject_cast<YAxis *>(chart_->axes(Qt::Vertical).first());
    if (!x || !y) {
        for (QAbstractAxis *axis : chart_->axes()) {
            chart_->removeAxis(axis);
            delete axis;
        }
        x = new QCategoryAxis;
        x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        y = new YAxis;
        chart_->addAxis(x, Qt::AlignBottom);
        chart_->addAxis(y, Qt::AlignLeft);
    }
    for (const QString &label : x->categoriesLabels())
        x->remove(label);
    return {x, y};
}

// The axes for every point of every result: x is log2(bytes), labelled in KiB/MiB, over the
// buffer sizes present; y from 0 to just above the highest maximum.
std::pair<QCategoryAxis *, QValueAxis *> BenchmarkChart::fitAxes()
{
    std::vector<uint64_t> buffers;
    double maxRate = 0;
    for (const auto &[name, r] : results_)
        for (const BenchPoint &p : r.points) {
            buffers.push_back(p.buffer);
            maxRate = std::max(maxRate, p.mibps.max);
        }
    std::sort(buffers.begin(), buffers.end());
    buffers.erase(std::unique(buffers.begin(), buffers.end()), buffers.end());
    if (buffers.empty()) {
        // Before the first run: the axes of the default sweep, so the empty chart reads as one.
        for (uint64_t b = bench_defaults::kSmallestBuffer; b <= bench_defaults::kLargestBuffer; b *= 2)
            buffers.push_back(b);
        maxRate = 1000;
    }

    auto [x, y] = axes<QValueAxis>();
    x->setTitleText(tr("buffer size"));
    double xmin = buffers.empty() ? 12 : std::log2(double(buffers.front()));
    double xmax = buffers.empty() ? 24 : std::log2(double(buffers.back()));
    if (xmax <= xmin)
        xmax = xmin + 1;
    for (uint64_t b : buffers)
        x->append(sizeLabel(b), std::log2(double(b)));
    x->setRange(xmin - 0.3, xmax + 0.3);
    y->setTitleText(tr("throughput (MiB/s)"));
    setThroughputRange(y, maxRate * 1.04);
    y->setLabelFormat(QStringLiteral("%.0f"));

    return {x, y};
}

void BenchmarkChart::rebuild()
{
    chart_->removeAllSeries();
    liveSeries_.clear();
    // Overlaid runs and write strategies: the legend on the right, one full name per line
    // ("read — before", "write-N N=16 KiB"); set
    // before the axes are laid out.
    legendOnRight_ = results_.size() > 1 || writes_;
    chart_->legend()->setAlignment(legendOnRight_ ? Qt::AlignRight : Qt::AlignBottom);
    if (writes_) {
        rebuildAmplification();
        return;
    }

    auto [x, y] = fitAxes();
    const QPalette palette = QApplication::palette();
    const bool overlay = results_.size() > 1;
    std::vector<QString> strategies;
    for (const auto &[resultName, r] : results_)
        for (const BenchPoint &p : r.points)
            strategies.push_back(p.strategy);
    const std::map<QString, QColor> colours = coloursOf(std::move(strategies), palette.color(QPalette::Base).lightness() < 128);
    for (size_t run = 0; run < results_.size(); ++run) {
        const auto &[resultName, r] = results_[run];
        // One series per strategy and pass, points in buffer order.
        std::map<std::pair<QString, int>, std::vector<const BenchPoint *>> groups;
        for (const BenchPoint &p : r.points)
            groups[{p.strategy, p.pass}].push_back(&p);
        for (auto &[key, points] : groups) {
            std::sort(points.begin(), points.end(), [](const BenchPoint *a, const BenchPoint *b) { return a->buffer < b->buffer; });
            QString label = key.first;
            if (r.config.passes > 1)
                label += key.second == 1 ? tr(" (first pass)") : tr(" (pass %1)").arg(key.second);
            if (overlay)
                label += QStringLiteral(" — ") + resultName;
            auto *line = new QLineSeries;
            line->setName(label);
            line->setPointsVisible(true);
            auto *upper = new QLineSeries;
            auto *lower = new QLineSeries;
            for (const BenchPoint *p : points) {
                const double lx = std::log2(double(p->buffer));
                line->append(lx, p->mibps.mean);
                upper->append(lx, p->mibps.max);
                lower->append(lx, p->mibps.min);
            }
            // One colour per strategy in every run; runs differ by the line's dash.
            const QColor colour = colours.at(key.first);
            QPen pen(colour, 2);
            static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
            pen.setStyle(styles[run % std::size(styles)]);
            line->setPen(pen);
            auto *band = new QAreaSeries(upper, lower);
            QColor fill = colour;
            fill.setAlpha(50);
            band->setBrush(fill);
            band->setPen(Qt::NoPen);
            band->setName(label + tr(" min–max"));
            chart_->addSeries(band);
            chart_->addSeries(line);
            for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(band), static_cast<QAbstractSeries *>(line)}) {
                s->attachAxis(x);
                s->attachAxis(y);
            }
            // The band shares the legend entry of its line: hide its own marker.
            for (QLegendMarker *m : chart_->legend()->markers(band))
                m->setVisible(false);
            for (QLegendMarker *m : chart_->legend()->markers(line)) {
                connect(m, &QLegendMarker::clicked, line, [line, band, m] {
                    const bool visible = !line->isVisible();
                    line->setVisible(visible);
                    band->setVisible(visible);
                    m->setVisible(true);
                    // Showing a series shows its legend markers again: the band has none of its own.
                    for (QLegendMarker *bandMarker : m->series()->chart()->legend()->markers(band))
                        bandMarker->setVisible(false);
                    QFont f = m->font();
                    f.setStrikeOut(!visible);
                    m->setFont(f);
                });
            }
            // The series' own points (addPoint adds to them), for its tooltip.
            auto shown = std::make_shared<std::vector<BenchPoint>>();
            for (const BenchPoint *p : points)
                shown->push_back(*p);
            if (results_.size() == 1)
                liveSeries_[key] = LiveSeries{line, upper, lower, shown};
            connect(line, &QLineSeries::hovered, line, [shown, label](const QPointF &at, bool state) {
                if (!state)
                    return;
                const BenchPoint *nearest = nullptr;
                for (const BenchPoint &p : *shown)
                    if (!nearest || std::abs(std::log2(double(p.buffer)) - at.x()) < std::abs(std::log2(double(nearest->buffer)) - at.x()))
                        nearest = &p;
                if (nearest)
                    QToolTip::showText(QCursor::pos(), QStringLiteral("%1, %2\n%3 ± %4 MiB/s\n%5 … %6 MiB/s, %7 runs")
                                                           .arg(label, sizeLabel(nearest->buffer))
                                                           .arg(nearest->mibps.mean, 0, 'f', 1)
                                                           .arg(nearest->mibps.sd, 0, 'f', 1)
                                                           .arg(nearest->mibps.min, 0, 'f', 1)
                                                           .arg(nearest->mibps.max, 0, 'f', 1)
                                                           .arg(nearest->runs.size()));
            });
        }
    }
    if (!results_.empty()) {
        const BenchResult &r = results_.front().second;
        title_ = r.spec.isEmpty() ? tr("Read throughput by buffer size") : tr("Read throughput by buffer size — %1").arg(r.spec);
        description_ = tr("%1 (%2 bytes); runs %3 + %4 warm-up, cache %5, %6 pass(es); %7; %8")
                           .arg(r.spec)
                           .arg(r.targetBytes)
                           .arg(r.config.runs)
                           .arg(r.config.warmup)
                           .arg(cacheModeName(r.config.cache))
                           .arg(r.config.passes)
                           .arg(r.machine.value(QStringLiteral("cpu")).toString(), r.machine.value(QStringLiteral("kernel")).toString());
    } else {
        title_ = emptyTitle_.isEmpty() ? tr("Read throughput by buffer size") : emptyTitle_;
        description_.clear();
    }
    // The band is explained once, under the title (QChart titles are HTML). Compared runs are
    // told apart by their dash, so the note says which dash is which run, with its own count of
    // runs (one maximum over all of them once read "5 runs" for a 3-run sweep).
    static const char *const dashNames[] = {QT_TR_NOOP("solid"), QT_TR_NOOP("dashed"), QT_TR_NOOP("dotted"), QT_TR_NOOP("dash-dot"), QT_TR_NOOP("dash-dot-dot")};
    if (results_.size() == 1) {
        const int runs = results_.front().second.config.runs;
        bandNote_ = runs > 1 ? tr("line: mean · shaded band: min–max of %1 runs").arg(runs) : QString();
    } else if (results_.empty()) {
        bandNote_ = tr("line: mean, band: min–max");
    } else {
        QStringList parts;
        for (size_t i = 0; i < results_.size(); ++i) {
            const int runs = results_[i].second.config.runs;
            parts << tr("%1: %2 (%3)").arg(tr(dashNames[i % std::size(dashNames)]), results_[i].first.toHtmlEscaped(), runs == 1 ? tr("1 run") : tr("%1 runs").arg(runs));
        }
        bandNote_ = parts.join(QStringLiteral(" · ")) + tr(" · line: mean, band: min–max");
    }
    QString title = title_.toHtmlEscaped();
    if (!bandNote_.isEmpty())
        title += QStringLiteral("<br><small>") + bandNote_ + QStringLiteral("</small>");
    // What the runs found about a command (a buffer it ignores) belongs on its chart.
    QStringList notes;
    for (const auto &[name, r] : results_)
        for (const QString &note : r.notes)
            if (!notes.contains(note))
                notes << note;
    for (const QString &note : notes)
        title += QStringLiteral("<br><small><b>%1</b></small>").arg(note.toHtmlEscaped());
    chart_->setTitle(title);
    fitLegend();
}

void BenchmarkChart::rebuildAmplification()
{
    std::vector<uint64_t> sizes;
    double maxAmplification = 1;
    for (const WritePoint &p : writes_->points) {
        sizes.push_back(p.fileSize);
        maxAmplification = std::max(maxAmplification, p.amplification);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    auto [x, y] = axes<QLogValueAxis>();
    x->setTitleText(tr("file size"));
    for (uint64_t s : sizes)
        x->append(sizeLabel(s), std::log2(double(s)));
    if (!sizes.empty())
        x->setRange(std::log2(double(sizes.front())) - 0.3, std::log2(double(sizes.back())) + 0.3);
    y->setBase(10);
    y->setTitleText(tr("device bytes / payload"));
    y->setLabelFormat(QStringLiteral("%g"));
    y->setRange(0.5, maxAmplification * 2);
    std::map<QString, QLineSeries *> series;
    int colourIndex = 0;
    const QStringList names = writeSeriesNames(*writes_);
    for (size_t i = 0; i < writes_->points.size(); ++i) {
        const WritePoint &p = writes_->points[i];
        if (p.amplification <= 0)
            continue;
        const QString &name = names[qsizetype(i)];
        QLineSeries *&line = series[name];
        if (!line) {
            line = new QLineSeries;
            line->setName(name);
            line->setPointsVisible(true);
            line->setPen(QPen(QColor::fromHsv((colourIndex++ * 67) % 360, 200, 190), 2));
            chart_->addSeries(line);
            line->attachAxis(x);
            line->attachAxis(y);
        }
        line->append(std::log2(double(p.fileSize)), p.amplification);
    }
    title_ = tr("Write amplification by file size — %1 (%2)").arg(writes_->config.directory, writes_->filesystem);
    uint64_t smallest = writes_->config.buffer, largest = writes_->config.buffer;
    for (const WritePoint &p : writes_->points) {
        smallest = std::min(smallest, p.buffer);
        largest = std::max(largest, p.buffer);
    }
    const QString buffers = smallest == largest ? sizeLabel(smallest) : tr("%1 to %2").arg(sizeLabel(smallest), sizeLabel(largest));
    description_ = tr("device bytes from %1; buffer %2; %3").arg(writes_->deviceBytesSource, buffers, writes_->config.atomic ? tr("atomic replace") : tr("in place"));
    chart_->setTitle(title_.toHtmlEscaped());
    fitLegend();
}

static void renderChart(QChart *chart, QPainter &painter, const QRectF &target, QSize size)
{
    // Lay the chart out at the wanted size in a scene of its own, paint, and put it back.
    QGraphicsScene *previous = chart->scene();
    const QRectF geometry = chart->geometry();
    QGraphicsScene scene;
    if (previous)
        previous->removeItem(chart);
    scene.addItem(chart);
    chart->resize(size);
    scene.setSceneRect(QRectF(QPointF(0, 0), size));
    scene.render(&painter, target, QRectF(QPointF(0, 0), size));
    scene.removeItem(chart);
    if (previous) {
        previous->addItem(chart);
        chart->setGeometry(geometry);
    }
}

QByteArray BenchmarkChart::renderPng(QSize size) const
{
    QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2.0);
    image.fill(QApplication::palette().color(QPalette::Base));
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderChart(chart_, painter, QRectF(QPointF(0, 0), size), size);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray BenchmarkChart::renderSvg(QSize size) const
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    // The chart is laid out in pixels at 96 dpi, as on screen and in the PDF; at the generator's
    // 72 dpi every point size became that many pixels (9 pt text drawn 9 px high) and the
    // legend's measured room no longer fitted its text.
    svg.setResolution(96);
    svg.setTitle(title_);
    svg.setDescription(description_);
    QPainter painter(&svg);
    renderChart(chart_, painter, QRectF(QPointF(0, 0), size), size);
    painter.end();
    return bytes;
}

QByteArray BenchmarkChart::renderPdf(QSize size) const
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setTitle(title_);
    pdf.setCreator(QStringLiteral("ArchiveScope"));
    pdf.setPageSize(QPageSize(QSizeF(size) * 0.75, QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setResolution(96);
    QPainter painter(&pdf);
    renderChart(chart_, painter, QRectF(QPointF(0, 0), size), size);
    painter.end();
    return bytes;
}

Result<void> BenchmarkChart::exportTo(const QString &path, QSize size) const
{
    if (isEmpty())
        return Error::make(ErrorKind::Usage, path, tr("the chart is empty: run or load a benchmark first"));
    const QString suffix = path.section(QLatin1Char('.'), -1).toLower();
    QByteArray bytes;
    if (suffix == QLatin1String("png"))
        bytes = renderPng(size);
    else if (suffix == QLatin1String("svg"))
        bytes = renderSvg(size);
    else if (suffix == QLatin1String("pdf"))
        bytes = renderPdf(size);
    else
        return Error::make(ErrorKind::Usage, path, tr("unknown chart format '%1' (png, svg or pdf)").arg(suffix));
    if (bytes.isEmpty())
        return Error::make(ErrorKind::System, path, tr("rendering the chart failed"));
    return writeFileAtomically(path, bytes);
}

} // namespace asc::ui
