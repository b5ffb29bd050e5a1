// SPDX-License-Identifier: MIT
#include "bench_codec.h"

#include "remote/facts.h"

#include <QCborMap>
#include <QCborValue>

namespace asc {

namespace {

constexpr quint32 kMaxRuns = 1u << 20; // a broken frame must not make us allocate without end
constexpr quint32 kMaxBuffers = 64;
constexpr quint32 kMaxPoints = 1u << 16;

} // namespace

QDataStream &operator<<(QDataStream &out, const Sample &s)
{
    return out << s.seconds << quint64(s.bytes) << s.user << s.sys << quint64(s.syscalls) << qint64(s.readBytes) << qint64(s.rchar)
               << qint64(s.maxRssBytes) << qint64(s.writeCalls) << qint64(s.writeBytes) << qint64(s.storageWriteBytes) << qint32(s.exitStatus);
}

QDataStream &operator>>(QDataStream &in, Sample &s)
{
    quint64 bytes = 0, syscalls = 0;
    qint64 readBytes = 0, rchar = 0, maxRss = 0, writeCalls = 0, writeBytes = 0, storageWrite = 0;
    qint32 exitStatus = 0;
    in >> s.seconds >> bytes >> s.user >> s.sys >> syscalls >> readBytes >> rchar >> maxRss >> writeCalls >> writeBytes >> storageWrite >> exitStatus;
    s.bytes = bytes;
    s.syscalls = syscalls;
    s.readBytes = readBytes;
    s.rchar = rchar;
    s.maxRssBytes = maxRss;
    s.writeCalls = writeCalls;
    s.writeBytes = writeBytes;
    s.storageWriteBytes = storageWrite;
    s.exitStatus = exitStatus;
    return in;
}

QDataStream &operator<<(QDataStream &out, const Summary &m)
{
    return out << m.mean << m.sd << m.median << m.min << m.max << qint32(m.count);
}

QDataStream &operator>>(QDataStream &in, Summary &m)
{
    qint32 count = 0;
    in >> m.mean >> m.sd >> m.median >> m.min >> m.max >> count;
    m.count = count;
    return in;
}

QDataStream &operator<<(QDataStream &out, const BenchPoint &p)
{
    out << p.strategy << quint64(p.buffer) << bool(p.cache == CacheMode::Cold) << qint32(p.pass) << quint32(p.runs.size());
    for (const Sample &s : p.runs)
        out << s;
    return out << p.mibps << p.note << p.isCommand << p.commandTemplate << p.command << p.requestBytesMedian << qint64(p.targetReadCalls)
               << qint64(p.targetReadBytes);
}

QDataStream &operator>>(QDataStream &in, BenchPoint &p)
{
    quint64 buffer = 0;
    bool cold = false;
    qint32 pass = 0;
    quint32 runs = 0;
    in >> p.strategy >> buffer >> cold >> pass >> runs;
    if (in.status() != QDataStream::Ok || runs > kMaxRuns) {
        in.setStatus(QDataStream::ReadCorruptData);
        return in;
    }
    p.buffer = buffer;
    p.cache = cold ? CacheMode::Cold : CacheMode::Warm;
    p.pass = pass;
    p.runs.clear();
    for (quint32 i = 0; i < runs && in.status() == QDataStream::Ok; ++i)
        in >> p.runs.emplace_back();
    qint64 calls = 0, bytes = 0;
    in >> p.mibps >> p.note >> p.isCommand >> p.commandTemplate >> p.command >> p.requestBytesMedian >> calls >> bytes;
    p.targetReadCalls = calls;
    p.targetReadBytes = bytes;
    return in;
}

QDataStream &operator<<(QDataStream &out, const BenchResult &r)
{
    out << r.tool << r.version << QCborValue(QCborMap::fromJsonObject(r.machine)) << r.spec << quint64(r.targetBytes);
    out << r.config.strategies << quint32(r.config.buffers.size());
    for (uint64_t buffer : r.config.buffers)
        out << quint64(buffer);
    out << qint32(r.config.runs) << qint32(r.config.warmup) << bool(r.config.cache == CacheMode::Cold) << qint32(r.config.passes);
    out << r.notes << r.skipped << quint32(r.points.size());
    for (const BenchPoint &p : r.points)
        out << p;
    return out;
}

QDataStream &operator>>(QDataStream &in, BenchResult &r)
{
    QCborValue machine;
    quint64 targetBytes = 0;
    quint32 buffers = 0;
    in >> r.tool >> r.version >> machine >> r.spec >> targetBytes;
    wire::readList(in, r.config.strategies); // counts checked against the bytes left
    in >> buffers;
    if (in.status() != QDataStream::Ok || buffers > kMaxBuffers) {
        in.setStatus(QDataStream::ReadCorruptData);
        return in;
    }
    r.machine = machine.toMap().toJsonObject();
    r.targetBytes = targetBytes;
    r.config.spec = r.spec;
    r.config.buffers.clear();
    for (quint32 i = 0; i < buffers; ++i) {
        quint64 buffer = 0;
        in >> buffer;
        r.config.buffers.push_back(buffer);
    }
    qint32 runs = 0, warmup = 0, passes = 0;
    bool cold = false;
    in >> runs >> warmup >> cold >> passes;
    wire::readList(in, r.notes);
    wire::readList(in, r.skipped);
    r.config.runs = runs;
    r.config.warmup = warmup;
    r.config.cache = cold ? CacheMode::Cold : CacheMode::Warm;
    r.config.passes = passes;
    quint32 points = 0;
    in >> points;
    if (in.status() != QDataStream::Ok || points > kMaxPoints) {
        in.setStatus(QDataStream::ReadCorruptData);
        return in;
    }
    r.points.clear();
    for (quint32 i = 0; i < points && in.status() == QDataStream::Ok; ++i)
        in >> r.points.emplace_back();
    return in;
}

} // namespace asc
