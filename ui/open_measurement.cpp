// SPDX-License-Identifier: MIT
#include "open_measurement.h"

#include "entry_tree_model.h"
#include "main_window.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
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

int measureOpen(const QString &spec)
{
    auto *window = new MainWindow;
    window->show();
    QCoreApplication::processEvents();
    malloc_trim(0);
    const qint64 before = residentBytes();
    QElapsedTimer timer;
    qint64 firstRows = -1;
    qint64 complete = -1;
    std::function<void()> report;
    // Rows are counted as the model receives them, which is when the view can show them.
    QObject::connect(window->model(), &QAbstractItemModel::rowsInserted, window, [&] {
        if (firstRows < 0 && window->model()->tree().size() > 1000)
            firstRows = timer.elapsed();
    });
    QObject::connect(window, &MainWindow::listingFinished, window, [&] {
        complete = timer.elapsed();
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
    window->openSpec(spec);
    const int code = QCoreApplication::exec();
    delete window;
    return code;
}

} // namespace asc::ui
