// SPDX-License-Identifier: MIT
#pragma once
// One archive member as a byte source. Sequential reads stream from a libarchive handle kept at
// the last position; a read behind it restarts decoding from the archive's start (that is what
// compressed streams allow). Small members are decoded once into memory for cheap random access.

#include "archive_index.h"
#include "libarchive_reader.h"

#include <mutex>

namespace asc {

class ArchiveEntrySource final : public ByteSource {
public:
    // With `index`, the member is read from the seek point before its header, not from the
    // archive's first byte (and from there if the index does not lead to it, with a notice).
    static Result<SourcePtr> open(SourcePtr archive, LibarchiveReader::Mode mode, QByteArray charset, const Entry &entry, QString name,
                                  std::shared_ptr<const ArchiveIndex> index = nullptr);

    uint64_t size() const override { return size_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return name_; }

private:
    ArchiveEntrySource(SourcePtr archive, LibarchiveReader::Mode mode, QByteArray charset, uint64_t ordinal, QString name);
    Result<void> restart() const;
    // The reader at the member through the index; false when the index does not lead to it.
    bool restartFromIndex() const;
    Result<void> moveTo(uint64_t offset) const;
    // Decodes the whole member once to learn its size (single compressed files do not store it).
    Result<uint64_t> measure() const;
    // The decoded stream from `offset` on, through the index's points.
    Result<StreamPtr> decodedAt(uint64_t offset) const;
    // Where a plain tar member's content starts in the decoded stream (its header chain read and
    // checked here), or kUnknown: a sparse member, another format, a header that does not say
    // what the listing said.
    uint64_t tarContentStart() const;
    // A read served straight from the decoded stream at the content (a plain tar member through
    // the index): what random reads far from the reader's position take. nullopt: not this way.
    std::optional<Result<size_t>> readDirect(uint64_t offset, std::span<char> buf) const;

    SourcePtr archive_;
    LibarchiveReader::Mode mode_;
    QByteArray charset_;
    uint64_t ordinal_;
    QByteArray path_; // the member's, to check what the index leads to
    mutable std::shared_ptr<const ArchiveIndex> index_; // dropped when it does not lead to the member
    QString name_;
    uint64_t size_ = 0;
    mutable std::mutex mutex_;
    mutable std::unique_ptr<LibarchiveReader> reader_;
    mutable uint64_t decoded_ = 0; // content offset the reader is at
    mutable bool contentStartKnown_ = false; // tarContentStart() was asked
    mutable uint64_t contentStart_ = kUnknown;
    mutable StreamPtr direct_; // the decoded stream at the content, for far reads
    mutable uint64_t directAt_ = 0; // content offset direct_ is at
};

} // namespace asc
