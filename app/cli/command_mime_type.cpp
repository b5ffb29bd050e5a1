// SPDX-License-Identifier: MIT
// `mime-type FILE...`: the MIME type the desktop would give each file (shared-mime-info, by content
// and name), as `FILE: TYPE` lines. Lets the installation test check file associations.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"

#include <QMimeDatabase>

namespace asc::cli {

int runMimeType(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("mime-type"), QStringLiteral("Print the MIME type the desktop's database gives each FILE."));
    p.addPositional(QStringLiteral("FILE"), QStringLiteral("files to look at"), QStringLiteral("FILE..."));
    if (auto stop = p.parse(args, 1, 1000))
        return *stop;
    QMimeDatabase db;
    for (const QString &file : p.parser().positionalArguments())
        printLine(file + QStringLiteral(": ") + db.mimeTypeForFile(file).name());
    return Success;
}

} // namespace asc::cli
