// SPDX-License-Identifier: MIT
#include "archive_indexes.h"

#include "formats/archive/archive_container.h"
#include "formats/archive/index_cache.h"

#include <QFileInfo>

namespace asc {

void setArchiveIndexesEnabled(bool enabled)
{
    index_cache::setEnabled(enabled);
}

bool archiveIndexesEnabled()
{
    return index_cache::enabled();
}

Result<ArchiveIndexFacts> archiveIndexAt(const Location &location)
{
    if (!index_cache::enabled())
        return Error::make(ErrorKind::Usage, location.spec, QStringLiteral("--no-index: indexes are neither read nor written"));
    auto container = containerAt(location);
    if (!container)
        return std::move(container).error();
    auto *archive = dynamic_cast<ArchiveContainer *>(container->get());
    if (!archive || !archive->indexable() || location.isDirectory())
        return Error::make(ErrorKind::Unsupported, location.spec,
                           QStringLiteral("not indexed: only a compressed tar archive that is a file of its own has an index "
                                          "(an uncompressed tar is read where its members lie)"));
    ArchiveIndexFacts facts;
    facts.builtNow = archive->index() == nullptr;
    if (facts.builtNow) {
        auto listed = archive->list([](const Entry &) { return true; });
        if (!listed)
            return std::move(listed).error();
    }
    const auto index = archive->index();
    if (!index)
        return Error::make(ErrorKind::Format, location.spec,
                           QStringLiteral("no index was made: the archive has problems (ls shows them), or its end is damaged"));
    facts.file = index_cache::pathFor(index->identity);
    facts.fileBytes = uint64_t(std::max<qint64>(0, QFileInfo(facts.file).size()));
    facts.format = index->libarchiveFormat;
    facts.filters = index->filters;
    facts.members = index->entries.size();
    facts.decodedBytes = index->decodedSize;
    facts.seekPoints = index->gzip ? index->gzip->points.size() : index->xz   ? index->xz->blocks.size()
                                                              : index->bzip2  ? index->bzip2->points.size()
                                                              : index->frames ? index->frames->points.size()
                                                                              : 0;
    if (index->xz) {
        for (const XzBlock &b : index->xz->blocks)
            facts.largestSpanBytes = std::max(facts.largestSpanBytes, b.compressedSize);
    }
    // The most compressed bytes read from one point to the next (the bit offsets' bytes, whole).
    auto widest = [&](const auto &points) {
        const uint64_t fileSize = location.source ? location.source->size() : 0;
        for (size_t i = 0; i < points.size(); ++i) {
            const uint64_t end = i + 1 < points.size() ? points[i + 1].bit / 8 + 1 : fileSize;
            facts.largestSpanBytes = std::max(facts.largestSpanBytes, end - points[i].bit / 8);
        }
    };
    if (index->gzip)
        widest(index->gzip->points);
    if (index->bzip2)
        widest(index->bzip2->points);
    if (index->frames) {
        const auto &points = index->frames->points;
        const uint64_t fileSize = location.source ? location.source->size() : 0;
        for (size_t i = 0; i < points.size(); ++i)
            facts.largestSpanBytes = std::max(facts.largestSpanBytes, (i + 1 < points.size() ? points[i + 1].byte : fileSize) - points[i].byte);
    }
    return facts;
}

Result<bool> dropArchiveIndex(const Location &location)
{
    if (!location.source)
        return Error::make(ErrorKind::Usage, location.spec, QStringLiteral("is a directory"));
    return index_cache::drop(*location.source);
}

} // namespace asc
