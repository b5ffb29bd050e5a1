// SPDX-License-Identifier: MIT
#pragma once
// One `archivescope-cli COMMAND --json ...` run in a process of its own (its parsing in that
// command's sandboxed worker), read as it writes: each JSON line of its output and each line of
// its error stream as a signal, never a wait on the window's thread. Stop ends the process.

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStringList>

namespace asc::ui {

class CliJsonJob : public QObject {
    Q_OBJECT
public:
    explicit CliJsonJob(QObject *parent = nullptr);
    ~CliJsonJob() override;

    void start(const QStringList &arguments);
    void stop();
    bool running() const { return process_ && process_->state() != QProcess::NotRunning; }

Q_SIGNALS:
    void line(const QJsonObject &object);
    void errorLine(const QString &text);
    // exitCode: the command's (-1 when it could not start or was stopped).
    void finished(int exitCode, bool stopped);

private:
    void readOut();
    void readErr();

    QProcess *process_ = nullptr;
    QByteArray pendingOut_, pendingErr_;
    bool stopped_ = false;
};

} // namespace asc::ui
