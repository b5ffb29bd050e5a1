// SPDX-License-Identifier: MIT
#include "mounts.h"

#include "cli_process.h"

#include <QProcess>

namespace asc::ui {

Mounts::Mounts(QObject *parent)
    : QObject(parent)
{
}

Mounts::~Mounts()
{
    unmountAll();
}

void Mounts::mount(const QString &spec, const QString &dir)
{
    auto *process = new QProcess(this);
    connect(process, &QProcess::finished, this, [this, process, spec, dir](int code, QProcess::ExitStatus status) {
        process->deleteLater();
        if (status == QProcess::NormalExit && code == 0) {
            dirs_ << dir;
            Q_EMIT mountedAt(spec, dir);
            Q_EMIT changed();
            return;
        }
        QString why = QString::fromUtf8(process->readAllStandardError()).trimmed();
        why.remove(QStringLiteral("archivescope-cli: "));
        Q_EMIT failed(spec, why.isEmpty() ? tr("the mount did not start") : why);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, spec](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            process->deleteLater();
            Q_EMIT failed(spec, tr("cannot start archivescope-cli: %1").arg(process->errorString()));
        }
    });
    // The command returns once the mount is in place; it goes on in the background.
    startCli(*process, {QStringLiteral("mount"), spec, dir}); // with the window's passwords, on its input
}

void Mounts::unmountAll()
{
    if (dirs_.isEmpty())
        return;
    for (const QString &dir : std::as_const(dirs_))
        QProcess::execute(QStringLiteral("fusermount3"), {QStringLiteral("-u"), dir});
    dirs_.clear();
    Q_EMIT changed();
}

} // namespace asc::ui
