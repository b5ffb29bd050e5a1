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

Result<StreamPtr> ArchiveEntrySource::decodedAt(uint64_t offset) const
{
    return index_->gzip    ? openGzipAt(archive_, index_->gzip, offset, archive_->name())
           : index_->xz    ? openXzAt(archive_, index_->xz, offset, archive_->name())
           : index_->bzip2 ? openBzip2At(archive_, index_->bzip2, offset, archive_->name())
                           : openFramesAt(archive_, index_->filters == QStringList{QStringLiteral("lz4")} ? FrameFormat::Lz4 : FrameFormat::Zstd,
                                          index_->frames, offset, archive_->name());
}

// A tar header block's numeric field: octal text, or base-256 (GNU) with the high bit set.
static std::optional<uint64_t> tarNumber(const char *field, size_t width)
{
    if (uint8_t(field[0]) & 0x80) {
        uint64_t value = uint8_t(field[0]) & 0x3f;
        for (size_t i = 1; i < width; ++i) {
            if (value >> 56)
                return std::nullopt;
            value = value << 8 | uint8_t(field[i]);
        }
        return value;
    }
    uint64_t value = 0;
    size_t i = 0;
    while (i < width && field[i] == ' ')
        ++i;
    bool any = false;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i, any = true)
        value = value << 3 | uint64_t(field[i] - '0');
    return any ? std::optional<uint64_t>(value) : std::nullopt;
}

uint64_t ArchiveEntrySource::tarContentStart() const
{
    if (!index_ || index_->memberFormat != MemberFormat::Tar)
        return kUnknown;
    uint64_t at = index_->headers[size_t(ordinal_)];
    auto stream = decodedAt(at);
    if (!stream)
        return kUnknown;
    auto exact = [&](char *p, size_t n) {
        while (n > 0) {
            auto got = (*stream)->read(std::span(p, n));
            if (!got || *got == 0)
                return false;
            p += *got;
            n -= *got;
        }
        return true;
    };
    std::optional<uint64_t> paxSize;
    for (int headers = 0; headers < 8; ++headers) {
        char block[512];
        if (!exact(block, sizeof block))
            return kUnknown;
        // The checksum: the sum of the block's bytes with its own field read as spaces.
        uint64_t sum = 0;
        for (int i = 0; i < 512; ++i)
            sum += i >= 148 && i < 156 ? uint8_t(' ') : uint8_t(block[i]);
        const auto stored = tarNumber(block + 148, 8);
        const auto size = tarNumber(block + 124, 12);
        if (!stored || *stored != sum || !size)
            return kUnknown;
        at += 512;
        const char type = block[156];
        if (type == 'x' || type == 'g' || type == 'L' || type == 'K') {
            // An extension's data: a pax header may say the member is sparse or give its size.
            const uint64_t padded = (*size + 511) / 512 * 512;
            if (padded > (1 << 20))
                return kUnknown;
            std::vector<char> extension(static_cast<size_t>(padded));
            if (!exact(extension.data(), extension.size()))
                return kUnknown;
            const QByteArray text(extension.data(), qsizetype(*size));
            if (type == 'x') {
                if (text.contains("GNU.sparse"))
                    return kUnknown;
                const qsizetype key = text.indexOf(" size=");
                if (key >= 0)
                    paxSize = text.mid(key + 6).split('\n').first().toULongLong();
            }
            at += padded;
            continue;
        }
        if (type != '0' && type != '\0' && type != '7')
            return kUnknown; // sparse ('S'), a link, a device: its content is not simply there
        if (paxSize.value_or(*size) != size_)
            return kUnknown;
        return at;
    }
    return kUnknown;
}

std::optional<Result<size_t>> ArchiveEntrySource::readDirect(uint64_t offset, std::span<char> buf) const
{
    if (!index_ || mode_ != LibarchiveReader::Mode::Archives)
        return std::nullopt;
    // Near the reader (or the direct stream) ahead: read on from there. Near the member's start:
    // libarchive's path from the index (one pass over its headers). Far, or behind: from the
    // index point before the content offset, straight to it.
    constexpr uint64_t kNear = 4 << 20;
    const bool readerNear = reader_ && offset >= decoded_ && offset - decoded_ <= kNear;
    const bool directNear = direct_ && offset >= directAt_ && offset - directAt_ <= kNear;
    if (!directNear && (readerNear || offset <= kNear))
        return std::nullopt;
    if (!directNear) {
        if (!contentStartKnown_) {
            contentStartKnown_ = true;
            const ProblemScope quiet([](const Error &) {});
            contentStart_ = tarContentStart();
        }
        if (contentStart_ == kUnknown)
            return std::nullopt;
        auto opened = decodedAt(contentStart_ + offset);
        if (!opened) {
            contentStart_ = kUnknown; // the index does not lead there: the member is read through
            return std::nullopt;
        }
        direct_ = std::move(*opened);
        directAt_ = offset;
    }
    std::vector<char> skip;
    while (directAt_ < offset) {
        skip.resize(size_t(std::min<uint64_t>(offset - directAt_, 1 << 20)));
        auto got = direct_->read(skip);
        if (!got || *got == 0) {
            direct_.reset();
            return got ? Result<size_t>(Error::format(name_, std::nullopt, QStringLiteral("the decoded stream ends inside the member"))) : Result<size_t>(got.error());
        }
        directAt_ += *got;
    }
    const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    size_t done = 0;
    while (done < want) {
        auto got = direct_->read(buf.subspan(done, want - done));
        if (!got) {
            direct_.reset();
            return Result<size_t>(got.error());
        }
        if (*got == 0) {
            direct_.reset();
            return Result<size_t>(Error::format(name_, std::nullopt, QStringLiteral("the decoded stream ends inside the member, at byte %1 of %2").arg(offset + done).arg(size_)));
        }
        done += *got;
    }
    directAt_ = offset + done;
    return Result<size_t>(done);
}

bool ArchiveEntrySource::restartFromIndex() const
{
    const uint64_t header = index_->headers[size_t(ordinal_)];
    auto stream = decodedAt(header);
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
    if (auto direct = readDirect(offset, buf))
        return std::move(*direct);
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
