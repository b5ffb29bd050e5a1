// SPDX-License-Identifier: MIT
// `index SPEC [--json]`: the index of a compressed tarball (formats/archive/index_cache): built by
// one full pass when missing, then what it holds and where it is stored. `index --drop SPEC`
// removes it.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "formats/archive/archive_container.h"
#include "formats/archive/index_cache.h"
#include "open/spec.h"
#include "units.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace asc::cli {

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
        if (!location->source)
            return fail(spec, Error::make(ErrorKind::Usage, spec, QStringLiteral("is a directory")));
        auto dropped = index_cache::drop(*location->source);
        if (!dropped)
            return fail(spec, dropped.error());
        printLine(*dropped ? QStringLiteral("%1: index removed").arg(spec) : QStringLiteral("%1: had no index").arg(spec));
        return Success;
    }
    if (!index_cache::enabled())
        return fail(spec, Error::make(ErrorKind::Usage, spec, QStringLiteral("--no-index: indexes are neither read nor written")));
    auto container = containerAt(*location);
    if (!container)
        return fail(spec, container.error());
    auto *archive = dynamic_cast<ArchiveContainer *>(container->get());
    if (!archive || !archive->indexable() || location->isDirectory())
        return fail(spec, Error::make(ErrorKind::Unsupported, spec,
                                      QStringLiteral("not indexed: only a compressed tar archive that is a file of its own has an index "
                                                     "(an uncompressed tar is read where its members lie)")));
    const bool existed = archive->index() != nullptr;
    if (!existed) {
        auto listed = archive->list([](const Entry &) { return true; });
        if (!listed)
            return fail(spec, listed.error());
    }
    const auto index = archive->index();
    if (!index)
        return fail(spec, Error::make(ErrorKind::Format, spec, QStringLiteral("no index was made: the archive has problems (ls shows them), or its end is damaged")));
    const QString stored = index_cache::pathFor(index->identity);
    const qint64 storedBytes = QFileInfo(stored).size();
    const size_t points = index->gzip ? index->gzip->points.size() : 0;
    const uint64_t spacing = points > 0 ? index->decodedSize / points : 0;
    QString seekText;
    if (index->gzip) {
        seekText = QStringLiteral("%1 seek points, one per %2 of decoded bytes on average").arg(points).arg(sizeLabel(spacing));
    } else {
        seekText = QStringLiteral("no seek points: %1 has none here yet; a member is read from the archive's start").arg(index->filters.join(QStringLiteral(", ")));
    }
    if (json) {
        QJsonObject o;
        o[QStringLiteral("spec")] = spec;
        o[QStringLiteral("index_file")] = stored;
        o[QStringLiteral("index_bytes")] = double(storedBytes);
        o[QStringLiteral("built_now")] = !existed;
        o[QStringLiteral("format")] = index->libarchiveFormat;
        o[QStringLiteral("filters")] = QJsonArray::fromStringList(index->filters);
        o[QStringLiteral("members")] = double(index->entries.size());
        o[QStringLiteral("decoded_bytes")] = double(index->decodedSize);
        o[QStringLiteral("seek_points")] = double(points);
        o[QStringLiteral("seek_point_spacing")] = double(spacing);
        printLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
        return Success;
    }
    printLine(QStringLiteral("%1: %2").arg(spec, existed ? QStringLiteral("indexed") : QStringLiteral("indexed now (one full pass)")));
    printLine(QStringLiteral("  format: %1, %2").arg(index->libarchiveFormat, index->filters.join(QStringLiteral(", "))));
    printLine(QStringLiteral("  members: %1 in %2 decoded").arg(index->entries.size()).arg(sizeLabel(index->decodedSize)));
    printLine(QStringLiteral("  %1").arg(seekText));
    printLine(QStringLiteral("  stored: %1 (%2)").arg(stored, sizeLabel(uint64_t(storedBytes))));
    return Success;
}

} // namespace asc::cli
