// SPDX-License-Identifier: MIT
#include "archive_entry_source.h"

#include "index_cache.h"

#include "io/memory_source.h"
#include "vfs/problems.h"

#include <vector>

namespace asc {

// Members up to this size are decoded into memory once: nested archives seek around in them.
static constexpr uint64_t kInMemoryLimit = 16 * 1024 * 1024;

ArchiveEntrySource::ArchiveEntrySource(SourcePtr archive, LibarchiveReader::Mode mode, QByteArray charset, uint64_t ordinal, QString name)
    : archive_(std::move(archive)),
      mode_(mode),
      charset_(std::move(charset)),
      ordinal_(ordinal),
      name_(std::move(name))
{
}

Result<SourcePtr> ArchiveEntrySource::open(SourcePtr archive, LibarchiveReader::Mode mode, QByteArray charset, const Entry &entry, QString name,
                                           std::shared_ptr<const ArchiveIndex> index)
{
    std::shared_ptr<ArchiveEntrySource> source(new ArchiveEntrySource(std::move(archive), mode, std::move(charset), entry.ordinal, name));
    source->path_ = entry.path;
    if (index && index->restartable() && entry.ordinal < index->entries.size() && index->entries[size_t(entry.ordinal)].path == entry.path &&
        index->headers[size_t(entry.ordinal)] != kUnknown)
        source->index_ = std::move(index);
    if (entry.size == kUnknown) {
        auto measured = source->measure();
        if (!measured)
            return std::move(measured).error();
        source->size_ = *measured;
    } else {
        source->size_ = entry.size;
    }
    if (source->size_ <= kInMemoryLimit) {
        QByteArray bytes(qsizetype(source->size_), Qt::Uninitialized);
        auto got = source->readAt(0, std::span(bytes.data(), size_t(bytes.size())));
        if (!got)
            return std::move(got).error();
        bytes.truncate(qsizetype(*got));
        return SourcePtr(std::make_shared<MemorySource>(std::move(bytes), name));
    }
    return SourcePtr(source);
}

bool ArchiveEntrySource::restartFromIndex() const
{
    const uint64_t header = index_->headers[size_t(ordinal_)];
    auto stream = index_->gzip    ? openGzipAt(archive_, index_->gzip, header, archive_->name())
                  : index_->xz    ? openXzAt(archive_, index_->xz, header, archive_->name())
                  : index_->bzip2 ? openBzip2At(archive_, index_->bzip2, header, archive_->name())
                                  : openFramesAt(archive_, index_->filters == QStringList{QStringLiteral("lz4")} ? FrameFormat::Lz4 : FrameFormat::Zstd,
                                                 index_->frames, header, archive_->name());
    if (!stream)
        return false;
    auto r = LibarchiveReader::openMemberAt(archive_, std::move(stream).value(), index_->memberFormat, charset_);
    if (!r)
        return false;
    Entry entry;
    auto found = (*r)->next(entry);
    if (!found || !*found || entry.path != path_)
        return false;
    reader_ = std::move(r).value();
    return true;
}

Result<void> ArchiveEntrySource::restart() const
{
    reader_.reset();
    decoded_ = 0;
    if (index_) {
        const ProblemScope quiet([](const Error &) {});
        if (restartFromIndex())
            return {};
        reader_.reset();
        index_cache::notice(QStringLiteral("%1: the index does not lead to this member; reading the archive from its start").arg(name_));
        index_.reset(); // one notice; the archive is read through from now on
    }
    // The headers on the way were reported when the archive was listed.
    const ProblemScope quiet([](const Error &) {});
    auto r = LibarchiveReader::open(archive_, mode_, charset_);
    if (!r)
        return std::move(r).error();
    Entry entry;
    for (uint64_t i = 0; i <= ordinal_; ++i) {
        auto more = (*r)->next(entry);
        if (!more)
            return std::move(more).error();
        if (!*more)
            return Error::format(name_, std::nullopt, QStringLiteral("entry vanished from the archive"));
    }
    reader_ = std::move(r).value();
    return {};
}

Result<void> ArchiveEntrySource::moveTo(uint64_t offset) const
{
    if (!reader_ || offset < decoded_) {
        if (auto restarted = restart(); !restarted)
            return restarted;
    }
    std::vector<char> scratch;
    while (decoded_ < offset) {
        scratch.resize(size_t(std::min<uint64_t>(offset - decoded_, 1 << 20)));
        auto got = reader_->read(scratch);
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            break;
        decoded_ += *got;
    }
    return {};
}

Result<size_t> ArchiveEntrySource::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= size_)
        return size_t(0);
    std::lock_guard lock(mutex_);
    if (auto moved = moveTo(offset); !moved)
        return std::move(moved).error();
    const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    size_t done = 0;
    while (done < want) {
        auto got = reader_->read(buf.subspan(done, want - done));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            break;
        done += *got;
        decoded_ += *got;
    }
    if (decoded_ < size_ && done < want)
        return Error::format(name_, std::nullopt,
                             QStringLiteral("the decoded data ends at byte %1, not at the %2 bytes %3")
                                 .arg(decoded_)
                                 .arg(size_)
                                 .arg(mode_ == LibarchiveReader::Mode::SingleCompressed ? QStringLiteral("the stream's trailer or index gives")
                                                                                        : QStringLiteral("its header gives")));
    if (decoded_ == size_ && mode_ == LibarchiveReader::Mode::SingleCompressed) {
        // A single stream's size comes from its trailer or index, which the decoder does not
        // always check (lzip's trailers can be faked): the stream must end exactly there.
        char probe = 0;
        auto more = reader_->read(std::span(&probe, 1));
        if (!more)
            return std::move(more).error();
        if (*more != 0)
            return Error::format(name_, std::nullopt,
                                 QStringLiteral("decodes to more than the %1 bytes the stream's trailer or index gives").arg(size_));
        reader_.reset(); // at the end: a later read restarts
        decoded_ = 0;
    }
    return done;
}

Result<uint64_t> ArchiveEntrySource::measure() const
{
    std::lock_guard lock(mutex_);
    if (auto restarted = restart(); !restarted)
        return std::move(restarted).error();
    std::vector<char> scratch(1 << 20);
    uint64_t total = 0;
    for (;;) {
        auto got = reader_->read(scratch);
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            break;
        total += *got;
    }
    reader_.reset();
    return total;
}

} // namespace asc
