// SPDX-License-Identifier: MIT
#include "open_job.h"

#include "io/task_pool.h"

#include "open/reading_policy.h"
#include "open/spec.h"
#include "remote/remote_container.h"

#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

SandboxChoice &sandbox()
{
    static SandboxChoice choice;
    return choice;
}

QFuture<Result<Inspected>> openSpecAsync(const QString &spec, const QByteArray &nameCharset, WorkerPtr *workerOut)
{
    WorkerPtr worker;
    if (sandbox().enabled) {
        WorkerSettings settings = sandbox().worker;
        settings.nameCharset = nameCharset;
        auto started = WorkerChannel::start(splitSpec(spec).file, settings);
        if (!started)
            return QtFuture::makeReadyFuture(Result<Inspected>(started.error()));
        worker = *started;
    }
    if (workerOut)
        *workerOut = worker;
    return QtConcurrent::run(taskPool(), [spec, nameCharset, worker]() -> Result<Inspected> {
        const NameCharsetScope charset(nameCharset);
        InspectOptions options;
        options.headBytes = kHeadBytes;
        options.allocation = true;
        // An exception escaping a task would skip the window's continuation and leave it
        // "Opening…" for ever: it becomes an error value like any other.
        try {
            return worker ? inspectIn(worker, spec, options) : inspect(spec, options);
        } catch (const std::exception &e) {
            return Error::make(ErrorKind::Format, spec, QStringLiteral("internal error: %1").arg(QString::fromLocal8Bit(e.what())));
        } catch (...) {
            return Error::make(ErrorKind::Format, spec, QStringLiteral("internal error"));
        }
    });
}

} // namespace asc::ui
