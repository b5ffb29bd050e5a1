// SPDX-License-Identifier: MIT
#include "entry_codec.h"

#include <cstring>

namespace asc {

// Batches of entries are most of what crosses (200,000 for a large tarball): packed by hand, one
// fixed record and the six byte strings per entry, instead of QDataStream's call per field. Both
// ends are the same program on the same machine: native byte order.
namespace {

struct PackedEntry {
    quint64 size, compressedSize, dataOffset, ordinal;
    qint64 mtime;
    quint32 mtimeNsec, mode, uid, gid, rdevMajor, rdevMinor;
    quint32 lengths[6]; // path, target, uname, gname, detail, problem
    quint8 type, flags;
    quint8 reserved[6];
};

enum EntryFlag : quint8 { Encrypted = 1,
                          HasMtime = 2,
                          UnsafePath = 4,
                          Opaque = 8 };

} // namespace

QDataStream &operator<<(QDataStream &out, const std::vector<Entry> &entries)
{
    QByteArray packed;
    qsizetype total = 0;
    for (const Entry &e : entries)
        total += qsizetype(sizeof(PackedEntry)) + e.path.size() + e.target.size() + e.uname.size() + e.gname.size() + e.detail.size() + e.problem.size();
    packed.reserve(total);
    for (const Entry &e : entries) {
        const QByteArray *strings[6] = {&e.path, &e.target, &e.uname, &e.gname, &e.detail, &e.problem};
        PackedEntry p{};
        p.size = e.size;
        p.compressedSize = e.compressedSize;
        p.dataOffset = e.dataOffset;
        p.ordinal = e.ordinal;
        p.mtime = e.mtime;
        p.mtimeNsec = e.mtimeNsec;
        p.mode = e.mode;
        p.uid = e.uid;
        p.gid = e.gid;
        p.rdevMajor = e.rdevMajor;
        p.rdevMinor = e.rdevMinor;
        for (int i = 0; i < 6; ++i)
            p.lengths[i] = quint32(strings[i]->size());
        p.type = quint8(e.type);
        p.flags = quint8((e.encrypted ? Encrypted : 0) | (e.hasMtime ? HasMtime : 0) | (e.unsafePath ? UnsafePath : 0) | (e.opaque ? Opaque : 0));
        packed.append(reinterpret_cast<const char *>(&p), sizeof p);
        for (const QByteArray *string : strings)
            packed.append(*string);
    }
    return out << quint32(entries.size()) << packed;
}

QDataStream &operator>>(QDataStream &in, std::vector<Entry> &entries)
{
    quint32 count = 0;
    QByteArray packed;
    in >> count >> packed;
    entries.clear();
    if (in.status() != QDataStream::Ok || quint64(count) * sizeof(PackedEntry) > quint64(packed.size())) {
        in.setStatus(QDataStream::ReadCorruptData);
        return in;
    }
    entries.reserve(count);
    const char *at = packed.constData();
    const char *const end = at + packed.size();
    // Owner names repeat: each decoded once and shared, as in-process listings share them.
    QByteArray lastUname, lastGname;
    for (quint32 n = 0; n < count; ++n) {
        PackedEntry p;
        if (end - at < qsizetype(sizeof p))
            break;
        std::memcpy(&p, at, sizeof p);
        at += sizeof p;
        quint64 strings = 0;
        for (quint32 length : p.lengths)
            strings += length;
        if (strings > quint64(end - at))
            break;
        Entry e;
        QByteArray *fields[6] = {&e.path, &e.target, &e.uname, &e.gname, &e.detail, &e.problem};
        for (int i = 0; i < 6; ++i) {
            if (p.lengths[i] > 0)
                *fields[i] = QByteArray(at, qsizetype(p.lengths[i]));
            at += p.lengths[i];
        }
        if (e.uname == lastUname)
            e.uname = lastUname;
        else
            lastUname = e.uname;
        if (e.gname == lastGname)
            e.gname = lastGname;
        else
            lastGname = e.gname;
        e.size = p.size;
        e.compressedSize = p.compressedSize;
        e.dataOffset = p.dataOffset;
        e.ordinal = p.ordinal;
        e.mtime = p.mtime;
        e.mtimeNsec = p.mtimeNsec;
        e.mode = p.mode;
        e.uid = p.uid;
        e.gid = p.gid;
        e.rdevMajor = p.rdevMajor;
        e.rdevMinor = p.rdevMinor;
        e.type = p.type <= quint8(EntryType::Partition) ? EntryType(p.type) : EntryType::File;
        e.encrypted = p.flags & Encrypted;
        e.hasMtime = p.flags & HasMtime;
        e.unsafePath = p.flags & UnsafePath;
        e.opaque = p.flags & Opaque;
        entries.push_back(std::move(e));
    }
    if (entries.size() != count || at != end) {
        entries.clear();
        in.setStatus(QDataStream::ReadCorruptData);
    }
    return in;
}

} // namespace asc
