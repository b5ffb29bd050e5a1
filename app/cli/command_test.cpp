// SPDX-License-Identifier: MIT
// `test SPEC [--json]`: read every entry below SPEC, and what opens inside them, to check what the
// formats carry (CRCs, checksums, decoder ends, extent trees); one line per problem, exit 0 when
// all is well (open/verification.h).

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "entry_format.h"
#include "open/spec.h"
#include "open/verification.h"
#include "walk_target.h"

namespace asc::cli {

int runTest(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("test"),
                     QStringLiteral("Read every entry below SPEC to its end, and the archives, partitions and filesystems inside\n"
                                    "them (8 levels deep), checking everything the formats carry (CRCs, checksums, decoder ends,\n"
                                    "filesystem structures). One line per problem, 'SPEC: what is wrong'; then a summary.\n"
                                    "Exit status 0 when all is well, 1 when anything is wrong."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("an archive, a disk image, or an entry or folder inside one"));
    p.parser().addOption({QStringLiteral("json"), QStringLiteral("JSON Lines: {\"spec\", \"offset\", \"problem\"} per problem, then a summary object.")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = p.parser().positionalArguments().first();
    const bool json = p.parser().isSet(QStringLiteral("json"));
    auto location = resolve(spec);
    if (!location)
        return fail(spec, location.error());
    auto target = walkTargetOf(*location, spec);
    if (!target)
        return fail(spec, target.error());
    auto print = [&](const TestProblem &problem) {
        QByteArray line;
        if (json) {
            line = "{\"spec\":";
            appendJsonString(line, problem.spec.toUtf8());
            line += ",\"offset\":" + (problem.error.offset ? QByteArray::number(qulonglong(*problem.error.offset)) : QByteArray("null"));
            line += ",\"problem\":";
            appendJsonString(line, problem.error.message.toUtf8());
            line += "}\n";
        } else {
            line = (problem.spec + QStringLiteral(": ") + (problem.error.offset ? QStringLiteral("offset %1: ").arg(*problem.error.offset) : QString()) +
                    problem.error.message + QLatin1Char('\n'))
                       .toUtf8();
        }
        (void)writeStdout(line.constData(), size_t(line.size()));
    };
    const TestReport report = testContainer(target->container, target->under, target->selection, 8, print);
    const QString summary = QStringLiteral("%1 entries, %2 files (%3 bytes) in %4 containers: %5")
                                .arg(report.entries)
                                .arg(report.files)
                                .arg(report.bytes)
                                .arg(report.containers)
                                .arg(report.problems == 0 ? QStringLiteral("everything is OK") : QStringLiteral("%1 problems").arg(report.problems));
    if (json) {
        const QByteArray line = QStringLiteral("{\"entries\":%1,\"files\":%2,\"bytes\":%3,\"containers\":%4,\"problems\":%5}\n")
                                    .arg(report.entries)
                                    .arg(report.files)
                                    .arg(report.bytes)
                                    .arg(report.containers)
                                    .arg(report.problems)
                                    .toUtf8();
        (void)writeStdout(line.constData(), size_t(line.size()));
    } else {
        printLine(summary);
    }
    return report.problems == 0 ? Success : Failure;
}

} // namespace asc::cli
