// SPDX-License-Identifier: MIT
#pragma once
// AsyncReader on a private thread pool: each read is a blocking readAt on a pool thread, up to the
// queue depth at once. Used where io_uring is unavailable and for sources that are not file ranges.

#include "async_reader.h"

#include <QThreadPool>
#include <condition_variable>
#include <deque>
#include <mutex>

namespace asc {

class ThreadPoolReader final : public AsyncReader {
public:
    ThreadPoolReader(SourcePtr source, const AsyncOptions &options);
    ~ThreadPoolReader() override;

    QString backendName() const override { return QStringLiteral("thread pool"); }

protected:
    void start(int slot) override;
    std::optional<Completion> next(bool wait) override;

private:
    QThreadPool pool_;
    std::mutex mutex_;
    std::condition_variable finished_;
    std::deque<Completion> completed_;
};

} // namespace asc
