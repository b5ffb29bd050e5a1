// SPDX-License-Identifier: MIT
#include "content_search_job.h"

#include "sandbox/helper_program.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace asc::ui {

ContentSearchJob::ContentSearchJob(QObject *parent)
    : QObject(parent)
{
}

ContentSearchJob::~ContentSearchJob()
{
    stop();
}

QStringList ContentSearchJob::arguments(const QString &spec, const ContentSearchOptions &options)
{
    QStringList args{QStringLiteral("grep"), QStringLiteral("--json"), QStringLiteral("--progress")};
    if (options.ignoreCase)
        args << QStringLiteral("-i");
    switch (options.syntax) {
    case ContentSearchOptions::Syntax::Literal:
        args << QStringLiteral("-F");
        break;
    case ContentSearchOptions::Syntax::Extended:
        args << QStringLiteral("-E");
        break;
    case ContentSearchOptions::Syntax::Perl:
        args << QStringLiteral("-P");
        break;
    }
    // `--`: a pattern that starts with '-' is a pattern.
    return args << QStringLiteral("--") << options.pattern << spec;
}

void ContentSearchJob::start(const QString &spec, const ContentSearchOptions &options)
{
    stop();
    reported_ = 0;
    stopped_ = false;
    pendingOut_.clear();
    pendingErr_.clear();
    process_ = new QProcess(this);
    process_->setStandardInputFile(QProcess::nullDevice());
    QProcess *process = process_;
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
        if (process == process_)
            readMatches();
    });
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        if (process == process_)
            readProgress();
    });
    connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus) {
        if (process != process_)
            return;
        readMatches();
        readProgress();
        process_->deleteLater();
        process_ = nullptr;
        Q_EMIT finished(code == 0 || reported_ > 0, stopped_);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (process != process_ || error != QProcess::FailedToStart)
            return;
        Q_EMIT problem(tr("cannot start archivescope-cli: %1").arg(process->errorString()));
        process_->deleteLater();
        process_ = nullptr;
        Q_EMIT finished(false, false);
    });
    process_->start(helperProgram(QStringLiteral("archivescope-cli"), "ARCHIVESCOPE_CLI"), arguments(spec, options));
}

void ContentSearchJob::stop()
{
    if (!running())
        return;
    stopped_ = true;
    process_->kill(); // its worker dies with it
    process_->waitForFinished(5000);
}

void ContentSearchJob::readMatches()
{
    if (!process_)
        return;
    pendingOut_ += process_->readAllStandardOutput();
    QList<ContentMatch> batch;
    qsizetype start = 0;
    for (qsizetype end; (end = pendingOut_.indexOf('\n', start)) >= 0 && reported_ + batch.size() < kMaxMatches; start = end + 1) {
        const QJsonObject line = QJsonDocument::fromJson(pendingOut_.mid(start, end - start)).object();
        if (line.isEmpty())
            continue;
        ContentMatch match;
        match.spec = line.value(QStringLiteral("spec")).toString();
        if (line.value(QStringLiteral("binary")).toBool()) {
            match.text = tr("binary file matches");
        } else {
            match.line = qint64(line.value(QStringLiteral("line")).toDouble());
            match.text = line.value(QStringLiteral("text")).toString();
        }
        batch << match;
    }
    pendingOut_.remove(0, start);
    if (!batch.isEmpty()) {
        reported_ += int(batch.size());
        Q_EMIT matched(batch);
    }
    if (reported_ >= kMaxMatches && running()) {
        stopped_ = true;
        Q_EMIT problem(tr("Stopped at the first %1 matches: narrow the pattern.").arg(kMaxMatches));
        process_->kill();
    }
}

void ContentSearchJob::readProgress()
{
    if (!process_)
        return;
    pendingErr_ += process_->readAllStandardError();
    qsizetype start = 0;
    for (qsizetype end; (end = pendingErr_.indexOf('\n', start)) >= 0; start = end + 1) {
        const QByteArray line = pendingErr_.mid(start, end - start);
        const QJsonObject facts = line.startsWith('{') ? QJsonDocument::fromJson(line).object() : QJsonObject();
        if (facts.contains(QStringLiteral("files")))
            Q_EMIT progress(qint64(facts.value(QStringLiteral("files")).toDouble()), qint64(facts.value(QStringLiteral("bytes")).toDouble()));
        else if (!line.trimmed().isEmpty())
            Q_EMIT problem(QString::fromUtf8(line).remove(QStringLiteral("archivescope-cli: ")));
    }
    pendingErr_.remove(0, start);
}

} // namespace asc::ui
