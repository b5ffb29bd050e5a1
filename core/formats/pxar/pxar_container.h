// SPDX-License-Identifier: MIT
#pragma once
// A pxar archive (v1, or a v2 .mpxar with its .ppxar beside it) as a container: listing through
// the sequential decoder, lookups and content through the accessor (a lookup reads only the
// goodbye tables and names on its path). A damaged archive the accessor refuses (cut short: no
// goodbye tail) is still read front to back by the decoder, up to the damage, which then ends
// the listing as its error — as a truncated tar.gz lists what precedes the cut.

#include "pxar_accessor.h"
#include "vfs/container.h"

#include <functional>

namespace asc {

namespace pxar {
class Decoder;
}

class PxarContainer final : public Container {
public:
    static Result<ContainerPtr> open(SourcePtr archive);

    QString formatName() const override { return QStringLiteral("pxar"); }
    Result<void> list(const EntrySink &sink) override;
    Result<void> walk(const ContentSink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    Result<Entry> find(const QByteArray &path) override;
    bool impliesDirectories() const override { return false; }
    const SourcePtr &source() const override { return archive_; }

    const std::shared_ptr<pxar::Accessor> &accessor() const { return accessor_; }
    const SourcePtr &payload() const { return payload_; }

private:
    PxarContainer(SourcePtr archive, SourcePtr payload, std::shared_ptr<pxar::Accessor> accessor, std::optional<Error> damage = std::nullopt)
        : archive_(std::move(archive)),
          payload_(std::move(payload)),
          accessor_(std::move(accessor)),
          damage_(std::move(damage)) {}
    Entry toEntry(const pxar::PxarEntry &e, uint64_t ordinal) const;
    // Every entry but the root in archive order, decoded with the sync decoder; stops when the
    // sink returns false or an error.
    using DecodedSink = std::function<Result<bool>(const Entry &, pxar::Decoder &)>;
    Result<void> decode(size_t archiveBuffer, const DecodedSink &sink) const;

    SourcePtr archive_;
    SourcePtr payload_;
    std::shared_ptr<pxar::Accessor> accessor_; // null for a damaged archive (damage_ says why)
    std::optional<Error> damage_;
};

// Whether the first bytes look like a pxar archive (an ENTRY or FORMAT_VERSION item first).
bool looksLikePxar(std::span<const char> head);
// Where a split archive's payload is: the .ppxar named after a .mpxar (empty for other names).
QString pxarPayloadPath(const QString &path);
// The .ppxar beside a .mpxar (null when the source is not a plain .mpxar file or none exists).
Result<SourcePtr> findPayloadFile(const SourcePtr &archive);

} // namespace asc
