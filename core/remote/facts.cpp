// SPDX-License-Identifier: MIT
#include "facts.h"

#include <QCborMap>
#include <QIODevice>

namespace asc {

namespace {

template <typename T>
QDataStream &readOptional(QDataStream &in, std::optional<T> &value)
{
    bool present = false;
    in >> present;
    value.reset();
    if (present) {
        T v{};
        in >> v;
        value = std::move(v);
    }
    return in;
}

template <typename T>
QDataStream &writeOptional(QDataStream &out, const std::optional<T> &value)
{
    out << value.has_value();
    if (value)
        out << *value;
    return out;
}

// Format facts are JSON objects in memory; they cross as CBOR (binary, exact numbers).
QDataStream &writeObject(QDataStream &out, const QJsonObject &object)
{
    return out << QCborMap::fromJsonObject(object);
}

QDataStream &readObject(QDataStream &in, QJsonObject &object)
{
    QCborMap map;
    in >> map;
    object = map.toJsonObject();
    return in;
}

} // namespace

QDataStream &operator<<(QDataStream &out, const Entry &e)
{
    return out << e.path << e.target << e.uname << e.gname << e.detail << e.problem << quint64(e.size) << quint64(e.compressedSize)
               << quint64(e.dataOffset) << quint64(e.ordinal) << qint64(e.mtime) << e.mtimeNsec << e.mode << e.uid << e.gid
               << e.rdevMajor << e.rdevMinor << quint8(e.type) << e.encrypted << e.hasMtime << e.unsafePath << e.opaque;
}

QDataStream &operator>>(QDataStream &in, Entry &e)
{
    quint64 size = 0, compressed = 0, offset = 0, ordinal = 0;
    qint64 mtime = 0;
    quint8 type = 0;
    in >> e.path >> e.target >> e.uname >> e.gname >> e.detail >> e.problem >> size >> compressed >> offset >> ordinal >> mtime >>
        e.mtimeNsec >> e.mode >> e.uid >> e.gid >> e.rdevMajor >> e.rdevMinor >> type >> e.encrypted >> e.hasMtime >> e.unsafePath >>
        e.opaque;
    e.size = size;
    e.compressedSize = compressed;
    e.dataOffset = offset;
    e.ordinal = ordinal;
    e.mtime = mtime;
    e.type = type <= quint8(EntryType::Partition) ? EntryType(type) : EntryType::File;
    return in;
}

QDataStream &operator<<(QDataStream &out, const Error &e)
{
    out << qint32(e.kind) << e.file;
    writeOptional(out, e.offset.has_value() ? std::optional<quint64>(*e.offset) : std::nullopt);
    return out << e.operation << qint32(e.errnum) << e.message;
}

QDataStream &operator>>(QDataStream &in, Error &e)
{
    qint32 kind = 0, errnum = 0;
    std::optional<quint64> offset;
    in >> kind >> e.file;
    readOptional(in, offset);
    in >> e.operation >> errnum >> e.message;
    e.kind = kind >= 0 && kind <= qint32(ErrorKind::Password) ? ErrorKind(kind) : ErrorKind::Format; // Password: the last kind
    e.offset = offset ? std::optional<uint64_t>(*offset) : std::nullopt;
    e.errnum = errnum;
    return in;
}

QDataStream &wire::operator<<(QDataStream &out, const SourceFacts &s)
{
    return out << s.id << s.size << s.name << s.opaque;
}

QDataStream &wire::operator>>(QDataStream &in, SourceFacts &s)
{
    return in >> s.id >> s.size >> s.name >> s.opaque;
}

QDataStream &wire::operator<<(QDataStream &out, const ContainerFacts &c)
{
    out << c.id << c.formatName;
    writeObject(out, c.info);
    return out << c.listsFolderByFolder << c.mayRepeatNames << c.impliesDirectories << c.source;
}

QDataStream &wire::operator>>(QDataStream &in, ContainerFacts &c)
{
    in >> c.id >> c.formatName;
    readObject(in, c.info);
    return in >> c.listsFolderByFolder >> c.mayRepeatNames >> c.impliesDirectories >> c.source;
}

static QDataStream &operator<<(QDataStream &out, const DiskExtent &d)
{
    out << quint64(d.start) << quint64(d.length) << qint32(d.depth) << d.present << d.zero << d.data << d.compressed;
    return writeOptional(out, d.offset ? std::optional<quint64>(*d.offset) : std::nullopt);
}

static QDataStream &operator>>(QDataStream &in, DiskExtent &d)
{
    quint64 start = 0, length = 0;
    qint32 depth = 0;
    std::optional<quint64> offset;
    in >> start >> length >> depth >> d.present >> d.zero >> d.data >> d.compressed;
    readOptional(in, offset);
    d.start = start;
    d.length = length;
    d.depth = depth;
    d.offset = offset ? std::optional<uint64_t>(*offset) : std::nullopt;
    return in;
}

template <typename T>
static QDataStream &writeVector(QDataStream &out, const std::vector<T> &values)
{
    out << quint32(values.size());
    for (const T &v : values)
        out << v;
    return out;
}

QDataStream &wire::operator<<(QDataStream &out, const InspectedFacts &f)
{
    const Inspection &i = f.inspection;
    out << i.spec << i.directory << quint64(i.size) << i.formatName;
    writeObject(out, i.formatInfo);
    writeObject(out, i.imageInfo);
    writeVector(out, i.allocation);
    out << i.head;
    writeOptional(out, i.openError);
    writeVector(out, i.problems);
    out << f.directory;
    writeOptional(out, f.container);
    writeOptional(out, f.source);
    writeOptional(out, f.parent);
    return writeOptional(out, f.entry);
}

QDataStream &wire::operator>>(QDataStream &in, InspectedFacts &f)
{
    Inspection &i = f.inspection;
    quint64 size = 0;
    in >> i.spec >> i.directory >> size >> i.formatName;
    readObject(in, i.formatInfo);
    readObject(in, i.imageInfo);
    i.size = size;
    wire::readList(in, i.allocation);
    in >> i.head;
    readOptional(in, i.openError);
    wire::readList(in, i.problems);
    in >> f.directory;
    readOptional(in, f.container);
    readOptional(in, f.source);
    readOptional(in, f.parent);
    return readOptional(in, f.entry);
}

QDataStream &wire::operator<<(QDataStream &out, const TraceFacts &t)
{
    out << t.files << t.layers << quint32(t.reads.size());
    for (const auto &r : t.reads)
        out << r.file << r.layer << r.offset << r.length << r.tNs << r.thread;
    return out;
}

QDataStream &wire::operator>>(QDataStream &in, TraceFacts &t)
{
    quint32 count = 0;
    wire::readList(in, t.files);
    wire::readList(in, t.layers);
    in >> count;
    t.reads.clear();
    if (in.device() && count > quint64(in.device()->bytesAvailable()))
        in.setStatus(QDataStream::ReadCorruptData);
    for (quint32 i = 0; i < count && in.status() == QDataStream::Ok; ++i) {
        TraceFacts::Read r{};
        in >> r.file >> r.layer >> r.offset >> r.length >> r.tNs >> r.thread;
        t.reads.push_back(r);
    }
    return in;
}

QDataStream &operator<<(QDataStream &out, const std::vector<Error> &errors)
{
    return writeVector(out, errors);
}

QDataStream &operator>>(QDataStream &in, std::vector<Error> &errors)
{
    return wire::readList(in, errors);
}

QDataStream &wire::operator<<(QDataStream &out, const RequestContext &c)
{
    return out << c.nameCharset << c.trace << c.passwords;
}

QDataStream &wire::operator>>(QDataStream &in, RequestContext &c)
{
    return in >> c.nameCharset >> c.trace >> c.passwords;
}

} // namespace asc
