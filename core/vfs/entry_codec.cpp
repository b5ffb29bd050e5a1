// SPDX-License-Identifier: MIT
#include "entry_codec.h"

#include "varint.h"

#include "io/prefault.h"

#include <QBuffer>
#include <QHash>
#include <array>
#include <cstring>
#include <optional>

namespace asc {

// Batches of entries are most of what crosses (200,000 for a large tarball) and most of an index:
// written in columns of varints (one column per kind of field, so that zstd finds their
// repeats), each path as what it shares with the one before and the rest, owner names once,
// instead of a fixed 96-byte record and all six strings per entry.
namespace {

enum EntryFlag : quint8 { Encrypted = 1,
                          HasMtime = 2,
                          UnsafePath = 4,
                          Opaque = 8 };

enum ColumnId { PathLengths, // shared with the previous path, then the rest's length
                PathBytes,
                Kinds, // type, flags
                Modes, // mode, uid, gid (rdev for devices)
                Names, // owner and group: a number in the names seen so far (its size: a new one)
                Sizes, // size, compressed size + 1 (0: unknown)
                Offsets, // data offset and ordinal, as deltas
                Times, // mtime as a delta, nanoseconds
                TextLengths, // target, detail, problem, new names
                TextBytes,
                ColumnCount };

bool hasRdev(EntryType type)
{
    return type == EntryType::CharDev || type == EntryType::BlockDev;
}

} // namespace

QDataStream &operator<<(QDataStream &out, const std::vector<Entry> &entries)
{
    std::array<QByteArray, ColumnCount> c;
    for (QByteArray &column : c)
        column.reserve(qsizetype(entries.size()) * 2);
    c[PathBytes].reserve(qsizetype(entries.size()) * 24);
    // The path before, read through a pointer: indexing a QByteArray that shares its data with
    // the entry's would copy it (detach) once per entry.
    const char *previousPath = nullptr;
    qsizetype previousLength = 0;
    // Owner names seen so far: a few in a real archive, one per entry in a hostile one (hashed,
    // so that encoding it stays linear).
    QHash<QByteArray, quint64> names;
    auto putText = [&](const QByteArray &text) {
        varint::put(c[TextLengths], uint64_t(text.size()));
        c[TextBytes].append(text);
    };
    auto putName = [&](const QByteArray &name) {
        const auto known = names.constFind(name);
        varint::put(c[Names], known != names.cend() ? *known : quint64(names.size()));
        if (known == names.cend()) {
            putText(name);
            names.insert(name, quint64(names.size()));
        }
    };
    varint::DeltaWriter offsets, ordinals;
    int64_t previousMtime = 0;
    for (const Entry &e : entries) {
        qsizetype shared = 0;
        const qsizetype most = std::min(previousLength, e.path.size());
        const char *path = e.path.constData();
        while (shared < most && previousPath[shared] == path[shared])
            ++shared;
        varint::put(c[PathLengths], uint64_t(shared));
        varint::put(c[PathLengths], uint64_t(e.path.size() - shared));
        c[PathBytes].append(path + shared, e.path.size() - shared);
        previousPath = path;
        previousLength = e.path.size();
        c[Kinds].append(char(e.type));
        c[Kinds].append(char((e.encrypted ? Encrypted : 0) | (e.hasMtime ? HasMtime : 0) | (e.unsafePath ? UnsafePath : 0) | (e.opaque ? Opaque : 0)));
        varint::put(c[Modes], e.mode);
        varint::put(c[Modes], e.uid);
        varint::put(c[Modes], e.gid);
        if (hasRdev(e.type)) {
            varint::put(c[Modes], e.rdevMajor);
            varint::put(c[Modes], e.rdevMinor);
        }
        putName(e.uname);
        putName(e.gname);
        varint::put(c[Sizes], e.size);
        varint::put(c[Sizes], e.compressedSize + 1); // kUnknown wraps to 0
        offsets.put(c[Offsets], e.dataOffset);
        ordinals.put(c[Offsets], e.ordinal);
        varint::put(c[Times], varint::zigzag(int64_t(uint64_t(e.mtime) - uint64_t(previousMtime)))); // wraps, never overflows
        previousMtime = e.mtime;
        varint::put(c[Times], e.mtimeNsec);
        putText(e.target);
        putText(e.detail);
        putText(e.problem);
    }
    QByteArray packed;
    qsizetype total = 0;
    for (const QByteArray &column : c)
        total += column.size() + 10;
    packed.reserve(total);
    for (const QByteArray &column : c) {
        varint::put(packed, uint64_t(column.size()));
        packed.append(column);
    }
    return out << quint32(entries.size()) << packed;
}

namespace {
// The columns' bytes where the stream stands, as QDataStream wrote them (a 32-bit length, then
// the bytes): read in place when the stream is over memory (an index's payload, a worker's
// answer), where `in >> QByteArray` would copy megabytes in steps; copied into `copy` otherwise.
std::optional<QByteArrayView> columnBytes(QDataStream &in, QByteArray &copy)
{
    auto *buffer = qobject_cast<QBuffer *>(in.device());
    if (!buffer) {
        in >> copy;
        return in.status() == QDataStream::Ok ? std::optional(QByteArrayView(copy)) : std::nullopt;
    }
    quint32 length = 0;
    in >> length;
    if (in.status() != QDataStream::Ok)
        return std::nullopt;
    if (length == 0xFFFFFFFFu) // a null QByteArray
        return QByteArrayView();
    const QByteArray &all = buffer->data();
    const qint64 at = buffer->pos();
    if (at < 0 || at > all.size() || qint64(length) > all.size() - at || !buffer->seek(at + qint64(length)))
        return std::nullopt;
    return QByteArrayView(all.constData() + at, qsizetype(length));
}
} // namespace

QDataStream &operator>>(QDataStream &in, std::vector<Entry> &entries)
{
    quint32 count = 0;
    in >> count;
    QByteArray copy;
    const std::optional<QByteArrayView> packed = in.status() == QDataStream::Ok ? columnBytes(in, copy) : std::nullopt;
    entries.clear();
    auto corrupt = [&]() -> QDataStream & {
        entries.clear();
        in.setStatus(QDataStream::ReadCorruptData);
        return in;
    };
    if (!packed || in.status() != QDataStream::Ok)
        return corrupt();
    varint::Reader whole(packed->data(), packed->data() + packed->size());
    std::array<varint::Reader, ColumnCount> c;
    for (varint::Reader &column : c) {
        const uint64_t length = whole.get();
        const char *at = whole.take(length);
        if (!whole.ok())
            return corrupt();
        column = varint::Reader(at, at + length);
    }
    // Every entry has its two bytes in Kinds: a count beyond that is a lie, not an allocation.
    if (!whole.atEnd() || uint64_t(count) * 2 != c[Kinds].remaining())
        return corrupt();
    entries.reserve(count);
    prefault(entries.data(), size_t(count) * sizeof(Entry));
    QByteArray previousPath;
    QList<QByteArray> names;
    auto takeText = [&]() {
        const uint64_t length = c[TextLengths].get();
        const char *at = c[TextBytes].take(length);
        return at && length > 0 ? QByteArray(at, qsizetype(length)) : QByteArray();
    };
    auto takeName = [&]() {
        const uint64_t i = c[Names].get();
        if (i == uint64_t(names.size()))
            names.append(takeText()); // first seen here
        else if (i > uint64_t(names.size()))
            c[Names].fail(); // a number from nowhere
        return names.value(qsizetype(i)); // shared, as in-process listings share them
    };
    varint::DeltaReader offsets, ordinals;
    int64_t previousMtime = 0;
    for (quint32 n = 0; n < count; ++n) {
        Entry e;
        const uint64_t shared = c[PathLengths].get();
        const uint64_t rest = c[PathLengths].get();
        const char *suffix = c[PathBytes].take(rest);
        if (shared > uint64_t(previousPath.size()) || !c[PathBytes].ok())
            return corrupt();
        if (shared + rest > 0) {
            e.path = QByteArray(qsizetype(shared + rest), Qt::Uninitialized);
            if (shared > 0)
                std::memcpy(e.path.data(), previousPath.constData(), size_t(shared));
            if (rest > 0)
                std::memcpy(e.path.data() + shared, suffix, size_t(rest));
        }
        previousPath = e.path;
        const uint8_t type = c[Kinds].byte();
        const uint8_t flags = c[Kinds].byte();
        e.type = type <= quint8(EntryType::Partition) ? EntryType(type) : EntryType::File;
        e.encrypted = flags & Encrypted;
        e.hasMtime = flags & HasMtime;
        e.unsafePath = flags & UnsafePath;
        e.opaque = flags & Opaque;
        e.mode = uint32_t(c[Modes].get());
        e.uid = uint32_t(c[Modes].get());
        e.gid = uint32_t(c[Modes].get());
        if (hasRdev(e.type)) {
            e.rdevMajor = uint32_t(c[Modes].get());
            e.rdevMinor = uint32_t(c[Modes].get());
        }
        e.uname = takeName();
        e.gname = takeName();
        e.size = c[Sizes].get();
        e.compressedSize = c[Sizes].get() - 1;
        e.dataOffset = offsets.get(c[Offsets]);
        e.ordinal = ordinals.get(c[Offsets]);
        e.mtime = int64_t(uint64_t(previousMtime) + uint64_t(varint::unzigzag(c[Times].get())));
        previousMtime = e.mtime;
        e.mtimeNsec = uint32_t(c[Times].get());
        e.target = takeText();
        e.detail = takeText();
        e.problem = takeText();
        entries.push_back(std::move(e));
    }
    for (const varint::Reader &column : c)
        if (!column.ok() || !column.atEnd())
            return corrupt();
    return in;
}

} // namespace asc
