// SPDX-License-Identifier: MIT
#include "cli_process.h"

#include "open/reading_policy.h"
#include "sandbox/helper_program.h"

namespace asc::ui {

void startCli(QProcess &process, QStringList arguments)
{
    QList<QByteArray> passwords = archivePasswords();
    if (passwords.isEmpty()) {
        process.setStandardInputFile(QProcess::nullDevice());
        process.start(helperProgram(QStringLiteral("archivescope-cli"), "ARCHIVESCOPE_CLI"), arguments);
        return;
    }
    arguments << QStringLiteral("--password-file") << QStringLiteral("/dev/stdin");
    process.start(helperProgram(QStringLiteral("archivescope-cli"), "ARCHIVESCOPE_CLI"), arguments);
    QByteArray lines;
    for (const QByteArray &password : passwords)
        lines += password + '\n';
    process.write(lines);
    process.closeWriteChannel();
    wipePasswords(passwords);
    lines.fill('\0');
}

} // namespace asc::ui
