// SPDX-License-Identifier: MIT
#pragma once
// A read strategy: one way of reading a whole target with a buffer of N bytes. Each reads every
// byte exactly once, counts its own system calls, and can hand the bytes to a consumer (tests use
// that to prove the strategy returns exactly the target's bytes).

#include "io/byte_source.h"
#include "io/cancel.h"

#include <QString>
#include <functional>
#include <memory>
#include <vector>

namespace asc {

struct ReadTarget {
    QString spec;
    SourcePtr source; // the bytes to read (a file, an entry, a virtual disk, a partition)
    QString filePath; // set when the target is a plain file: strategies that need a path use it
    QString outputDir; // where copy strategies may write (bench --output-dir)
};

struct ReadOutcome {
    uint64_t bytes = 0; // bytes delivered
    uint64_t syscalls = 0; // read-type system calls (or io_uring submissions) made for the data
    QString note; // e.g. "O_DIRECT refused by filesystem: fell back to buffered"
};

// Receives each piece read, in order; used for checksums in tests. May be empty.
using ByteConsumer = std::function<void(std::span<const char>)>;

class ReadStrategy {
public:
    virtual ~ReadStrategy() = default;
    virtual QString name() const = 0;
    virtual QString description() const = 0;
    // "plain file", "async", "framed", or the format ("qcow2", "pxar", "archive").
    virtual QString group() const = 0;
    // Why this strategy cannot read the target (empty: it can).
    virtual QString notApplicable(const ReadTarget &target) const = 0;
    // Bytes a complete run delivers (the target's size; format strategies may count more files).
    virtual uint64_t expectedBytes(const ReadTarget &target) const { return target.source->size(); }
    // Reads the whole target with buffer size `buffer`. Checks `cancel` at least once per buffer.
    virtual Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                                    const ByteConsumer &consume) const = 0;
};

using StrategyPtr = std::shared_ptr<const ReadStrategy>;

// Every strategy, in the order `strategies` lists them.
const std::vector<StrategyPtr> &readStrategies();
StrategyPtr findReadStrategy(const QString &name);

} // namespace asc
