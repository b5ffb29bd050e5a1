// SPDX-License-Identifier: MIT
#include "pxar_container.h"

#include "io/byte_text.h"

#include "io/file_source.h"
#include "io/slice_source.h"
#include "pxar_decoder.h"
#include "pxar_format.h"

#include <QFileInfo>
#include <QJsonArray>

namespace asc {

using namespace pxar;

bool looksLikePxar(std::span<const char> head)
{
    if (head.size() < 16)
        return false;
    const uint64_t type = le64(head.data());
    const uint64_t size = le64(head.data() + 8);
    return (type == kEntry && size == 56) || (type == kEntryV1 && size == 48) || (type == kFormatVersion && size == 24);
}

QString pxarPayloadPath(const QString &path)
{
    return path.endsWith(QLatin1String(".mpxar")) ? path.chopped(6) + QStringLiteral(".ppxar") : QString();
}

Result<SourcePtr> findPayloadFile(const SourcePtr &archive)
{
    const auto *file = dynamic_cast<const FileSource *>(archive.get());
    const QString payload = file ? pxarPayloadPath(file->path()) : QString();
    if (payload.isEmpty() || !QFileInfo::exists(payload))
        return SourcePtr();
    auto opened = FileSource::open(payload);
    if (!opened)
        return std::move(opened).error();
    return SourcePtr(std::move(opened).value());
}

Result<ContainerPtr> PxarContainer::open(SourcePtr archive)
{
    auto payload = findPayloadFile(archive);
    if (!payload)
        return std::move(payload).error();
    auto accessor = Accessor::open(archive, *payload);
    if (!accessor) {
        if (accessor.error().kind != ErrorKind::Format)
            return std::move(accessor).error();
        // Damaged (cut short): what the decoder can read before the damage is still listed.
        return ContainerPtr(new PxarContainer(std::move(archive), std::move(payload).value(), nullptr, accessor.error()));
    }
    return ContainerPtr(new PxarContainer(std::move(archive), std::move(payload).value(), std::move(accessor).value()));
}

Entry PxarContainer::toEntry(const PxarEntry &e, uint64_t ordinal) const
{
    Entry out;
    out.path = e.path.startsWith('/') ? e.path.mid(1) : e.path;
    switch (e.kind) {
    case Kind::Directory: out.type = EntryType::Dir; break;
    case Kind::File: out.type = EntryType::File; break;
    case Kind::Symlink: out.type = EntryType::Symlink; break;
    case Kind::Hardlink: out.type = EntryType::Hardlink; break;
    case Kind::CharDevice: out.type = EntryType::CharDev; break;
    case Kind::BlockDevice: out.type = EntryType::BlockDev; break;
    case Kind::Fifo: out.type = EntryType::Fifo; break;
    case Kind::Socket: out.type = EntryType::Socket; break;
    }
    out.size = e.kind == Kind::File ? e.size : 0;
    out.mode = uint32_t(e.mode & 07777);
    out.uid = e.uid;
    out.gid = e.gid;
    out.hasMtime = e.kind != Kind::Hardlink;
    out.mtime = e.mtimeSecs;
    out.mtimeNsec = e.mtimeNanos;
    if (e.kind == Kind::Symlink)
        out.target = e.target;
    if (e.kind == Kind::Hardlink)
        out.target = e.target.startsWith('/') ? e.target.mid(1) : e.target;
    out.rdevMajor = uint32_t(e.deviceMajor);
    out.rdevMinor = uint32_t(e.deviceMinor);
    if (e.kind == Kind::File)
        out.dataOffset = e.contentInPayloadFile ? e.contentOffset + kHeaderSize : e.contentOffset;
    out.ordinal = ordinal;
    QStringList detail;
    for (const auto &[name, value] : e.xattrs)
        detail << QStringLiteral("xattr %1").arg(QString::fromUtf8(name));
    if (!e.aclUsers.empty() || !e.aclGroups.empty() || e.aclGroupObj || e.aclDefault)
        detail << QStringLiteral("POSIX ACL");
    if (!e.fcaps.isEmpty())
        detail << QStringLiteral("file capabilities");
    if (e.projid)
        detail << QStringLiteral("project id %1").arg(*e.projid);
    if (e.flags)
        detail << QStringLiteral("flags 0x%1").arg(e.flags, 0, 16);
    if (e.contentInPayloadFile)
        detail << QStringLiteral("content in payload file");
    out.detail = detail.join(QStringLiteral(", ")).toUtf8();
    return out;
}

Result<void> PxarContainer::decode(size_t archiveBuffer, const DecodedSink &sink) const
{
    std::unique_ptr<SequentialInput> payload;
    if (payload_)
        payload = std::make_unique<SyncInput>(payload_, 64 * 1024);
    Decoder decoder(std::make_unique<SyncInput>(archive_, archiveBuffer), std::move(payload));
    uint64_t ordinal = 0;
    for (;;) {
        auto next = decoder.next();
        if (!next)
            return std::move(next).error();
        if (!*next)
            return {};
        if ((*next)->path == "/")
            continue;
        auto more = sink(toEntry(**next, ordinal++), decoder);
        if (!more)
            return std::move(more).error();
        if (!*more)
            return {};
    }
}

Result<void> PxarContainer::list(const EntrySink &sink)
{
    bool stopped = false;
    auto listed = decode(64 * 1024, [&](const Entry &entry, Decoder &) -> Result<bool> {
        stopped = !sink(entry);
        return !stopped;
    });
    // A damaged archive whose entries all decoded still is damaged: said at the end.
    if (listed && damage_ && !stopped)
        return *damage_;
    return listed;
}

Result<void> PxarContainer::walk(const ContentSink &sink)
{
    // Contents are read too: a larger buffer for the archive.
    return decode(256 * 1024, [&](const Entry &entry, Decoder &decoder) -> Result<bool> {
        const ContentReader reader = [&](std::span<char> out) { return decoder.readContent(out); };
        return sink(entry, reader);
    });
}

Result<Entry> PxarContainer::find(const QByteArray &path)
{
    if (!accessor_)
        return Container::find(path); // listed up to it, as far as the damage allows
    auto found = accessor_->lookup(path);
    if (!found)
        return std::move(found).error();
    if (!*found)
        return Error::make(ErrorKind::NotFound, archive_->name(), QStringLiteral("no entry '%1'").arg(bytesToText(path)));
    return toEntry(**found, 0);
}

Result<SourcePtr> PxarContainer::open(const Entry &entry)
{
    if (entry.type == EntryType::File && entry.dataOffset != kUnknown) {
        const SourcePtr &holder = payload_ && entry.dataOffset < payload_->size() && entry.detail.contains("payload file") ? payload_ : archive_;
        if (entry.dataOffset > holder->size() || holder->size() - entry.dataOffset < entry.size)
            return Error::format(holder->name(), entry.dataOffset, QStringLiteral("content lies past the end of the file"));
        return SourcePtr(std::make_shared<SliceSource>(holder, entry.dataOffset, entry.size, archive_->name() + QStringLiteral("!/") + bytesToText(entry.path)));
    }
    if (!accessor_)
        return *damage_;
    auto found = accessor_->lookup(entry.path);
    if (!found)
        return std::move(found).error();
    if (!*found)
        return Error::make(ErrorKind::NotFound, archive_->name(), QStringLiteral("no entry '%1'").arg(bytesToText(entry.path)));
    return accessor_->content(**found);
}

QJsonObject PxarContainer::info() const
{
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("pxar");
    if (!accessor_) {
        o[QStringLiteral("damaged")] = damage_->toString();
        o[QStringLiteral("size")] = double(archive_->size());
        return o;
    }
    o[QStringLiteral("format_version")] = double(accessor_->formatVersion());
    o[QStringLiteral("split")] = bool(payload_);
    if (payload_)
        o[QStringLiteral("payload_file")] = payload_->name();
    o[QStringLiteral("size")] = double(archive_->size());
    o[QStringLiteral("root_mode")] = QStringLiteral("%1").arg(accessor_->root().mode & 07777, 4, 8, QLatin1Char('0'));
    return o;
}

} // namespace asc
