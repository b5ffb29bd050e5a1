// SPDX-License-Identifier: MIT
#include "io_trace_view.h"

#include "io/atomic_file.h"
#include "io/trace_summary.h"
#include "io_trace_model.h"
#include "io_trace_plot.h"
#include "io/units.h"

#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QJsonDocument>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTableView>
#include <QVBoxLayout>

namespace asc::ui {

IoTraceView::IoTraceView(IoTrace trace, QWidget *parent)
    : QDialog(parent),
      trace_(std::move(trace)),
      plot_(new IoTracePlot(this)),
      model_(new IoTraceModel(this)),
      summary_(new QLabel(this)),
      files_(new QComboBox(this))
{
    setWindowTitle(tr("I/O — %1").arg(trace_.title));
    setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(this);
    auto *controls = new QHBoxLayout;
    for (const QString &file : trace_.files)
        files_->addItem(QFileInfo(file).fileName(), file);
    files_->setToolTip(tr("The file whose reads are drawn"));
    auto *byTime = new QCheckBox(tr("Colour by time"), this);
    byTime->setToolTip(tr("Colour each read by when it happened (blue first, red last) instead of by the layer that asked"));
    auto *exportImage = new QPushButton(tr("Export Picture…"), this);
    auto *exportData = new QPushButton(tr("Export Reads…"), this);
    controls->addWidget(new QLabel(tr("File"), this));
    controls->addWidget(files_, 1);
    controls->addWidget(byTime);
    controls->addWidget(exportImage);
    controls->addWidget(exportData);
    layout->addLayout(controls);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plot_);
    auto *table = new QTableView(split);
    table->setObjectName(QStringLiteral("ioTraceTable"));
    table->setModel(model_);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->verticalHeader()->hide();
    split->addWidget(table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    model_->setTrace(&trace_);
    plot_->setTrace(&trace_); // draws the file read most
    files_->setCurrentIndex(plot_->file());
    connect(files_, &QComboBox::currentIndexChanged, this, &IoTraceView::showFile);
    connect(byTime, &QCheckBox::toggled, plot_, &IoTracePlot::setColourByTime);
    connect(exportImage, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Picture"), QStringLiteral("io-trace.png"), tr("Images (*.png *.svg)"));
        if (!path.isEmpty())
            if (auto ok = exportTo(path); !ok)
                summary_->setText(ok.error().toString());
    });
    connect(exportData, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Reads"), QStringLiteral("io-trace.jsonl"), tr("JSON Lines (*.jsonl *.json)"));
        if (!path.isEmpty())
            if (auto ok = exportTo(path); !ok)
                summary_->setText(ok.error().toString());
    });
    summary_->setText(summaryText());
    resize(1100, 800);
}

void IoTraceView::showFile(int file)
{
    plot_->setFile(file);
}

QString IoTraceView::summaryText() const
{
    QStringList lines;
    for (const TraceFileSummary &s : summarizeTrace(trace_.records, trace_.files))
        lines << tr("%1: %2 reads, %3 read, %4 distinct (%5 re-read), %6 seeks")
                     .arg(QFileInfo(s.file).fileName())
                     .arg(s.requests)
                     .arg(sizeLabel(s.bytesRead), sizeLabel(s.distinctBytes), sizeLabel(s.bytesRead - s.distinctBytes))
                     .arg(s.seeks);
    return lines.isEmpty() ? tr("No reads were recorded.") : lines.join(QLatin1Char('\n'));
}

Result<void> IoTraceView::exportTo(const QString &path) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QSize size(1200, 700);
    QByteArray bytes;
    if (suffix == QLatin1String("png")) {
        QImage image(size * 2, QImage::Format_ARGB32);
        image.setDevicePixelRatio(2);
        QPainter p(&image);
        plot_->render(p, QRect(QPoint(0, 0), size));
        p.end();
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
    } else if (suffix == QLatin1String("svg")) {
        QBuffer buffer(&bytes);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(tr("I/O — %1").arg(trace_.title));
        QPainter p(&svg);
        plot_->render(p, QRect(QPoint(0, 0), size));
    } else if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("json")) {
        for (const TraceRecord &r : trace_.records)
            bytes += QJsonDocument(traceRecordJson(r, trace_.files)).toJson(QJsonDocument::Compact) + '\n';
    } else {
        return Error::make(ErrorKind::Usage, path, tr("unknown export format '.%1' (png, svg, jsonl)").arg(suffix));
    }
    return writeFileAtomically(path, bytes);
}

Result<void> exportTraceComparison(const IoTrace &upper, const IoTrace &lower, const QString &path)
{
    const QSize one(1200, 620);
    const QSize size(one.width(), one.height() * 2);
    IoTracePlot top, bottom;
    top.setTrace(&upper);
    bottom.setTrace(&lower);
    auto draw = [&](QPainter &p) {
        top.render(p, QRect(QPoint(0, 0), one));
        bottom.render(p, QRect(QPoint(0, one.height()), one));
        p.setPen(QPen(top.palette().color(QPalette::Mid), 2));
        p.drawLine(0, one.height(), one.width(), one.height());
    };
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (QFileInfo(path).suffix().toLower() == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        QPainter p(&svg);
        draw(p);
    } else {
        QImage image(size * 2, QImage::Format_ARGB32);
        image.setDevicePixelRatio(2);
        QPainter p(&image);
        draw(p);
        p.end();
        image.save(&buffer, "PNG");
    }
    return writeFileAtomically(path, bytes);
}

} // namespace asc::ui
