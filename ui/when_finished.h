// SPDX-License-Identifier: MIT
#pragma once
// Runs `handler(result)` on `context`'s thread when `future` finishes, through a QFutureWatcher
// connected before the future is set (the documented race-free order). Used instead of
// QFuture::then(context, ...), with which a second window was seen stuck on "Opening…" in about
// one loaded test run in ten (Qt 6.4; the cause was not pinned down).

#include <QFutureWatcher>
#include <QObject>

namespace asc::ui {

template <typename T, typename Handler>
void whenFinished(QObject *context, QFuture<T> future, Handler handler)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcher<T>::finished, context, [watcher, handler = std::move(handler)]() mutable {
        watcher->deleteLater();
        if (watcher->future().resultCount() > 0)
            handler(watcher->future().takeResult());
    });
    watcher->setFuture(std::move(future));
}

} // namespace asc::ui
