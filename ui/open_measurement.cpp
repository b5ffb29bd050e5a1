// SPDX-License-Identifier: MIT
#include "open_measurement.h"

#include "browse/browse_view.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "main_window.h"
#include "open/tree_loader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QTimer>
#include <utility>
#include <cstdio>
#include <functional>
#include <malloc.h>

namespace asc::ui {

// A field of /proc/PID/status in bytes: VmRSS (resident now), VmHWM (the peak so far).
static qint64 statusBytes(const QString &process, const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(process));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed().split(' ').first().toLongLong() * 1024;
    }
    return -1;
}

static qint64 residentBytes(const QString &process = QStringLiteral("self"))
{
    return statusBytes(process, "VmRSS");
}

static double mib(qint64 bytes)
{
    return bytes < 0 ? -1.0 : double(bytes) / double(1 << 20);
}

// The event loop's heartbeat: a timer that should fire every few milliseconds. The longest gap
// between two beats, less the interval, is the longest the window could not repaint or take input.
class StallMeter : public QObject {
public:
    StallMeter()
    {
        beat_.setTimerType(Qt::PreciseTimer);
        beat_.setInterval(kInterval);
        connect(&beat_, &QTimer::timeout, this, [this] {
            const qint64 now = clock_.elapsed();
            longest_ = std::max(longest_, now - last_ - kInterval);
            last_ = now;
        });
    }
    void start()
    {
        clock_.start();
        last_ = 0;
        beat_.start();
    }
    void stop()
    {
        longest_ = longestMs();
        last_ = clock_.elapsed() - kInterval;
        beat_.stop();
        stopped_ = true;
    }
    qint64 longestMs() const
    {
        if (stopped_)
            return longest_;
        return std::max<qint64>(0, std::max(longest_, clock_.elapsed() - last_ - kInterval));
    }

private:
    static constexpr int kInterval = 5;
    QTimer beat_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    qint64 longest_ = 0;
    bool stopped_ = false;
};

