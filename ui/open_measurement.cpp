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
#include <cstdio>
#include <functional>
#include <malloc.h>

namespace asc::ui {

static qint64 residentBytes(const QString &process = QStringLiteral("self"))
{
    QFile status(QStringLiteral("/proc/%1/status").arg(process));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    }
    return -1;
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
    qint64 longestMs() const { return std::max<qint64>(0, std::max(longest_, clock_.elapsed() - last_ - kInterval)); }

private:
    static constexpr int kInterval = 5;
    QTimer beat_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    qint64 longest_ = 0;
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
    std::function<void()> report;
    // The filter is typed once the listing is complete, as a user would; its first match is
    // looked for whenever rows arrive, its end is when the loader is idle again.
    auto typeFilter = [&] {
        filterTimer.start();
        window->filterEdit()->setText(filter);
        if (window->proxy()->matchCount() > 0) // the names already listed
            filterFirstMatch = filterTimer.elapsed();
        if (!window->browseView()->isBusy()) {
            filterComplete = filterTimer.elapsed();
            QTimer::singleShot(100, window, [&] { report(); });
        }
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
        } else if (filterTimer.isValid() && filterComplete < 0) {
            filterComplete = filterTimer.elapsed();
        } else {
            return;
        }
        // Memory is measured once the listing's worker results have been released (deleteLater).
        QTimer::singleShot(100, window, [&] { report(); });
    });
    report = [&] {
        malloc_trim(0);
        const qint64 after = residentBytes();
        const EntryTree &tree = window->model()->tree();
        qint64 nameBytes = 0;
        for (int32_t i = 1; i < tree.size(); ++i)
            nameBytes += tree.path(i).size() + 1;
        const qint64 entries = tree.size() - 1;
        QJsonObject result;
        result[QStringLiteral("spec")] = spec;
        result[QStringLiteral("entries")] = entries;
        result[QStringLiteral("first_1000_rows_ms")] = firstRows;
        result[QStringLiteral("complete_ms")] = complete;
        result[QStringLiteral("rss_delta_bytes")] = after - before;
        result[QStringLiteral("name_bytes")] = nameBytes;
        result[QStringLiteral("bytes_per_entry_beyond_names")] = entries ? double(after - before - nameBytes) / double(entries) : 0.0;
        result[QStringLiteral("max_ui_stall_ms")] = stalls.longestMs();
        if (!filter.isEmpty()) {
            result[QStringLiteral("filter")] = filter;
            result[QStringLiteral("filter_first_match_ms")] = filterFirstMatch;
            result[QStringLiteral("filter_complete_ms")] = filterComplete;
            result[QStringLiteral("filter_entries")] = qint64(window->model()->tree().size() - 1);
            // Archives inside the file the filter opened (default View setting: none).
            result[QStringLiteral("nested_opened")] = window->browseView()->loader()->tree().layerCount() - 1;
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
