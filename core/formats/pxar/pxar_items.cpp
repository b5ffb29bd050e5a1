// SPDX-License-Identifier: MIT
#include "pxar_items.h"

#include "io/byte_text.h"

#include "pxar_format.h"

namespace asc::pxar {

Error formatError(const SequentialInput &in, uint64_t offset, const QString &what)
{
    return Error::format(in.name(), offset, what);
}

Result<Header> readHeader(SequentialInput &in, uint64_t limit)
{
    Header h;
    h.offset = in.position();
    char raw[16];
    if (h.offset + 16 > limit)
        return formatError(in, h.offset, QStringLiteral("truncated: an item header is missing"));
    if (auto read = in.readExact(raw); !read)
        return std::move(read).error();
    h.type = le64(raw);
    h.fullSize = le64(raw + 8);
    const uint64_t maximum = maxBodySize(h.type);
    if (maximum == 0 && h.type != kPayloadStartMarker)
        return formatError(in, h.offset, QStringLiteral("unknown item type 0x%1").arg(h.type, 16, 16, QLatin1Char('0')));
    if (h.fullSize < kHeaderSize)
        return formatError(in, h.offset, QStringLiteral("%1 item size %2 is smaller than its header").arg(QLatin1String(typeName(h.type))).arg(h.fullSize));
    if (h.bodySize() > maximum)
        return formatError(in, h.offset, QStringLiteral("%1 item body of %2 bytes exceeds its maximum").arg(QLatin1String(typeName(h.type))).arg(h.bodySize()));
    if (h.fullSize > limit - h.offset)
        return formatError(in, h.offset, QStringLiteral("%1 item of %2 bytes runs past the end of the archive").arg(QLatin1String(typeName(h.type))).arg(h.fullSize));
    return h;
}

static Result<QByteArray> readBody(SequentialInput &in, const Header &h)
{
    QByteArray body(qsizetype(h.bodySize()), Qt::Uninitialized);
    if (auto read = in.readExact(std::span(body.data(), size_t(body.size()))); !read)
        return std::move(read).error();
    return body;
}

static Result<QByteArray> readString(SequentialInput &in, const Header &h, const char *what)
{
    auto body = readBody(in, h);
    if (!body)
        return body;
    if (body->isEmpty() || body->back() != '\0')
        return formatError(in, h.offset, QStringLiteral("%1 is not NUL-terminated").arg(QLatin1String(what)));
    body->chop(1);
    return body;
}

Result<QByteArray> readFilename(SequentialInput &in, const Header &h)
{
    auto name = readString(in, h, "file name");
    if (!name)
        return name;
    if (name->isEmpty() || name->contains('/') || name->contains('\0') || *name == "." || *name == "..")
        return formatError(in, h.offset, QStringLiteral("invalid file name '%1'").arg(bytesToText(*name)));
    return name;
}

static Result<void> exact(SequentialInput &in, const Header &h, uint64_t size)
{
    if (h.bodySize() != size)
        return formatError(in, h.offset, QStringLiteral("%1 body must be %2 bytes, not %3").arg(QLatin1String(typeName(h.type))).arg(size).arg(h.bodySize()));
    return {};
}

Result<EntryEnd> readEntry(SequentialInput &in, const Header &entryHeader, PxarEntry &e, uint64_t limit)
{
    char stat[40];
    if (entryHeader.type == kEntry) {
        if (auto ok = exact(in, entryHeader, 40); !ok)
            return std::move(ok).error();
        if (auto read = in.readExact(stat); !read)
            return std::move(read).error();
        e.mtimeSecs = int64_t(le64(stat + 24));
        e.mtimeNanos = le32(stat + 32);
        if (e.mtimeNanos > 999999999)
            return formatError(in, entryHeader.offset, QStringLiteral("nanoseconds %1 out of range").arg(e.mtimeNanos));
    } else if (entryHeader.type == kEntryV1) {
        if (auto ok = exact(in, entryHeader, 32); !ok)
            return std::move(ok).error();
        if (auto read = in.readExact(std::span(stat, 32)); !read)
            return std::move(read).error();
        const uint64_t ns = le64(stat + 24);
        e.mtimeSecs = int64_t(ns / 1000000000ULL);
        e.mtimeNanos = uint32_t(ns % 1000000000ULL);
    } else {
        return formatError(in, entryHeader.offset, QStringLiteral("expected ENTRY, found %1").arg(QLatin1String(typeName(entryHeader.type))));
    }
    e.mode = le64(stat);
    e.flags = le64(stat + 8);
    e.uid = le32(stat + 16);
    e.gid = le32(stat + 20);
    e.entryStart = entryHeader.offset;
    const uint64_t fileType = e.mode & 0170000;
    bool seenGroupObj = false, seenDefault = false, seenFcaps = false, seenProjid = false;
    for (;;) {
        if (in.position() >= limit) {
            // The range ends after the attributes: only fifos and sockets end like that.
            if (fileType == 0010000) {
                e.kind = Kind::Fifo;
                return EntryEnd{};
            }
            if (fileType == 0140000) {
                e.kind = Kind::Socket;
                return EntryEnd{};
            }
            return formatError(in, in.position(), QStringLiteral("entry ends without content or directory end"));
        }
        auto h = readHeader(in, limit);
        if (!h)
            return std::move(h).error();
        auto pair = [&](std::vector<AclEntry> &list) -> Result<void> {
            if (auto ok = exact(in, *h, 16); !ok)
                return ok;
            char raw[16];
            if (auto read = in.readExact(raw); !read)
                return read;
            list.push_back({le64(raw), le64(raw + 8)});
            return {};
        };
        auto once = [&](bool &seen) -> Result<void> {
            if (seen)
                return formatError(in, h->offset, QStringLiteral("second %1 in one entry").arg(QLatin1String(typeName(h->type))));
            seen = true;
            return {};
        };
        Result<void> ok;
        switch (h->type) {
        case kXattr: {
            auto body = readBody(in, *h);
            if (!body)
                return std::move(body).error();
            const qsizetype nul = body->indexOf('\0');
            if (nul <= 0)
                return formatError(in, h->offset, QStringLiteral("XATTR without a name or its NUL"));
            e.xattrs.push_back({body->left(nul), body->mid(nul + 1)});
            continue;
        }
        case kAclUser: ok = pair(e.aclUsers); break;
        case kAclGroup: ok = pair(e.aclGroups); break;
        case kAclDefaultUser: ok = pair(e.aclDefaultUsers); break;
        case kAclDefaultGroup: ok = pair(e.aclDefaultGroups); break;
        case kAclGroupObj: {
            if (!(ok = once(seenGroupObj)) || !(ok = exact(in, *h, 8)))
                break;
            char raw[8];
            ok = in.readExact(raw);
            e.aclGroupObj = le64(raw);
            break;
        }
        case kAclDefault: {
            if (!(ok = once(seenDefault)) || !(ok = exact(in, *h, 32)))
                break;
            char raw[32];
            ok = in.readExact(raw);
            e.aclDefault = std::array<uint64_t, 4>{le64(raw), le64(raw + 8), le64(raw + 16), le64(raw + 24)};
            break;
        }
        case kFcaps: {
            if (!(ok = once(seenFcaps)))
                break;
            auto body = readBody(in, *h);
            if (!body)
                return std::move(body).error();
            e.fcaps = *body;
            continue;
        }
        case kQuotaProjid: {
            if (!(ok = once(seenProjid)) || !(ok = exact(in, *h, 8)))
                break;
            char raw[8];
            ok = in.readExact(raw);
            e.projid = le64(raw);
            break;
        }
        case kPayload:
            if (fileType != 0100000)
                return formatError(in, h->offset, QStringLiteral("PAYLOAD for an entry whose mode is not a regular file"));
            e.kind = Kind::File;
            e.size = h->bodySize();
            e.contentOffset = h->offset + kHeaderSize;
            return EntryEnd{};
        case kPayloadRef: {
            if (fileType != 0100000)
                return formatError(in, h->offset, QStringLiteral("PAYLOAD_REF for an entry whose mode is not a regular file"));
            if (auto size = exact(in, *h, 16); !size)
                return std::move(size).error();
            char raw[16];
            if (auto read = in.readExact(raw); !read)
                return std::move(read).error();
            e.kind = Kind::File;
            e.contentInPayloadFile = true;
            e.contentOffset = le64(raw); // the PAYLOAD header in the payload file; content is 16 bytes later
            e.size = le64(raw + 8);
            return EntryEnd{};
        }
        case kSymlink: {
            if (fileType != 0120000)
                return formatError(in, h->offset, QStringLiteral("SYMLINK for an entry whose mode is not a symlink"));
            auto target = readString(in, *h, "symlink target");
            if (!target)
                return std::move(target).error();
            e.kind = Kind::Symlink;
            e.target = *target;
            return EntryEnd{};
        }
        case kDevice: {
            if (fileType != 0020000 && fileType != 0060000)
                return formatError(in, h->offset, QStringLiteral("DEVICE for an entry whose mode is not a device"));
            if (auto size = exact(in, *h, 16); !size)
                return std::move(size).error();
            char raw[16];
            if (auto read = in.readExact(raw); !read)
                return std::move(read).error();
            e.kind = fileType == 0020000 ? Kind::CharDevice : Kind::BlockDevice;
            e.deviceMajor = le64(raw);
            e.deviceMinor = le64(raw + 8);
            return EntryEnd{};
        }
        case kFilename:
        case kGoodbye:
            if (fileType == 0010000) {
                e.kind = Kind::Fifo;
                return EntryEnd{*h};
            }
            if (fileType == 0140000) {
                e.kind = Kind::Socket;
                return EntryEnd{*h};
            }
            if (fileType != 0040000)
                return formatError(in, h->offset, QStringLiteral("%1 after an entry whose mode (0%2) is not a directory").arg(QLatin1String(typeName(h->type))).arg(e.mode, 0, 8));
            e.kind = Kind::Directory;
            return EntryEnd{*h};
        default:
            return formatError(in, h->offset, QStringLiteral("unexpected %1 inside an entry").arg(QLatin1String(typeName(h->type))));
        }
        if (!ok)
            return std::move(ok).error();
    }
}

} // namespace asc::pxar