int measureOpen(const QString &spec, const QString &filter)
{
    auto *window = new MainWindow;
    window->show();
    QCoreApplication::processEvents();
    malloc_trim(0);
    const qint64 before = residentBytes();
    QElapsedTimer timer;
    qint64 firstRows = -1;
    qint64 complete = -1;
    qint64 filterFirstMatch = -1;
    qint64 filterComplete = -1;
    QElapsedTimer filterTimer;
    StallMeter stalls;
    StallMeter filterStalls; // the window while the filter is typed and applied, apart from the listing
    std::function<void()> report;
    // The filter is typed once the listing is complete, a key every 40 ms as a person types; its
    // first match is looked for whenever rows arrive, its end is when the last key's text is
    // applied and the loader is idle again. Then the file is closed, and the memory it leaves
    // behind measured.
    qint64 rssAfterClose = -1;
    qint64 rssPeak = -1;
    qint64 rssLoaded = -1; // with the tree, before it was closed
    qint64 closeStallMs = -1; // clearing the filter and closing the tree, in one go
    qint64 entriesSeen = -1, nameBytesSeen = 0;
    int layersSeen = -1;
    bool closing = false;
    std::function<void()> closeAndReport = [&] {
        if (std::exchange(closing, true))
            return; // the listing's end and the filter's settling may both get here
        filterStalls.stop();
        // The window's stalls end here: what follows is the measurement's own counting (a
        // million paths built took ~0.9 s and was reported as the listing's stall) and the close.
        stalls.stop();
        rssPeak = statusBytes(QStringLiteral("self"), "VmHWM");
        malloc_trim(0);
        rssLoaded = residentBytes();
        const EntryTree &tree = window->model()->tree();
        for (int32_t i = 1; i < tree.size(); ++i)
            nameBytesSeen += tree.path(i).size() + 1;
        entriesSeen = tree.size() - 1;
        layersSeen = window->browseView()->loader()->tree().layerCount();
        QElapsedTimer closeClock;
        closeClock.start();
        window->filterEdit()->clear();
        window->browseView()->clear();
        closeStallMs = closeClock.elapsed();
        QTimer::singleShot(300, window, [&] {
            malloc_trim(0);
            rssAfterClose = residentBytes();
            report();
        });
    };
    QTimer keys;
    QTimer settled;
    keys.setInterval(40);
    int typed = 0;
    QObject::connect(&keys, &QTimer::timeout, window, [&] {
        window->filterEdit()->setText(filter.left(++typed));
        if (filterFirstMatch < 0 && window->proxy()->matchCount() > 0) // the names already listed
            filterFirstMatch = filterTimer.elapsed();
        if (typed < filter.size())
            return;
        keys.stop();
        settled.start(); // the text is matched, then the view's expansion runs, from the event loop
    });
    // Complete when the last text is applied and shown (or, with names still arriving, when
    // the listing finishes, below).
    settled.setInterval(5);
    QObject::connect(&settled, &QTimer::timeout, window, [&] {
        if (window->browseView()->filterSettling())
            return;
        settled.stop();
        if (!window->browseView()->isBusy()) {
            filterComplete = filterTimer.elapsed();
            QTimer::singleShot(100, window, closeAndReport);
        }
    });
    // A text applied on a big tree: its matches are in.
    QObject::connect(window->proxy(), &EntryFilterModel::filterApplied, window, [&] {
        if (filterTimer.isValid() && filterFirstMatch < 0 && window->proxy()->matchCount() > 0)
            filterFirstMatch = filterTimer.elapsed();
    });
    auto typeFilter = [&] {
        filterStalls.start();
        filterTimer.start();
        typed = 0;
        keys.start();
    };
    // Rows are counted as the model receives them, which is when the view can show them.
    QObject::connect(window->model(), &QAbstractItemModel::rowsInserted, window, [&] {
        if (firstRows < 0 && window->model()->tree().size() > 1000)
            firstRows = timer.elapsed();
    });
    // The filter model counts matches from where it last stopped: cheap on every insertion.
    QObject::connect(window->proxy(), &QAbstractItemModel::rowsInserted, window, [&] {
        if (filterTimer.isValid() && filterFirstMatch < 0 && window->proxy()->matchCount() > 0)
            filterFirstMatch = filterTimer.elapsed();
    });
    QObject::connect(window, &MainWindow::listingFinished, window, [&] {
        if (complete < 0) {
            complete = timer.elapsed();
            if (!filter.isEmpty()) {
                QTimer::singleShot(100, window, typeFilter); // memory first settles
                return;
            }
        } else if (filterTimer.isValid() && filterComplete < 0 && typed >= filter.size()) {
            filterComplete = filterTimer.elapsed();
            QTimer::singleShot(100, window, closeAndReport);
            return;
        } else {
            return;
        }
        // Memory is measured once the listing's worker results have been released (deleteLater).
        QTimer::singleShot(100, window, [&] { report(); });
    });
    report = [&] {
        stalls.stop(); // before the counting below
        malloc_trim(0);
        const qint64 after = rssLoaded >= 0 ? rssLoaded : residentBytes();
        const EntryTree &tree = window->model()->tree();
        qint64 nameBytes = nameBytesSeen;
        if (entriesSeen < 0)
            for (int32_t i = 1; i < tree.size(); ++i)
                nameBytes += tree.path(i).size() + 1;
        const qint64 entries = entriesSeen >= 0 ? entriesSeen : tree.size() - 1;
        QJsonObject result;
        result[QStringLiteral("spec")] = spec;
        result[QStringLiteral("entries")] = entries;
        result[QStringLiteral("first_1000_rows_ms")] = firstRows;
        result[QStringLiteral("complete_ms")] = complete;
        result[QStringLiteral("rss_delta_bytes")] = after - before;
        result[QStringLiteral("rss_before_open_mib")] = mib(before);
        result[QStringLiteral("rss_peak_mib")] = mib(rssPeak >= 0 ? rssPeak : statusBytes(QStringLiteral("self"), "VmHWM"));
        if (rssAfterClose >= 0)
            result[QStringLiteral("rss_after_close_mib")] = mib(rssAfterClose);
        if (closeStallMs >= 0)
            result[QStringLiteral("close_ui_stall_ms")] = closeStallMs;
        result[QStringLiteral("name_bytes")] = nameBytes;
        result[QStringLiteral("bytes_per_entry_beyond_names")] = entries ? double(after - before - nameBytes) / double(entries) : 0.0;
        result[QStringLiteral("max_ui_stall_ms")] = stalls.longestMs();
        if (!filter.isEmpty()) {
            result[QStringLiteral("filter")] = filter;
            result[QStringLiteral("filter_first_match_ms")] = filterFirstMatch;
            result[QStringLiteral("filter_complete_ms")] = filterComplete;
            result[QStringLiteral("filter_max_ui_stall_ms")] = filterStalls.longestMs();
            result[QStringLiteral("filter_entries")] = entries;
            // Archives inside the file the filter opened (default View setting: none).
            result[QStringLiteral("nested_opened")] = (layersSeen >= 0 ? layersSeen : window->browseView()->loader()->tree().layerCount()) - 1;
        }
        // The file's worker process, now idle: what it keeps resident (-1 with --no-sandbox).
        result[QStringLiteral("worker_rss_bytes")] = window->worker() ? residentBytes(QString::number(window->worker()->pid())) : -1;
        std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
        std::fflush(stdout);
        QCoreApplication::exit(0);
    };
    QObject::connect(window, &MainWindow::opened, window, [](const QString &, bool ok) {
        if (!ok)
            QCoreApplication::exit(1);
    });
    timer.start();
    stalls.start();
    window->openSpec(spec);
    const int code = QCoreApplication::exec();
    delete window;
    return code;
}

} // namespace asc::ui
