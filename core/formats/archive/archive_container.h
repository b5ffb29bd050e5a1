// SPDX-License-Identifier: MIT
#pragma once
// Everything libarchive reads, as a container: tar (all variants and filters), zip, 7z, iso9660,
// cpio, ar, xar, cab, rar, lha, warc, and single compressed files (one entry).

#include "archive_index.h"
#include "compressed_facts.h"
#include "libarchive_reader.h"
#include "vfs/container.h"

#include <mutex>

namespace asc {

class ArchiveContainer final : public Container {
public:
    static Result<ContainerPtr> open(SourcePtr source, LibarchiveReader::Mode mode);

    QString formatName() const override { return formatName_; }
    Result<void> list(const EntrySink &sink) override;
    Result<void> walk(const ContentSink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return source_; }
    // Any archive may carry a name twice (a tar appended to, a zip or LHA written twice over):
    // the last one counts, as it does when bsdtar extracts.
    bool mayRepeatNames() const override { return true; }
    bool listsFromIndex() const override { return index() != nullptr; }
    // The index this container lists from and reads members through: loaded when it opened, or
    // made by its first complete listing (null: none, or the format is not indexed).
    std::shared_ptr<const ArchiveIndex> index() const;
    // A compressed tar, cpio or ar whose listing and seek points are worth keeping.
    bool indexable() const { return indexable_; }

private:
    ArchiveContainer(SourcePtr source, LibarchiveReader::Mode mode);
    Result<std::unique_ptr<LibarchiveReader>> reader() const;
    // The next entry, with what a single compressed file records about its content.
    Result<bool> next(LibarchiveReader &reader, Entry &entry) const;

    SourcePtr source_;
    LibarchiveReader::Mode mode_;
    QString formatName_;
    std::optional<Error> refuseEncrypted(const Entry &entry, const QString &name) const;
    QString libarchiveFormat_;
    QStringList filters_;
    QByteArray charset_; // names decoded from this (empty: as stored), fixed at open
    CompressedFacts facts_; // single compressed files only
    bool indexable_ = false;
    MemberFormat memberFormat_ = MemberFormat::Tar; // when indexable
    // The first listing as it goes, for a member opened meanwhile on another thread (the
    // window's preview while its tree still loads): what is known so far.
    struct FirstPass {
        const ArchiveIndex *made = nullptr; // entries and headers so far
        const GzipSeekRecorder *gzip = nullptr;
        const Bzip2PointRecorder *bzip2 = nullptr;
        const FramePointRecorder *frames = nullptr;
        std::shared_ptr<const XzBlockIndex> xz; // read from the file's end before the pass
    };
    // An index of what the running first pass made, leading to `entry` from a point before it;
    // null when none does (no pass running, no point yet, or the member reaches past the
    // points made so far).
    std::shared_ptr<const ArchiveIndex> indexSoFar(const Entry &entry) const;
    class FirstPassScope;

    mutable std::mutex indexMutex_; // guards index_, pass_ and what pass_ points to
    std::shared_ptr<const ArchiveIndex> index_;
    const FirstPass *pass_ = nullptr;
};

} // namespace asc
