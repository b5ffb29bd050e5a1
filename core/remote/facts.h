// SPDX-License-Identifier: MIT
#pragma once
// The values the worker's requests and answers carry (wire.h frames them): what every request
// carries, the facts of what the worker holds, the inspection, a trace, entries and errors, and
// their QDataStream codecs. Lists are read against the bytes left, so a hostile count allocates
// nothing; JSON objects (a format's facts) cross as CBOR.

#include "io/error.h"
#include "open/inspection.h"
#include "vfs/entry.h"
#include "vfs/entry_codec.h"

#include <QDataStream>
#include <QIODevice>
#include <optional>
#include <vector>

namespace asc {

// In asc, where argument-dependent lookup finds them from Message's and Received's templates.
QDataStream &operator<<(QDataStream &out, const Entry &entry);
QDataStream &operator>>(QDataStream &in, Entry &entry);
QDataStream &operator<<(QDataStream &out, const Error &error);
QDataStream &operator>>(QDataStream &in, Error &error);
QDataStream &operator<<(QDataStream &out, const std::vector<Error> &errors);
QDataStream &operator>>(QDataStream &in, std::vector<Error> &errors);

} // namespace asc

namespace asc::wire {

// Qt's own QList reading reserves whatever count the bytes claim: from a worker that would let a
// damaged or hostile peer make this process allocate gigabytes. Counts are checked against the
// bytes left.
template <typename List>
inline QDataStream &readList(QDataStream &in, List &values)
{
    quint32 count = 0;
    in >> count;
    values.clear();
    if (in.device() && count > quint64(in.device()->bytesAvailable())) {
        in.setStatus(QDataStream::ReadCorruptData);
        return in;
    }
    for (quint32 i = 0; i < count && in.status() == QDataStream::Ok; ++i) {
        typename List::value_type v{};
        in >> v;
        values.push_back(std::move(v));
    }
    return in;
}

// What every request carries besides its own fields: how names are decoded, whether its reads
// are traced, the passwords its client was given.
struct RequestContext {
    QByteArray nameCharset;
    bool trace = false;
    QList<QByteArray> passwords; // for encrypted entries, tried in turn (memory only)
};

// A source the worker holds, as the client sees it.
struct SourceFacts {
    quint32 id = 0;
    quint64 size = 0;
    QString name;
    bool opaque = false;
};

// A container the worker holds, with what its constant methods answer.
struct ContainerFacts {
    quint32 id = 0;
    QString formatName;
    QJsonObject info;
    bool listsFolderByFolder = false;
    bool mayRepeatNames = false;
    bool impliesDirectories = true;
    SourceFacts source;
};

// The answer to Inspect: the inspection, and handles for what it found.
struct InspectedFacts {
    Inspection inspection;
    QByteArray directory; // a folder inside the container
    std::optional<ContainerFacts> container;
    std::optional<SourceFacts> source; // the bytes at the SPEC (none for a folder)
    std::optional<ContainerFacts> parent; // for an entry: the container holding it
    std::optional<Entry> entry;
};

struct TraceFacts {
    QStringList files;
    QList<QByteArray> layers;
    struct Read {
        quint32 file, layer;
        quint64 offset, length;
        qint64 tNs;
        qint32 thread;
    };
    std::vector<Read> reads;
};

QDataStream &operator<<(QDataStream &out, const SourceFacts &facts);
QDataStream &operator>>(QDataStream &in, SourceFacts &facts);
QDataStream &operator<<(QDataStream &out, const ContainerFacts &facts);
QDataStream &operator>>(QDataStream &in, ContainerFacts &facts);
QDataStream &operator<<(QDataStream &out, const InspectedFacts &facts);
QDataStream &operator>>(QDataStream &in, InspectedFacts &facts);
QDataStream &operator<<(QDataStream &out, const TraceFacts &facts);
QDataStream &operator>>(QDataStream &in, TraceFacts &facts);
QDataStream &operator<<(QDataStream &out, const RequestContext &context);
QDataStream &operator>>(QDataStream &in, RequestContext &context);

} // namespace asc::wire
