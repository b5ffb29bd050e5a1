// SPDX-License-Identifier: MIT
#include "io_trace.h"

#include <QFileInfo>

namespace asc::ui {

QStringList IoTrace::layers() const
{
    QStringList out;
    for (const TraceRecord &r : records) {
        const QString layer = QString::fromUtf8(r.layer);
        if (!out.contains(layer))
            out << layer;
    }
    return out;
}

IoTrace collectTrace(const QString &title)
{
    IoTrace trace;
    trace.title = title;
    trace.records = asc::IoTrace::stop();
    trace.files = asc::IoTrace::files();
    for (const QString &file : trace.files)
        trace.fileSizes.push_back(uint64_t(std::max<qint64>(0, QFileInfo(file).size())));
    return trace;
}

} // namespace asc::ui
