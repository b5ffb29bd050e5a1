// SPDX-License-Identifier: MIT
#pragma once
// A window's extractions, always on a worker thread: "Extract to a folder" (names already there
// are asked about) and drag-out, which extracts into a temporary folder while a progress dialog
// with Cancel keeps the event loop answering (the drop needs the files before it happens).

#include "extract_job.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QTemporaryDir>
#include <atomic>
#include <memory>

namespace asc::ui {

class EntryExtractor : public QObject {
    Q_OBJECT
public:
    explicit EntryExtractor(QWidget *window);
    ~EntryExtractor() override; // cancels and waits

    bool isBusy() const { return running_ != nullptr; }
    // Extracts into `directory` (made when missing) with a progress dialog that can cancel;
    // `finished` follows, naming the folder. With ExistingPolicy::Ask names already there are
    // asked about. `openWhenDone` opens the folder in the file manager. Ignored while one runs.
    void extractTo(QList<ExtractRequest> requests, const QString &directory, ExtractOptions options = askOptions(),
                   uint64_t totalBytes = 0, bool openWhenDone = false);
    static ExtractOptions askOptions();
    // Extracts into a fresh temporary folder (the previous one is removed) and returns the paths
    // of what was extracted completely; empty when cancelled or refused. `totalBytes` sizes the
    // progress bar. Waits in a local event loop: the window stays responsive.
    QStringList extractForDrag(const QList<ExtractRequest> &requests, uint64_t totalBytes);
    void cancel();

Q_SIGNALS:
    void progress(const QString &text);
    // `text` is the summary, with refusals listed; `failed` when anything was refused or stopped.
    void finished(const QString &text, bool failed);

private:
    QWidget *window_;
    QFutureWatcher<ExtractSummary> *running_ = nullptr;
    std::unique_ptr<QTemporaryDir> dragDir_;
    std::shared_ptr<std::atomic_bool> stop_ = std::make_shared<std::atomic_bool>(false);
};

} // namespace asc::ui
