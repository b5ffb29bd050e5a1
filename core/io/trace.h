// SPDX-License-Identifier: MIT
#pragma once
// An I/O trace: one record per read of a file that reaches the kernel (FileSource's preads) or a
// mapping (MmapSource's copies), with its offset, length, time, thread, and the layer of the
// parser that asked (TraceLayer: "qcow2 L2 table", "pxar goodbye table", "gzip input", ...).
// Off by default; when off a read pays one relaxed atomic load.

#include <QString>
#include <QStringList>
#include <atomic>
#include <cstdint>
#include <vector>

namespace asc {

struct TraceRecord {
    int file = 0; // index into IoTrace::files()
    uint64_t offset = 0;
    uint64_t length = 0; // bytes the read returned
    int64_t tNs = 0; // since start()
    int thread = 0; // small number per thread, in order of first read
    const char *layer = "read";
};

class IoTrace {
public:
    static bool enabled() { return enabled_.load(std::memory_order_relaxed); }
    static void start();
    // Ends recording; the records in the order they were made.
    static std::vector<TraceRecord> stop();
    static QStringList files();
    static void record(const QString &file, uint64_t offset, uint64_t length);
    // Nanoseconds since start() (for reads recorded elsewhere: a worker process's).
    static int64_t elapsedNs();
    // A read another process recorded, its time already on this trace's clock; `layer` is copied.
    static void recordFrom(const QString &file, uint64_t offset, uint64_t length, int64_t tNs, int thread, const QByteArray &layer);

private:
    static std::atomic<bool> enabled_;
};

// Names the layer for the reads this thread makes while it lives; scopes nest, the innermost
// names the read. `name` must outlive the trace (a string literal).
class TraceLayer {
public:
    explicit TraceLayer(const char *name);
    ~TraceLayer();
    TraceLayer(const TraceLayer &) = delete;
    TraceLayer &operator=(const TraceLayer &) = delete;

private:
    const char *outer_;
};

} // namespace asc
