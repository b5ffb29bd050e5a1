// SPDX-License-Identifier: MIT
#pragma once
// The throughput-vs-buffer-size chart, the one class that talks to QtCharts (so it can be swapped):
// MiB/s against log2(buffer) on a category axis labelled "4 KiB" … "16 MiB", one series per
// strategy and pass (and per result when overlaying), markers, a shaded min-max band, legend
// entries that toggle their series, tooltips. Renders to PNG (2x), SVG and PDF, on screen or off.

#include "bench/bench_result.h"
#include "bench/write/write_bench.h"

#include <QChart>
#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>
#include <map>
#include <memory>

class QCategoryAxis;
class QLineSeries;
class QValueAxis;
class QChartView;
class QWidget;

namespace asc::ui {

class BenchmarkChart : public QObject {
    Q_OBJECT
public:
    explicit BenchmarkChart(QObject *parent = nullptr);
    ~BenchmarkChart() override;

    // Shows these results (the first is the main one; others are overlaid, labelled by name).
    void setResults(const std::vector<std::pair<QString, BenchResult>> &results);
    // Adds one point to the live (first) result while a run is going.
    void addPoint(const BenchPoint &point, const BenchConfig &config);
    void clear();
    // Write amplification (device bytes / payload) against file size, one series per strategy,
    // both axes logarithmic.
    void setAmplification(const WriteBenchResult &result);

    QChart *chart() const { return chart_; }
    // A view showing the chart (created on first use; owned by the caller's widget tree).
    QChartView *createView(QWidget *parent);
    int seriesCount() const; // line series (one per strategy/pass/result)
    int pointCount() const; // points over all line series
    QStringList axisLabels() const;
    bool isEmpty() const { return pointCount() == 0; }

    // Renders at `size` logical pixels; PNG at 2x device pixel ratio. Written atomically.
    Result<void> exportTo(const QString &path, QSize size = QSize(1200, 700)) const;
    QByteArray renderPng(QSize size) const;
    QByteArray renderSvg(QSize size) const;
    QByteArray renderPdf(QSize size) const;
    // Title and description: the run's target and parameters (for SVG metadata and the title).
    QString title() const { return title_; }
    // What the shaded band means ("min–max of 3 runs"), shown under the title; empty for 1 run.
    QString bandNote() const { return bandNote_; }

    // The title shown while there is nothing to plot (the Write tab's chart is not a read sweep).
    void setEmptyTitle(const QString &title)
    {
        emptyTitle_ = title;
        rebuild();
    }

    // Re-applies colours and theme from the application palette (light/dark).
    void applyPalette();

private:
    void rebuild();
    std::pair<QCategoryAxis *, QValueAxis *> fitAxes();
    void rebuildAmplification();
    void fitLegend();
    template <typename YAxis>
    std::pair<QCategoryAxis *, YAxis *> axes();
    std::vector<std::pair<QString, BenchResult>> results_;
    // The single result's series by strategy and pass, which addPoint extends in place.
    struct LiveSeries {
        QLineSeries *line;
        QLineSeries *upper;
        QLineSeries *lower;
        std::shared_ptr<std::vector<BenchPoint>> points; // in buffer order, shared with its tooltip
    };
    std::map<std::pair<QString, int>, LiveSeries> liveSeries_;
    std::optional<WriteBenchResult> writes_;
    QPointer<QChart> chart_; // the view that shows it owns it, and may go first
    QString title_;
    QString emptyTitle_;
    QString description_;
    QString bandNote_;
    bool legendOnRight_ = false; // compared runs and write strategies: one full name per line
};

} // namespace asc::ui
