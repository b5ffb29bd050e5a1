// SPDX-License-Identifier: MIT
#include "task_pool.h"

#include <algorithm>

namespace asc {

QThreadPool *taskPool()
{
    // Made on first use and never destroyed: tasks may still be finishing while statics go.
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool;
        p->setObjectName(QStringLiteral("asc-tasks"));
        p->setMaxThreadCount(std::max(8, 2 * QThread::idealThreadCount()));
        return p;
    }();
    return pool;
}

} // namespace asc
