// SPDX-License-Identifier: MIT
// `ls SPEC [--json]`: every entry below SPEC, recursively, in archive order.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "entry_format.h"
#include "open/spec.h"

namespace asc::cli {

// Output is flushed in chunks: one write per entry would dominate listing a 200k-entry tar.
static constexpr qsizetype kFlushAt = 256 * 1024;

int runLs(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("ls"), QStringLiteral("List every entry below SPEC, recursively, in archive order."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("an archive, a disk image, or a directory inside one"));
    p.parser().addOption({QStringLiteral("json"), QStringLiteral("JSON Lines: one object per entry (see CLI.md).")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = p.parser().positionalArguments().first();
    const bool json = p.parser().isSet(QStringLiteral("json"));
    auto location = resolve(spec);
    if (!location)
        return fail(spec, location.error());
    auto container = containerAt(*location);
    if (!container)
        return fail(spec, container.error());
    const QByteArray prefix = location->isDirectory() && !location->directory.isEmpty() ? location->directory + '/' : QByteArray();
    QByteArray out;
    out.reserve(kFlushAt + 4096);
    bool pipeClosed = false;
    std::optional<Error> writeError;
    auto listed = (*container)->list([&](const Entry &entry) {
        if (!prefix.isEmpty() && !entry.path.startsWith(prefix))
            return true;
        const QByteArray path = prefix.isEmpty() ? entry.path : entry.path.mid(prefix.size());
        if (path.isEmpty())
            return true;
        if (json)
            appendEntryJson(out, entry, path);
        else
            appendEntryText(out, entry, path);
        if (out.size() >= kFlushAt) {
            auto written = writeStdout(out.constData(), size_t(out.size()));
            out.resize(0); // keeps the allocation
            if (!written) {
                writeError = written.error();
                return false;
            }
            if (!*written) {
                pipeClosed = true;
                return false;
            }
        }
        return true;
    });
    if (writeError)
        return fail(spec, *writeError);
    if (pipeClosed)
        return Success;
    auto written = writeStdout(out.constData(), size_t(out.size()));
    if (!listed)
        return fail(spec, listed.error());
    if (!written)
        return fail(spec, written.error());
    return Success;
}

} // namespace asc::cli
