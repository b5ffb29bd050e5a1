// SPDX-License-Identifier: MIT
#include "entry_extractor.h"

#include "conflict_question.h"
#include "io/byte_text.h"
#include "io/remove_tree.h"

#include <QDesktopServices>
#include <QDir>
#include <QEventLoop>
#include <QUrl>
#include <QProgressDialog>

namespace asc::ui {

EntryExtractor::EntryExtractor(QWidget *window)
    : QObject(window),
      window_(window)
{
}

EntryExtractor::~EntryExtractor()
{
    cancel();
    if (running_)
        running_->waitForFinished();
    if (dragDir_)
        removeTree(dragDir_->path()); // by bytes: dragged names need not be UTF-8 (QDir cannot)
}

void EntryExtractor::cancel()
{
    stop_->store(true); // a question waiting for an answer gives up
    if (running_)
        running_->cancel();
}

ExtractOptions EntryExtractor::askOptions()
{
    ExtractOptions options;
    options.existing = ExistingPolicy::Ask; // names already in the destination: the user decides
    return options;
}

void EntryExtractor::extractTo(QList<ExtractRequest> requests, const QString &directory, ExtractOptions options, uint64_t totalBytes, bool openWhenDone)
{
    if (running_)
        return;
    QDir().mkpath(directory);
    running_ = new QFutureWatcher<ExtractSummary>(this);
    auto *dialog = new QProgressDialog(tr("Extracting into %1…").arg(directory), tr("Cancel"), 0, int(std::min<uint64_t>(totalBytes >> 20, INT32_MAX)), window_);
    dialog->setObjectName(QStringLiteral("extractProgress"));
    dialog->setMinimumDuration(500);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    connect(dialog, &QProgressDialog::canceled, this, &EntryExtractor::cancel);
    connect(running_, &QFutureWatcher<ExtractSummary>::progressValueChanged, dialog, &QProgressDialog::setValue);
    connect(running_, &QFutureWatcher<ExtractSummary>::progressTextChanged, this,
            [this](const QString &text) { Q_EMIT progress(tr("Extracting… %1").arg(text)); });
    connect(running_, &QFutureWatcher<ExtractSummary>::finished, this, [this, dialog, directory, openWhenDone] {
        dialog->deleteLater();
        const ExtractSummary summary = running_->future().resultCount() ? running_->result() : ExtractSummary{};
        running_->deleteLater();
        running_ = nullptr;
        const bool openFailed = openWhenDone && !summary.error && !QDesktopServices::openUrl(QUrl::fromLocalFile(directory));
        QString text = describe(summary) + tr(" — in %1").arg(directory);
        if (openFailed)
            text += tr(" (no file manager could be started to show it: is xdg-open installed?)");
        const QStringList listed = summary.refusals + summary.danglingLinks;
        if (!listed.isEmpty())
            text += QStringLiteral("\n") + listed.mid(0, 20).join(QLatin1Char('\n')) +
                    (listed.size() > 20 ? tr("\n… and %1 more").arg(listed.size() - 20) : QString());
        Q_EMIT finished(text, !listed.isEmpty() || summary.error.has_value());
    });
    stop_->store(false);
    if (options.existing == ExistingPolicy::Ask)
        options.ask = conflictQuestion(QPointer<QWidget>(window_), stop_);
    running_->setFuture(extractAsync(std::move(requests), directory, options));
}

QStringList EntryExtractor::extractForDrag(const QList<ExtractRequest> &requests, uint64_t totalBytes)
{
    if (running_)
        return {};
    if (dragDir_)
        removeTree(dragDir_->path());
    dragDir_ = std::make_unique<QTemporaryDir>();
    dragDir_->setAutoRemove(false);
    const QString directory = dragDir_->path();

    QProgressDialog dialog(tr("Extracting for the drop…"), tr("Cancel"), 0, int(std::min<uint64_t>(totalBytes >> 20, INT32_MAX)), window_);
    dialog.setObjectName(QStringLiteral("dragProgress"));
    dialog.setWindowModality(Qt::WindowModal); // the window cannot change under the extraction
    dialog.setMinimumDuration(300);
    QFutureWatcher<ExtractSummary> watcher;
    QEventLoop loop;
    connect(&watcher, &QFutureWatcher<ExtractSummary>::progressValueChanged, &dialog, &QProgressDialog::setValue);
    connect(&watcher, &QFutureWatcher<ExtractSummary>::finished, &loop, &QEventLoop::quit);
    connect(&dialog, &QProgressDialog::canceled, &watcher, [&watcher] { watcher.cancel(); });
    watcher.setFuture(extractAsync(requests, directory, ExtractOptions{}));
    if (!watcher.isFinished())
        loop.exec();
    const ExtractSummary summary = watcher.future().resultCount() ? watcher.result() : ExtractSummary{};
    if (watcher.isCanceled() || summary.error || !summary.refusals.isEmpty())
        return {};
    QStringList paths;
    for (const ExtractRequest &request : requests)
        paths << directory + QLatin1Char('/') + bytesToText(request.selection);
    return paths;
}

} // namespace asc::ui
