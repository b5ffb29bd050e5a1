// SPDX-License-Identifier: MIT
#include "helper_program.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace asc {

QString helperProgram(const QString &name, const char *overrideVariable)
{
    const QString chosen = qEnvironmentVariable(overrideVariable);
    if (!chosen.isEmpty())
        return chosen;
    const QString dir = QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QStringLiteral(".");
    const QString beside = dir + QLatin1Char('/') + name;
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QDir::cleanPath(dir + QStringLiteral("/" ARCHIVESCOPE_WORKER_FROM_BIN "/") + name);
}

} // namespace asc
