// SPDX-License-Identifier: MIT
#pragma once
// A container: something with entries (an archive, a partition table, a filesystem).
// Contract: methods may block on I/O. A listing or walk runs on one thread while open(),
// info() and find() may be called on others (the window previews while its tree loads; the
// worker serves a read beside a listing), so what they share is guarded; the sources a
// container returns are thread safe and outlive it.

#include "entry.h"
#include "io/byte_source.h"

#include <QJsonObject>
#include <functional>
#include <memory>

namespace asc {

class Container {
public:
    // Receives entries in archive order; return false to stop listing early.
    using EntrySink = std::function<bool(const Entry &)>;

    virtual ~Container() = default;

    // Short format name ("tar", "zip", "gpt", ...).
    virtual QString formatName() const = 0;
    // Streams every entry in archive order.
    virtual Result<void> list(const EntrySink &sink) = 0;
    // The content of a file entry as a byte source.
    virtual Result<SourcePtr> open(const Entry &entry) = 0;
    // Format metadata for `info` and the details pane.
    virtual QJsonObject info() const = 0;
    // Reads a file entry's content in pieces: 0 at its end.
    using ContentReader = std::function<Result<size_t>(std::span<char>)>;
    // Receives every entry in archive order with a reader for its content (files only; unread
    // content is skipped). Return false to stop.
    using ContentSink = std::function<Result<bool>(const Entry &, const ContentReader &)>;
    // One pass over entries and contents; streaming formats override this to avoid re-reading.
    virtual Result<void> walk(const ContentSink &sink);
    // A walk whose sink reads the content of `selection` only (an entry, or a folder and all below
    // it; empty: everything). A container that reaches its members directly (listed from an index,
    // a filesystem of our own reader) looks one file up and reads it alone, the sink seeing that
    // entry only: extracting one 35 KB file of a 60 MB .deb's data.tar.xz by walking decoded all
    // of it (7 s). A container whose content is shipped from elsewhere (a worker process's) ships
    // only the selection. The others walk everything.
    virtual Result<void> walkSelection(const QByteArray &selection, const ContentSink &sink);

    // Probes and parses a source as a container (the format registry's openContainer: a layer
    // above this one, so it is passed in).
    using ContainerOpener = std::function<Result<std::shared_ptr<Container>>(SourcePtr)>;
    // The content of `entry` opened as a container. A container in a worker process has it
    // probed and parsed there; the others open the entry and give its content to `opener`.
    virtual Result<std::shared_ptr<Container>> openNested(const Entry &entry, const ContainerOpener &opener);
    // Whether it can still be read: a worker's container cannot once its worker has ended.
    virtual bool reachable() const { return true; }

    // Whether a browser should read this container one folder at a time (a filesystem: listing
    // all of it means reading every directory block of the volume) rather than list() it whole.
    virtual bool listsFolderByFolder() const { return false; }
    // Streams the direct children of the directory `dir` (an entry this container listed, or an
    // empty path for the top). The default filters list() (directories only implied by deeper
    // paths are not reported).
    virtual Result<void> listDirectory(const Entry &dir, const EntrySink &sink);

    // Whether one name may appear several times, the last being the current one (a tar appended
    // to with `tar -r`): lookups then read to the end.
    // Whether its listing comes from a kept index (no decoding) and members are reached directly:
    // a lookup lists, then opens the member, instead of keeping content on the way.
    virtual bool listsFromIndex() const { return false; }
    virtual bool mayRepeatNames() const { return false; }
    // Looks one path up; the default lists until it is found (the last one, see mayRepeatNames).
    virtual Result<Entry> find(const QByteArray &path);
    // Whether a directory may exist only because deeper paths name it (zip, tar) rather than as
    // an entry of its own (pxar lists every directory).
    virtual bool impliesDirectories() const { return true; }
    // The source this container was opened on (what errors name).
    virtual const SourcePtr &source() const = 0;
};

using ContainerPtr = std::shared_ptr<Container>;

} // namespace asc
