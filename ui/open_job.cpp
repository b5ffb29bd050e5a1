// SPDX-License-Identifier: MIT
#include "open_job.h"

#include "open/reading_policy.h"

#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

QFuture<Result<Inspected>> openSpecAsync(const QString &spec, const QByteArray &nameCharset)
{
    return QtConcurrent::run([spec, nameCharset]() -> Result<Inspected> {
        const NameCharsetScope charset(nameCharset);
        // An exception escaping a task would skip the window's continuation and leave it
        // "Opening…" for ever: it becomes an error value like any other.
        try {
            InspectOptions options;
            options.headBytes = kHeadBytes;
            options.allocation = true;
            return inspect(spec, options);
        } catch (const std::exception &e) {
            return Error::make(ErrorKind::Format, spec, QStringLiteral("internal error: %1").arg(QString::fromLocal8Bit(e.what())));
        } catch (...) {
            return Error::make(ErrorKind::Format, spec, QStringLiteral("internal error"));
        }
    });
}

} // namespace asc::ui
