// SPDX-License-Identifier: MIT
#pragma once
// One Find in Contents run: `archivescope-cli grep --json --progress PATTERN SPEC` in a process of
// its own (its parsing in that command's sandboxed worker), read as it writes: matches, progress
// and problems as signals, never a wait on the window's thread. Stop ends the process. At most
// kMaxMatches are reported; then the search stops and says so.

#include <QObject>
#include <QProcess>
#include <QString>

namespace asc::ui {

struct ContentMatch {
    QString spec; // the entry's SPEC
    qint64 line = 0; // 1-based; 0 for a binary file's "matches"
    QString text; // the line (or "binary file matches")
};

struct ContentSearchOptions {
    QString pattern;
    bool ignoreCase = true;
    enum class Syntax { Literal,
                        Extended,
                        Perl } syntax = Syntax::Literal;
};

class ContentSearchJob : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxMatches = 100000;

    explicit ContentSearchJob(QObject *parent = nullptr);
    ~ContentSearchJob() override;

    void start(const QString &spec, const ContentSearchOptions &options);
    void stop();
    bool running() const { return process_ && process_->state() != QProcess::NotRunning; }
    // The grep command's arguments for `options` (the pattern after `--`).
    static QStringList arguments(const QString &spec, const ContentSearchOptions &options);

Q_SIGNALS:
    void matched(const QList<ContentMatch> &batch);
    void progress(qint64 files, qint64 bytes);
    void problem(const QString &text);
    // found: any line matched; stopped: by Stop or at kMaxMatches.
    void finished(bool found, bool stopped);

private:
    void readMatches();
    void readProgress();

    QProcess *process_ = nullptr;
    QByteArray pendingOut_, pendingErr_;
    int reported_ = 0;
    bool stopped_ = false;
};

} // namespace asc::ui
