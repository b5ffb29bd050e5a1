// SPDX-License-Identifier: MIT
#pragma once
// Write strategies: ways of putting a payload of S bytes into a file, each counting its own write
// system calls and the bytes it passed to them (library-buffered ones report what the kernel
// counted). Options: atomic replace (temporary file, fsync, rename, fsync the directory) and fsync.

#include "io/cancel.h"
#include "io/result.h"

#include <QString>
#include <memory>
#include <vector>

namespace asc {

struct WriteJob {
    int dirfd = -1; // the directory to write in
    QString dirName; // for messages
    QByteArray fileName; // the target's name inside it
    const char *payload = nullptr;
    size_t size = 0;
    size_t buffer = 8192; // N
    bool atomic = false;
    bool fsync = false;
};

struct WriteOutcome {
    uint64_t writeCalls = 0; // write-type system calls for the payload
    uint64_t bytesToWriteCalls = 0;
    QString note;
};

class WriteStrategy {
public:
    virtual ~WriteStrategy() = default;
    virtual QString name() const = 0; // e.g. "write-N"
    virtual QString description() const = 0;
    // Whether N (WriteJob::buffer) changes what it does: a buffer sweep repeats only these.
    virtual bool usesBuffer() const { return true; }
    virtual Result<WriteOutcome> write(const WriteJob &job, const CancelFlag &cancel) const = 0;
};

using WriteStrategyPtr = std::shared_ptr<const WriteStrategy>;
const std::vector<WriteStrategyPtr> &writeStrategies();
WriteStrategyPtr findWriteStrategy(const QString &name);

} // namespace asc
