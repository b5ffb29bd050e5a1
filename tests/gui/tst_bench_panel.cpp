// SPDX-License-Identifier: MIT
// The benchmark workspace: a small run from the panel finishes without blocking the event loop,
// the chart has one series per strategy with one point per size and KiB/MiB labels, the table
// passes QAbstractItemModelTester, a run can be cancelled midway and the panel stays usable,
// exports are valid PNG/SVG/PDF/CSV/JSON, two runs overlay with ratios; `chart` renders the same.

#include "bench/bench_panel.h"
#include "bench/commands_list.h"
#include "trace/io_trace_view.h"
#include "trace/trace_menu.h"
#include "benchmark_chart.h"
#include "bench/statistics_model.h"
#include "main_window.h"
#include "test_files.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QTabWidget>
#include <QTableWidget>
#include <QTableView>
#include <QScrollBar>
#include <QScrollArea>
#include <QApplication>
#include <QRegularExpression>
#include <QListWidget>
#include <QProgressBar>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QComboBox>
#include <QTest>
#include <QLegend>
#include <map>
#include <QValueAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QPushButton>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLegendMarker>
#include <QXmlStreamReader>

using namespace asc;

class TestBenchPanel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString file_;

    static bool validXml(const QByteArray &bytes, int *paths)
    {
        QXmlStreamReader xml(bytes);
        *paths = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("path"))
                ++*paths;
        }
        return !xml.hasError();
    }

    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    // One colour per strategy: every file reader the default and full sweeps can show, drawn
    // together, has a line colour of its own (a 12-colour palette gave pread and
    // buffered-stream-zero-copy the same red).
    // Qt lays a bottom legend out in one row and cuts the labels to fit it: at 800x600 two pxar
    // strategies both read "pxar-acces…". Names that do not fit one row go on the right, whole,
    // one per line; a few short names stay below the chart.
    void legendNamesAreNeverCut()
    {
        auto resultOf = [](const QStringList &strategies) {
            BenchResult result;
            result.config.buffers = {4096, 8192};
            for (const QString &strategy : strategies) {
                for (uint64_t buffer : result.config.buffers) {
                    BenchPoint point;
                    point.strategy = strategy;
                    point.buffer = buffer;
                    point.mibps.mean = point.mibps.median = point.mibps.min = point.mibps.max = 100;
                    point.mibps.count = 1;
                    result.points.push_back(point);
                }
            }
            return result;
        };
        ui::BenchmarkChart chart;
        QChartView *view = chart.createView(nullptr);
        view->resize(540, 420); // the chart's room in the benchmark workspace at 800x600
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        chart.setResults({{QString(), resultOf({QStringLiteral("read"), QStringLiteral("pread")})}});
        QTRY_COMPARE(chart.chart()->legend()->alignment(), Qt::AlignBottom);
        const QStringList many = {QStringLiteral("read"), QStringLiteral("pread"), QStringLiteral("mmap"), QStringLiteral("uring-qd4"),
                                  QStringLiteral("pxar-decoder-sync"), QStringLiteral("pxar-decoder-async"), QStringLiteral("pxar-accessor-sync"),
                                  QStringLiteral("pxar-accessor-async")};
        chart.setResults({{QString(), resultOf(many)}});
        QTRY_COMPARE(chart.chart()->legend()->alignment(), Qt::AlignRight);
        // Wide enough for the longest name in the font it uses, and tall enough for every row.
        QLegend *legend = chart.chart()->legend();
        const QFontMetricsF metrics(legend->font());
        QTRY_VERIFY2(legend->geometry().width() >= metrics.horizontalAdvance(QStringLiteral("pxar-accessor-async")) + metrics.height(),
                     qPrintable(QString::number(legend->geometry().width())));
        QVERIFY(legend->geometry().height() >= many.size() * metrics.height());
        QVERIFY(legend->font().pointSizeF() >= 7);
        delete view;
    }

    void everyStrategyHasItsOwnColour()
    {
        const QStringList strategies = {QStringLiteral("read"), QStringLiteral("pread"), QStringLiteral("mmap"), QStringLiteral("stdio"),
                                        QStringLiteral("stdio-default"), QStringLiteral("qfile"), QStringLiteral("direct"), QStringLiteral("fadvise-seq"),
                                        QStringLiteral("source"), QStringLiteral("uring-qd1"), QStringLiteral("uring-qd4"), QStringLiteral("uring-qd16"),
                                        QStringLiteral("buffered-stream-copy"), QStringLiteral("buffered-stream-zero-copy"), QStringLiteral("pxar-decoder-sync"),
                                        QStringLiteral("pxar-decoder-async"), QStringLiteral("pxar-accessor-sync"), QStringLiteral("pxar-accessor-async"),
                                        QStringLiteral("copy"), QStringLiteral("copy-fsync"),
                                        // A decoder and a command beside the file readers in one sweep
                                        // (inflate-zlib had read's blue when colours went by group).
                                        QStringLiteral("inflate-zlib"), QStringLiteral("xz-mt"), QStringLiteral("dd")};
        BenchResult result;
        result.config.buffers = {4096, 8192};
        for (const QString &strategy : strategies) {
            for (uint64_t buffer : result.config.buffers) {
                BenchPoint point;
                point.strategy = strategy;
                point.buffer = buffer;
                point.mibps.mean = point.mibps.median = point.mibps.min = point.mibps.max = 100;
                point.mibps.count = 1;
                result.points.push_back(point);
            }
        }
        ui::BenchmarkChart chart;
        chart.setResults({{QString(), result}});
        QVERIFY(chart.chart()->legend()->showToolTips()); // a cut label's whole name on hover
        QSet<QRgb> colours;
        QSet<QString> named;
        for (QAbstractSeries *series : chart.chart()->series()) {
            auto *line = qobject_cast<QLineSeries *>(series);
            if (!line || !strategies.contains(line->name()))
                continue;
            named.insert(line->name());
            colours.insert(line->pen().color().rgb());
        }
        QCOMPARE(named.size(), strategies.size());
        QCOMPARE(colours.size(), strategies.size());
    }

    // The throughput axis depends on the data only: the same result charted fresh or after
    // another one gets the same axis, ending at the first round step above its maximum.
    void throughputAxisFitsTheData()
    {
        auto resultPeaking = [](double top) {
            BenchResult result;
            result.config.buffers = {4096, 8192, 16384};
            for (uint64_t buffer : result.config.buffers) {
                BenchPoint point;
                point.strategy = QStringLiteral("read");
                point.buffer = buffer;
                point.mibps.mean = point.mibps.median = point.mibps.min = top / 2;
                point.mibps.max = buffer == 16384 ? top : top / 2;
                point.mibps.count = 3;
                result.points.push_back(point);
            }
            return result;
        };
        auto yAxis = [](ui::BenchmarkChart &chart) {
            return qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Vertical).first());
        };
        ui::BenchmarkChart fresh;
        fresh.setResults({{QString(), resultPeaking(5800)}});
        QCOMPARE(yAxis(fresh)->max(), 7000.0);
        QCOMPARE(yAxis(fresh)->tickCount(), 8);
        ui::BenchmarkChart reused;
        for (double top : {130.0, 41.0, 99000.0, 5800.0})
            reused.setResults({{QString(), resultPeaking(top)}});
        QCOMPARE(yAxis(reused)->max(), yAxis(fresh)->max());
        QCOMPARE(yAxis(reused)->tickCount(), yAxis(fresh)->tickCount());
        // What a run found about a command is on its chart, under the title.
        BenchResult noted = resultPeaking(100);
        noted.notes << QStringLiteral("mine ignores the buffer: its reads are 1048576 bytes at every size");
        fresh.setResults({{QString(), noted}});
        QVERIFY2(fresh.chart()->title().contains(noted.notes.first()), qPrintable(fresh.chart()->title()));
        // The subtitle counts this sweep's runs, and each compared run's own (a 3-run sweep
        // once read "min–max of 5 runs").
        BenchResult three = resultPeaking(100), five = resultPeaking(100);
        three.config.runs = 3;
        five.config.runs = 5;
        fresh.setResults({{QString(), three}});
        QCOMPARE(fresh.bandNote(), QStringLiteral("line: mean · shaded band: min–max of 3 runs"));
        fresh.setResults({{QStringLiteral("now"), three}, {QStringLiteral("before"), five}});
        QCOMPARE(fresh.bandNote(), QStringLiteral("solid: now (3 runs) · dashed: before (5 runs) · line: mean, band: min–max"));
        // While a 3-run sweep runs, its points arrive one by one: the note counts its 3 runs.
        ui::BenchmarkChart live;
        std::unique_ptr<QChartView> liveView(live.createView(nullptr));
        live.addPoint(three.points.front(), three.config);
        QCOMPARE(live.bandNote(), QStringLiteral("line: mean · shaded band: min–max of 3 runs"));
        QAbstractSeries *const firstLine = live.chart()->series().last();
        live.addPoint(three.points.back(), three.config);
        QCOMPARE(live.pointCount(), 2);
        // The point joined the series already drawn (in buffer order), not a rebuilt chart; the
        // axes grew to take it.
        live.addPoint(three.points[1], three.config);
        QCOMPARE(live.chart()->series().last(), firstLine);
        QCOMPARE(live.seriesCount(), 1);
        auto *line = qobject_cast<QLineSeries *>(firstLine);
        QVERIFY(line);
        QCOMPARE(line->count(), 3);
        QCOMPARE(line->at(1).x(), std::log2(8192.0));
        QCOMPARE(live.axisLabels().size(), 3);
        QVERIFY(yAxis(live)->max() >= 100);
        // A new strategy is a new series (colours are shared out again).
        BenchPoint other = three.points.front();
        other.strategy = QStringLiteral("pread");
        live.addPoint(other, three.config);
        QCOMPARE(live.seriesCount(), 2);
        QCOMPARE(live.pointCount(), 4);
    }

    // Remembered settings (the benchmark's, the extraction dialog's) start each test afresh.
    void init() { QSettings().clear(); }

    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_bench_panel"));
        file_ = test::writeFile(dir_, QStringLiteral("data.bin"), test::seededBytes(4 * 1024 * 1024 + 11, 2));
    }

    void runFromThePanel()
    {
        ui::MainWindow window;
        window.show();
        ui::BenchPanel *panel = window.benchPanel();
        QAbstractItemModelTester tester(panel->statistics(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Before any run the chart shows the default sweep's axes, no points.
        QCOMPARE(panel->chart()->pointCount(), 0);
        QCOMPARE(panel->chart()->axisLabels().first(), QStringLiteral("4 KiB"));
        QCOMPARE(panel->chart()->axisLabels().last(), QStringLiteral("16 MiB"));
        panel->setTarget(file_);
        panel->setStrategies({QStringLiteral("read"), QStringLiteral("pread"), QStringLiteral("uring-qd4")});
        panel->setSizes(4096, 1 << 20);
        panel->setRuns(2, 0);
        QSignalSpy done(panel, &ui::BenchPanel::runFinished);
        panel->run();
        QVERIFY(panel->isRunning());
        QVERIFY(done.wait(60000)); // the event loop runs meanwhile
        QVERIFY2(done.first().first().toBool(), qPrintable(panel->statusText()));
        ui::BenchmarkChart *chart = panel->chart();
        QCOMPARE(chart->seriesCount(), 3);
        QCOMPARE(chart->pointCount(), 3 * 9);
        const QStringList labels = chart->axisLabels();
        QCOMPARE(labels.first(), QStringLiteral("4 KiB"));
        QVERIFY(labels.contains(QStringLiteral("64 KiB")));
        QCOMPARE(labels.last(), QStringLiteral("1 MiB"));
        QCOMPARE(panel->statistics()->rowCount(), 27);
        // The table starts in run order: the strategies as the sweep ran them, not by name.
        auto *table = window.findChild<QTableView *>(QStringLiteral("benchStatistics"));
        QVERIFY(table);
        QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("read"));
        QCOMPARE(table->model()->index(1, 1).data().toString(), QStringLiteral("8 KiB"));
        QCOMPARE(table->model()->index(9, 0).data().toString(), QStringLiteral("pread"));
        QCOMPARE(table->model()->index(26, 0).data().toString(), QStringLiteral("uring-qd4"));
        QVERIFY(panel->statistics()->toMarkdown().startsWith(QStringLiteral("| strategy | buffer")));
        QCOMPARE(panel->statistics()->toCsv().trimmed().split(QLatin1Char('\n')).size(), 28);

        // Exports, each parsed back.
        const QString png = dir_.filePath(QStringLiteral("chart.png"));
        QVERIFY(panel->exportChart(png).ok());
        QImage image(png);
        QCOMPARE(image.size(), QSize(2400, 1400)); // 1200x700 at 2x
        const QString svg = dir_.filePath(QStringLiteral("chart.svg"));
        QVERIFY(panel->exportChart(svg).ok());
        int paths = 0;
        QVERIFY(validXml(readAll(svg), &paths));
        QVERIFY2(paths >= 3, qPrintable(QString::number(paths)));
        // The SVG's text is the size it is in the PNG and the PDF (96 dpi: a 9 pt label is 12 px,
        // not 9), and its title is larger than the tick labels.
        const QString svgText = QString::fromUtf8(readAll(svg));
        auto fontSizeOf = [&](const QString &text) {
            const QRegularExpression at(QStringLiteral("font-size=\"([0-9.]+)\"[^>]*>\\s*") + QRegularExpression::escape(text));
            const auto match = at.match(svgText);
            return match.hasMatch() ? match.captured(1).toDouble() : 0.0;
        };
        const double tick = fontSizeOf(QStringLiteral("64 KiB"));
        const double title = fontSizeOf(QStringLiteral("Read throughput"));
        QVERIFY2(tick >= QFontInfo(QApplication::font()).pointSizeF() * 96 / 72 - 0.01, qPrintable(QString::number(tick)));
        QVERIFY2(title > tick * 1.2, qPrintable(QStringLiteral("%1 %2").arg(title).arg(tick)));
        const QString pdf = dir_.filePath(QStringLiteral("chart.pdf"));
        QVERIFY(panel->exportChart(pdf).ok());
        QVERIFY(readAll(pdf).startsWith("%PDF-"));
        const QString csv = dir_.filePath(QStringLiteral("data.csv"));
        QVERIFY(panel->exportData(csv).ok());
        QCOMPARE(readAll(csv).trimmed().split('\n').size(), 28);
        const QString json = dir_.filePath(QStringLiteral("data.json"));
        QVERIFY(panel->exportData(json).ok());
        QCOMPARE(QJsonDocument::fromJson(readAll(json)).object()[QStringLiteral("points")].toArray().size(), 27);
        QVERIFY(!panel->exportChart(dir_.filePath(QStringLiteral("chart.bmpx"))).ok());

        // A second, different run (read and mmap only), then the two runs overlaid with ratios:
        // only the strategy both have is compared, with ratios measured (a result compared with
        // itself would read exactly 1.000 everywhere).
        panel->setStrategies({QStringLiteral("read"), QStringLiteral("mmap")});
        QSignalSpy second(panel, &ui::BenchPanel::runFinished);
        panel->run();
        QVERIFY(second.wait(60000));
        QCOMPARE(int(panel->history().size()), 2);
        QVERIFY(panel->history()[0].second.points.size() != panel->history()[1].second.points.size());
        panel->compareHistory(0, 1);
        QCOMPARE(chart->seriesCount(), 3 + 2);
        const QStringList lines = panel->comparisonText().split(QLatin1Char('\n')).filter(QStringLiteral("B/A ="));
        QCOMPARE(lines.size(), 9); // read at the 9 buffer sizes: pread, uring-qd4 and mmap are in one run only
        for (const QString &line : lines)
            QVERIFY2(line.startsWith(QStringLiteral("read ")), qPrintable(line));
        QVERIFY2(lines.filter(QStringLiteral("B/A = 1.000 ±")).size() < lines.size(), qPrintable(panel->comparisonText()));
        // Read at a glance: one colour per strategy in both runs, runs told apart by the dash and
        // their labels (edited: "before" / "after"); the band explained once on the axis; hiding
        // and showing a series leaves no stray band entry in the legend.
        panel->renameRun(0, QStringLiteral("before"));
        panel->renameRun(1, QStringLiteral("after"));
        // Relabelled, a run keeps its time and target in the list.
        auto *historyList = window.findChild<QListWidget *>(QStringLiteral("benchHistory"));
        QVERIFY(historyList);
        QVERIFY2(QRegularExpression(QStringLiteral("^before — \\d\\d:\\d\\d:\\d\\d — data\\.bin$")).match(historyList->item(0)->text()).hasMatch(),
                 qPrintable(historyList->item(0)->text()));
        panel->compareHistory(0, 1);
        std::map<QString, QLineSeries *> byName;
        for (QAbstractSeries *s : chart->chart()->series())
            if (s->type() == QAbstractSeries::SeriesTypeLine)
                byName[s->name()] = static_cast<QLineSeries *>(s);
        QLineSeries *readBefore = byName[QStringLiteral("read — before")];
        QLineSeries *readAfter = byName[QStringLiteral("read — after")];
        QVERIFY(readBefore && readAfter && byName[QStringLiteral("pread — before")]);
        QCOMPARE(readBefore->pen().color(), readAfter->pen().color());
        QVERIFY(readBefore->pen().style() != readAfter->pen().style());
        QVERIFY(byName[QStringLiteral("pread — before")]->pen().color() != readBefore->pen().color());
        // Which dash is which run, each with its own count of runs.
        QCOMPARE(chart->bandNote(), QStringLiteral("solid: before (2 runs) · dashed: after (2 runs) · line: mean, band: min–max"));
        QVERIFY(chart->chart()->title().contains(chart->bandNote()));
        auto visibleMarkers = [&] {
            QStringList names;
            for (QLegendMarker *m : chart->chart()->legend()->markers())
                if (m->isVisible())
                    names << m->label();
            return names;
        };
        const QStringList before = visibleMarkers();
        QVERIFY(before.filter(QStringLiteral("min–max")).isEmpty());
        QLegendMarker *readMarker = chart->chart()->legend()->markers(readBefore).first();
        Q_EMIT readMarker->clicked();
        QVERIFY(!readBefore->isVisible());
        Q_EMIT readMarker->clicked();
        QVERIFY(readBefore->isVisible());
        QCOMPARE(visibleMarkers(), before);
        // One set of axes in the scene: the axes of earlier charts (the live run, the first
        // comparison) leave no items behind. A fresh chart of the same two runs is the measure.
        auto textItems = [](QChart *c) {
            QCoreApplication::processEvents();
            int n = 0;
            for (QGraphicsItem *item : c->scene()->items())
                n += dynamic_cast<QGraphicsTextItem *>(item) ? 1 : 0;
            return n;
        };
        ui::BenchmarkChart fresh;
        fresh.setResults({{QStringLiteral("before"), panel->history()[0].second}, {QStringLiteral("after"), panel->history()[1].second}});
        std::unique_ptr<QChartView> freshView(fresh.createView(nullptr));
        QCOMPARE(textItems(chart->chart()), textItems(fresh.chart()));
        auto *compareButton = panel->findChild<QPushButton *>(QStringLiteral("historyCompare"));
        QVERIFY(compareButton);

        // The first run saved and loaded back is the same data: compared with the run, no change.
        QVERIFY(panel->loadResult(json).ok());
        QCOMPARE(int(panel->history().size()), 3);
        panel->compareHistory(0, 2);
        QCOMPARE(chart->seriesCount(), 6);
        const QStringList same = panel->comparisonText().split(QLatin1Char('\n')).filter(QStringLiteral("B/A ="));
        QCOMPARE(same.size(), 27);
        QCOMPARE(same.filter(QStringLiteral("B/A = 1.000 ±")).size(), 27);
        QCOMPARE(same.filter(QStringLiteral("no difference (p = 1.00, Holm-adjusted over 27 points: 1.00)")).size(), 27);
    }

    // The user's own reader from the Commands list: checked as typed, run beside a strategy in
    // the same chart, table and history, remembered across restarts.
    void commandFromThePanel()
    {
        ui::MainWindow window;
        ui::BenchPanel *panel = window.benchPanel();
        ui::CommandsList *commands = panel->commands();
        QVERIFY(commands->problemWith(QStringLiteral("c=cat {file}")).contains(QStringLiteral("no {buffer}")));
        QVERIFY(commands->problemWith(QStringLiteral("c=dd if={file} bs={bufer}")).contains(QStringLiteral("unknown placeholder {bufer}")));
        QVERIFY(commands->problemWith(QStringLiteral("c=not-a-program-here {file} {buffer}")).contains(QStringLiteral("not found")));
        QVERIFY(!commands->addLine(QStringLiteral("c=cat {file}")));
        auto *problem = commands->findChild<QLabel *>(QStringLiteral("benchCommandProblem"));
        QVERIFY(problem && !problem->isHidden());
        // Typed into the field: the problem shows as it is typed, and goes when it is fixed.
        auto *edit = commands->findChild<QLineEdit *>(QStringLiteral("benchCommandEdit"));
        QVERIFY(edit);
        edit->setText(QStringLiteral("dd=dd if={file} of=/dev/null bs={bufer}"));
        QVERIFY(!problem->isHidden());
        edit->setText(QStringLiteral("dd=dd if={file} of=/dev/null bs={buffer}"));
        QVERIFY(problem->isHidden());
        QVERIFY(commands->addLine(edit->text()));
        QVERIFY(commands->problemWith(QStringLiteral("dd=dd if={file} bs={buffer}")).contains(QStringLiteral("already")));
        QCOMPARE(int(commands->commands().size()), 1);
        {
            ui::CommandsList again; // a restart
            QCOMPARE(again.lines(), QStringList{QStringLiteral("dd=dd if={file} of=/dev/null bs={buffer}")});
        }
        panel->setTarget(file_);
        panel->setStrategies({QStringLiteral("read")});
        panel->setSizes(4096, 16384);
        panel->setRuns(1, 0);
        QCOMPARE(int(panel->config().commands.size()), 1);
        QSignalSpy done(panel, &ui::BenchPanel::runFinished);
        panel->run();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.first().first().toBool(), true);
        const BenchResult &result = panel->history().back().second;
        int commandPoints = 0;
        for (const BenchPoint &p : result.points)
            if (p.isCommand) {
                ++commandPoints;
                QCOMPARE(p.strategy, QStringLiteral("dd"));
                QCOMPARE(p.requestBytesMedian, double(p.buffer));
                QCOMPARE(uint64_t(p.targetReadBytes), uint64_t(QFileInfo(file_).size()));
            }
        QCOMPARE(commandPoints, 3);
        QCOMPARE(panel->statistics()->rowCount(), 6);
        QStringList series;
        for (QAbstractSeries *s : panel->chart()->chart()->series())
            if (s->type() == QAbstractSeries::SeriesTypeLine)
                series << s->name();
        QVERIFY2(series.contains(QStringLiteral("dd")) && series.contains(QStringLiteral("read")), qPrintable(series.join(QLatin1Char(','))));
        // Trace I/O of a Benchmark Point: with a command checked, its reads are what is traced.
        QSignalSpy traced(window.findChild<ui::TraceMenu *>(), &ui::TraceMenu::traced);
        panel->setStrategies({});
        window.findChild<ui::TraceMenu *>()->traceCommandPoint(panel->config().spec, panel->config().commands.front(), 8192);
        QVERIFY(traced.wait(60000));
        auto *view = traced.first().first().value<ui::IoTraceView *>();
        QVERIFY(view);
        QCOMPARE(view->trace().records.size(), size_t((QFileInfo(file_).size() + 8191) / 8192 + 1)); // and the read that finds the end
        view->close();
        delete view;
    }

    // Item 7 of #44: what was ticked and cannot run on this target (the plain-file readers on an
    // archive member, a command needing {file}, a command that does not parse) is left out and
    // named when the run ends; the rest runs. An unticked command stays unticked after a restart.
    void whatCannotRunIsSkippedAndSaid()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        const QString tar = dir_.filePath(QStringLiteral("member.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.path(), QStringLiteral("data.bin")}).exitCode, 0);
        ui::MainWindow window;
        ui::BenchPanel *panel = window.benchPanel();
        ui::CommandsList *commands = panel->commands();
        commands->setLines({QStringLiteral("byfile=dd if={file} of=/dev/null bs={buffer}"), QStringLiteral("bystdin=dd if={stdin} of=/dev/null bs={buffer}"),
                            QStringLiteral("broken=dd if={file} bs={bufer}"), QStringLiteral("off=dd if={stdin} of=/dev/null bs={buffer}")},
                           {QStringLiteral("off=dd if={stdin} of=/dev/null bs={buffer}")});
        {
            ui::CommandsList again; // a restart: the unticked line comes back unticked
            QCOMPARE(again.lines().size(), 4);
            QStringList names;
            for (const CommandTemplate &c : again.commands())
                names << c.name;
            QCOMPARE(names, (QStringList{QStringLiteral("byfile"), QStringLiteral("bystdin")}));
        }
        panel->setTarget(tar + QStringLiteral("!/data.bin"));
        panel->setStrategies({QStringLiteral("read"), QStringLiteral("pread"), QStringLiteral("source")});
        panel->setSizes(65536, 65536);
        panel->setRuns(1, 0);
        QSignalSpy done(panel, &ui::BenchPanel::runFinished);
        panel->run();
        QVERIFY(done.wait(60000));
        QVERIFY2(done.first().first().toBool(), qPrintable(panel->statusText()));
        QSet<QString> ran;
        for (const BenchPoint &p : panel->history().back().second.points)
            ran.insert(p.strategy);
        QCOMPARE(ran, (QSet<QString>{QStringLiteral("source"), QStringLiteral("bystdin")}));
        const QString status = panel->statusText();
        for (const char *name : {"read", "pread", "byfile", "broken"})
            QVERIFY2(status.contains(QStringLiteral("Skipped")) && status.contains(QLatin1String(name)), qPrintable(status));
        QVERIFY2(!status.contains(QStringLiteral("off=")), qPrintable(status));
        const QStringList skipped = panel->history().back().second.skipped;
        QCOMPARE(skipped.size(), 3); // read, pread, byfile: the worker's; broken is the window's own
    }

    void cancelMidway()
    {
        const QString big = test::writeFile(dir_, QStringLiteral("big.bin"), test::seededBytes(64 * 1024 * 1024, 5));
        ui::BenchPanel panel;
        panel.show();
        panel.setTarget(big);
        panel.setStrategies({QStringLiteral("read"), QStringLiteral("stdio-default")});
        panel.setSizes(4096, 16 << 20);
        panel.setRuns(20, 1);
        QSignalSpy done(&panel, &ui::BenchPanel::runFinished);
        QSignalSpy progressed(&panel, &ui::BenchPanel::progressed);
        panel.run();
        // Under way: the warm-ups and a first measured run of both strategies at 4 KiB are done.
        QTRY_VERIFY_WITH_TIMEOUT(!progressed.isEmpty() && progressed.last().first().toInt() >= 5, 60000);
        QVERIFY(panel.isRunning());
        const int pointsAtCancel = panel.chart()->pointCount();
        panel.cancel();
        QVERIFY(done.count() > 0 || done.wait(60000));
        QCOMPARE(done.first().first().toBool(), false);
        // The run stops within the run being measured: what was measured at the size under way
        // is kept as points of fewer runs (both strategies here), of the 2 strategies x 13 sizes
        // x 21 runs it was asked for.
        const int kept = panel.chart()->pointCount() - pointsAtCancel;
        QVERIFY2(kept >= 2 && kept <= 4, qPrintable(QStringLiteral("%1 -> %2").arg(pointsAtCancel).arg(panel.chart()->pointCount())));
        QVERIFY2(panel.statistics()->points().back().note.contains(QStringLiteral("cancelled after")), qPrintable(panel.statistics()->points().back().note));
        // The bar and the status say how far it got, not 0 %.
        auto *bar = panel.findChild<QProgressBar *>();
        QVERIFY(bar && bar->value() >= 5 && bar->maximum() == 2 * 13 * 21);
        QVERIFY2(panel.statusText().contains(QStringLiteral("of 546 runs")), qPrintable(panel.statusText()));
        QVERIFY(!panel.isRunning());
        // Usable again: a short run completes.
        panel.setTarget(file_);
        panel.setSizes(65536, 65536);
        panel.setRuns(1, 0);
        QSignalSpy again(&panel, &ui::BenchPanel::runFinished);
        panel.run();
        QVERIFY(again.wait(30000));
        QCOMPARE(again.first().first().toBool(), true);
    }

    // "to" offers no size below "from", and follows it up when it is passed.
    // At 800x600 the benchmark's settings are whole: no sideways scroll bar hiding the "to"
    // size and the warning behind it (the chart gives way instead).
    void settingsWholeAt800x600()
    {
        ui::MainWindow window;
        window.resize(800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.findChild<QTabWidget *>(QStringLiteral("workspace"))->setCurrentWidget(window.benchPanel());
        window.benchPanel()->setTarget(file_, 4 * 1024 * 1024 + 11); // the small-target warning shows
        QCoreApplication::processEvents();
        auto *scroll = window.benchPanel()->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->isVisible());
        QVERIFY2(!scroll->horizontalScrollBar()->isVisible(), qPrintable(QStringLiteral("%1 < %2").arg(scroll->viewport()->width()).arg(scroll->widget()->minimumSizeHint().width())));
        QVERIFY(window.benchPanel()->chart()->chart()->size().width() > 300);
    }

    void toNeverBelowFrom()
    {
        ui::BenchPanel panel;
        panel.setSizes(4096, 65536);
        const QList<QComboBox *> combos = panel.settings()->findChildren<QComboBox *>();
        QVERIFY(combos.size() >= 2);
        QComboBox *from = combos[0];
        QComboBox *to = combos[1];
        QCOMPARE(to->currentData().toULongLong(), 65536ULL);
        from->setCurrentIndex(from->findData(QVariant::fromValue(qulonglong(1 << 20))));
        QCOMPARE(to->currentData().toULongLong(), qulonglong(1 << 20));
        auto *model = qobject_cast<QStandardItemModel *>(to->model());
        QVERIFY(model);
        QVERIFY(!model->item(to->findData(QVariant::fromValue(qulonglong(65536))))->isEnabled());
        QVERIFY(model->item(to->findData(QVariant::fromValue(qulonglong(4 << 20))))->isEnabled());
    }

    // Stop while a command runs: the run ends as cancelled and the command's whole process tree
    // with it (a backgrounded grandchild too).
    void stopEndsACommandsTree()
    {
        const QString pids = dir_.filePath(QStringLiteral("gui-pids"));
        ui::BenchPanel panel;
        panel.setTarget(file_);
        panel.setStrategies({});
        panel.setSizes(4096, 4096);
        panel.setRuns(1, 0);
        panel.commands()->setShell(true);
        QVERIFY(panel.commands()->addLine(QStringLiteral("slow=sh -c 'echo $$ >> %1; exec sleep 600' & echo $$ >> %1; sleep 600; cat {file} {buffer}").arg(pids)));
        QSignalSpy done(&panel, &ui::BenchPanel::runFinished);
        panel.run();
        QVERIFY(panel.isRunning());
        const QStringList written = test::waitForLines(pids, 2); // both shells wrote their pid
        QCOMPARE(written.size(), 2);
        panel.cancel();
        QVERIFY(done.count() > 0 || done.wait(60000));
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("Cancelled")), qPrintable(panel.statusText()));
        for (const QString &pid : written) {
            // Gone, reaped: the measuring process kills and reaps the whole tree before it ends.
            const QByteArray text = test::processStat(pid);
            QVERIFY2(text.isEmpty(), text.constData());
        }
    }

    void writeTab()
    {
        QTemporaryDir target(QDir::currentPath() + QStringLiteral("/write-gui-XXXXXX"));
        ui::BenchPanel panel;
        panel.resize(1200, 800);
        panel.show();
        // Before its first run the Write tab's chart says what it will show (not "Read throughput").
        QCOMPARE(panel.writeChart()->title(), QStringLiteral("Write amplification by file size"));
        QSignalSpy done(&panel, &ui::BenchPanel::writesFinished);
        panel.runWrites(target.path(), 1024, 64 * 1024, 8192, false, 1);
        QVERIFY(done.wait(60000));
        QCOMPARE(done.first().first().toBool(), true);
        QCOMPARE(panel.writeTable()->rowCount(), 7); // 1 KiB .. 64 KiB
        QCOMPARE(panel.writeTable()->columnCount(), 7); // every write strategy
        QVERIFY(panel.writeChart()->seriesCount() >= 1);
        QVERIFY(panel.writeChart()->axisLabels().contains(QStringLiteral("64 KiB")));
        // Readable at a usual size: the legend names each strategy beside the chart, and the
        // file sizes fit side by side (labels that no longer fit turn to a slant).
        QCOMPARE(panel.writeChart()->chart()->legend()->alignment(), Qt::AlignRight);
        for (QLegendMarker *m : panel.writeChart()->chart()->legend()->markers())
            QVERIFY(!m->label().isEmpty());
        if (auto *tabs = panel.findChild<QTabWidget *>())
            tabs->setCurrentIndex(tabs->count() - 1);
        auto *sizes = qobject_cast<QCategoryAxis *>(panel.writeChart()->chart()->axes(Qt::Horizontal).first());
        QTRY_VERIFY(panel.writeChart()->chart()->plotArea().width() > 7 * 72);
        QCOMPARE(sizes->labelsAngle(), 0);
        const QString png = dir_.filePath(QStringLiteral("amplification.png"));
        QVERIFY(panel.writeChart()->exportTo(png).ok());
        QCOMPARE(QImage(png).size(), QSize(2400, 1400));
        QCOMPARE(QDir(target.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());

        // A buffer sweep 4 KiB..16 KiB: the five strategies that use N get a column per N, the
        // two that do not (stdio-8k, single-write) one each.
        QSignalSpy sweep(&panel, &ui::BenchPanel::writesFinished);
        panel.runWrites(target.path(), 1024, 4096, 4096, false, 1, 16384);
        QVERIFY(sweep.wait(60000));
        QCOMPARE(sweep.first().first().toBool(), true);
        QCOMPARE(panel.writeTable()->columnCount(), 2 + 5 * 3);
        QStringList headers;
        for (int c = 0; c < panel.writeTable()->columnCount(); ++c)
            headers << panel.writeTable()->horizontalHeaderItem(c)->text();
        QVERIFY2(headers.contains(QStringLiteral("write-N N=16 KiB")) && headers.contains(QStringLiteral("single-write")), qPrintable(headers.join(QLatin1String(", "))));
        QCOMPARE(panel.writeChart()->seriesCount(), 2 + 5 * 3);
    }

    void cliRendersTheSameChart()
    {
        const QString json = dir_.filePath(QStringLiteral("cli.json"));
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--strategy"), QStringLiteral("read"), QStringLiteral("--sizes"),
                               QStringLiteral("4K:64K"), QStringLiteral("--runs"), QStringLiteral("2"), QStringLiteral("--json"), json});
        QCOMPARE(r.exitCode, 0);
        for (const char *ext : {"png", "svg", "pdf"}) {
            const QString out = dir_.filePath(QStringLiteral("cli.") + QLatin1String(ext));
            auto c = test::runCli({QStringLiteral("chart"), json, QStringLiteral("-o"), out});
            QVERIFY2(c.exitCode == 0, c.err.constData());
            const QByteArray bytes = readAll(out);
            if (QByteArray(ext) == "png")
                QCOMPARE(QImage(out).size(), QSize(2400, 1400));
            else if (QByteArray(ext) == "svg") {
                int paths = 0;
                QVERIFY(validXml(bytes, &paths) && paths > 0);
            } else
                QVERIFY(bytes.startsWith("%PDF-"));
        }
        QCOMPARE(test::runCli({QStringLiteral("chart"), json, QStringLiteral("-o"), dir_.filePath(QStringLiteral("x.gif"))}).exitCode, 1);
    }
};

QTEST_MAIN(TestBenchPanel)
#include "tst_bench_panel.moc"
