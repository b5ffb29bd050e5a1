// SPDX-License-Identifier: MIT
// `index SPEC [--json]`: the index of a compressed tarball (formats/archive/index_cache): built by
// one full pass when missing, then what it holds and where it is stored. `index --drop SPEC`
// removes it.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "open/archive_indexes.h"
#include "io/units.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace asc::cli {

namespace {
// Why a file has no restart point besides its start, by its filter.
QString noPointsReason(const QStringList &filters)
{
    const QString f = filters.join(QStringLiteral(", "));
    if (f == QLatin1String("gzip"))
        return QStringLiteral("the file is shorter than one span");
    if (f == QLatin1String("xz"))
        return QStringLiteral("one xz block (xz -T0 and pixz write several)");
    if (f == QLatin1String("bzip2"))
        return QStringLiteral("one bzip2 block");
    if (f == QLatin1String("zstd"))
        return QStringLiteral("one zstd frame (what zstd writes; pzstd and zstd's seekable format write several)");
    if (f == QLatin1String("lz4"))
        return QStringLiteral("one lz4 frame (what lz4 writes; files compressed in parts have several)");
    return QStringLiteral("%1 has no restart points").arg(f);
}
} // namespace

int runIndex(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("index"), QStringLiteral("Build the index of a compressed tarball if it has none, and show what it holds: "
                                                             "its members, the decoder's seek points and where it is stored."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("a compressed tar archive (tar.gz, tar.xz, tar.zst, tar.bz2, ...)"));
    p.parser().addOption({QStringLiteral("json"), QStringLiteral("One JSON object (see CLI.md).")});
    p.parser().addOption({QStringLiteral("drop"), QStringLiteral("Remove the index instead.")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = p.parser().positionalArguments().first();
    const bool json = p.parser().isSet(QStringLiteral("json"));
    auto location = resolve(spec);
    if (!location)
        return fail(spec, location.error());
    if (p.parser().isSet(QStringLiteral("drop"))) {
        auto dropped = dropArchiveIndex(*location);
        if (!dropped)
            return fail(spec, dropped.error());
        printLine(*dropped ? QStringLiteral("%1: index removed").arg(spec) : QStringLiteral("%1: had no index").arg(spec));
        return Success;
    }
    auto made = archiveIndexAt(*location);
    if (!made)
        return fail(spec, made.error());
    const ArchiveIndexFacts &index = *made;
    const uint64_t spacing = index.seekPoints > 0 ? index.decodedBytes / index.seekPoints : 0;
    const QString seekText = index.seekPoints > 0
                                 ? QStringLiteral("%1 seek points, one per %2 of decoded bytes on average").arg(index.seekPoints).arg(sizeLabel(spacing))
                                 : QStringLiteral("no seek points: %1; a member is read from the archive's start").arg(noPointsReason(index.filters));
    if (json) {
        QJsonObject o;
        o[QStringLiteral("spec")] = spec;
        o[QStringLiteral("index_file")] = index.file;
        o[QStringLiteral("index_bytes")] = double(index.fileBytes);
        o[QStringLiteral("built_now")] = index.builtNow;
        o[QStringLiteral("format")] = index.format;
        o[QStringLiteral("filters")] = QJsonArray::fromStringList(index.filters);
        o[QStringLiteral("members")] = double(index.members);
        o[QStringLiteral("decoded_bytes")] = double(index.decodedBytes);
        o[QStringLiteral("seek_points")] = double(index.seekPoints);
        o[QStringLiteral("largest_span_bytes")] = double(index.largestSpanBytes);
        o[QStringLiteral("seek_point_spacing")] = double(spacing);
        printLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
        return Success;
    }
    printLine(QStringLiteral("%1: %2").arg(spec, index.builtNow ? QStringLiteral("indexed now (one full pass)") : QStringLiteral("indexed")));
    printLine(QStringLiteral("  format: %1, %2").arg(index.format, index.filters.join(QStringLiteral(", "))));
    printLine(QStringLiteral("  members: %1 in %2 decoded").arg(index.members).arg(sizeLabel(index.decodedBytes)));
    printLine(QStringLiteral("  %1").arg(seekText));
    printLine(QStringLiteral("  stored: %1 (%2)").arg(index.file, sizeLabel(index.fileBytes)));
    return Success;
}

} // namespace asc::cli
