// SPDX-License-Identifier: MIT
#include "cli_json_job.h"

#include "cli_process.h"

#include <QJsonDocument>

namespace asc::ui {

CliJsonJob::CliJsonJob(QObject *parent)
    : QObject(parent)
{
}

CliJsonJob::~CliJsonJob()
{
    stop();
}

void CliJsonJob::start(const QStringList &arguments)
{
    stop();
    stopped_ = false;
    pendingOut_.clear();
    pendingErr_.clear();
    process_ = new QProcess(this);
    QProcess *process = process_;
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
        if (process == process_)
            readOut();
    });
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        if (process == process_)
            readErr();
    });
    connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
        if (process != process_)
            return;
        readOut();
        readErr();
        if (!pendingErr_.isEmpty())
            Q_EMIT errorLine(QString::fromUtf8(pendingErr_));
        process_->deleteLater();
        process_ = nullptr;
        Q_EMIT finished(stopped_ || status != QProcess::NormalExit ? -1 : code, stopped_);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (process != process_ || error != QProcess::FailedToStart)
            return;
        Q_EMIT errorLine(tr("cannot start archivescope-cli: %1").arg(process->errorString()));
        process_->deleteLater();
        process_ = nullptr;
        Q_EMIT finished(-1, false);
    });
    startCli(*process_, arguments); // with the window's passwords, on its input
}

void CliJsonJob::stop()
{
    if (!running())
        return;
    stopped_ = true;
    process_->kill(); // its worker dies with it
    process_->waitForFinished(5000);
}

void CliJsonJob::readOut()
{
    pendingOut_ += process_->readAllStandardOutput();
    qsizetype start = 0;
    for (qsizetype end; (end = pendingOut_.indexOf('\n', start)) >= 0; start = end + 1) {
        const QJsonObject object = QJsonDocument::fromJson(pendingOut_.mid(start, end - start)).object();
        if (!object.isEmpty())
            Q_EMIT line(object);
    }
    pendingOut_.remove(0, start);
}

void CliJsonJob::readErr()
{
    pendingErr_ += process_->readAllStandardError();
    qsizetype start = 0;
    for (qsizetype end; (end = pendingErr_.indexOf('\n', start)) >= 0; start = end + 1) {
        const QByteArray text = pendingErr_.mid(start, end - start).trimmed();
        if (!text.isEmpty())
            Q_EMIT errorLine(QString::fromUtf8(text));
    }
    pendingErr_.remove(0, start);
}

} // namespace asc::ui
