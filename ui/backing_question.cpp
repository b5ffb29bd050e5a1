// SPDX-License-Identifier: MIT
#include "backing_question.h"

#include "open/reading_policy.h"

#include <QApplication>
#include <QMessageBox>
#include <QThread>

namespace asc::ui {

static bool ask(const QString &image, const QString &backing)
{
    const QString text = QObject::tr("The disk image\n%1\nreads its unchanged parts from a backing file outside its folder:\n%2\n\n"
                                     "Follow it? Only do this for images you trust.")
                             .arg(image, backing);
    return QMessageBox::question(QApplication::activeWindow(), QObject::tr("Follow Backing File?"), text) == QMessageBox::Yes;
}

void installBackingQuestion()
{
    backingPolicy().askOutside = [](const QString &image, const QString &backing) {
        // Images are opened on worker threads: the question is asked on the UI thread, which
        // blocks only the worker that wants the answer.
        if (QThread::currentThread() == qApp->thread())
            return ask(image, backing);
        bool allowed = false;
        QMetaObject::invokeMethod(
            qApp, [&] { allowed = ask(image, backing); }, Qt::BlockingQueuedConnection);
        return allowed;
    };
}

} // namespace asc::ui
