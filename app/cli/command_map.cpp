// SPDX-License-Identifier: MIT
// `map SPEC [--json]`: the allocation of a disk image's virtual disk, like
// `qemu-img map --output=json` (start, length, depth, present, zero, data, offset; plus compressed).

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "open/disk_map.h"

#include <QJsonDocument>

namespace asc::cli {

int runMap(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("map"),
                     QStringLiteral("Show which ranges of a disk image's virtual disk hold data, zeros, compressed data, or come from\n"
                                    "a backing file (depth 1, 2, ...). --json prints the same array as `qemu-img map --output=json`,\n"
                                    "with an extra \"compressed\" field. A raw file maps as data, its holes as zeros."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("a disk image (or a raw disk / partition)"));
    p.parser().addOption({QStringLiteral("json"), QStringLiteral("JSON array of extents.")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = p.parser().positionalArguments().first();
    auto extents = mapDisk(spec);
    if (!extents)
        return fail(spec, extents.error());
    if (p.parser().isSet(QStringLiteral("json"))) {
        printLine(QString::fromUtf8(QJsonDocument(extentsToJson(*extents)).toJson(QJsonDocument::Compact)));
        return Success;
    }
    printLine(QStringLiteral("%1 %2 %3  %4").arg(QStringLiteral("Start"), -18).arg(QStringLiteral("Length"), -18).arg(QStringLiteral("Depth"), -5).arg(QStringLiteral("State")));
    for (const DiskExtent &e : *extents) {
        QString state = e.data ? (e.compressed ? QStringLiteral("compressed data") : QStringLiteral("data")) : e.zero ? QStringLiteral("zero")
                                                                                                                      : QStringLiteral("?");
        if (!e.present)
            state += QStringLiteral(" (unallocated)");
        if (e.offset)
            state += QStringLiteral(" at 0x%1").arg(*e.offset, 0, 16);
        printLine(QStringLiteral("0x%1 0x%2 %3  %4").arg(e.start, 16, 16, QLatin1Char('0')).arg(e.length, 16, 16, QLatin1Char('0')).arg(e.depth, 5).arg(state));
    }
    return Success;
}

} // namespace asc::cli
