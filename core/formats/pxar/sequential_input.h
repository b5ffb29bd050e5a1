// SPDX-License-Identifier: MIT
#pragma once
// What the pxar decoder reads from: a front-to-back input. The same decoder runs over a
// synchronous buffered stream or over an asynchronous read-ahead stream (io_uring with several
// reads in flight while the decoder parses), so there is one parser driven two ways.

#include "io/async_reader.h"
#include "io/buffered_stream.h"

#include <memory>
#include <vector>

namespace asc::pxar {

class SequentialInput {
public:
    virtual ~SequentialInput() = default;
    virtual Result<void> readExact(std::span<char> out) = 0;
    virtual Result<size_t> read(std::span<char> out) = 0;
    virtual Result<void> skip(uint64_t n) = 0;
    // Up to `max` bytes as a view into the input's own buffer (no copy), consumed; valid until
    // the next call; empty at the end.
    virtual Result<std::span<const char>> readView(size_t max) = 0;
    virtual uint64_t position() const = 0;
    virtual uint64_t size() const = 0;
    virtual QString name() const = 0;
    virtual uint64_t sourceReads() const = 0;
};

// Blocking reads through the consumer-side buffered stream (capacity 0 = unbuffered).
class SyncInput final : public SequentialInput {
public:
    SyncInput(SourcePtr source, size_t capacity, uint64_t start = 0)
        : stream_(std::move(source), capacity, start) {}
    Result<void> readExact(std::span<char> out) override { return stream_.readExact(out); }
    Result<size_t> read(std::span<char> out) override { return stream_.read(out); }
    Result<void> skip(uint64_t n) override { return stream_.skip(n); }
    Result<std::span<const char>> readView(size_t max) override { return stream_.readView(max); }
    uint64_t position() const override { return stream_.position(); }
    uint64_t size() const override { return stream_.size(); }
    QString name() const override { return stream_.source()->name(); }
    uint64_t sourceReads() const override { return stream_.sourceReads(); }

private:
    BufferedStream stream_;
};

// Read-ahead over an AsyncReader: `depth` chunks of `capacity` bytes are kept in flight ahead of
// the parser, consumed in order. Capacity 0 makes every read its own asynchronous read (awaited
// at once), which is what an unbuffered async reader costs.
class ReadAheadInput final : public SequentialInput {
public:
    // Reads go to the other core as useOtherCore() decides; `otherCore` false keeps them inline: for a second input beside one
    // that already uses the other core (the metadata half of a split archive).
    static Result<std::unique_ptr<ReadAheadInput>> create(SourcePtr source, size_t capacity, int depth, uint64_t start = 0,
                                                          bool otherCore = true);
    ~ReadAheadInput() override;
    Result<void> readExact(std::span<char> out) override;
    Result<size_t> read(std::span<char> out) override;
    Result<void> skip(uint64_t n) override;
    Result<std::span<const char>> readView(size_t max) override;
    uint64_t position() const override { return position_; }
    uint64_t size() const override { return source_->size(); }
    QString name() const override { return source_->name(); }
    uint64_t sourceReads() const override { return reads_; }

private:
    std::vector<char> scratch_; // unbuffered views
    struct Chunk {
        char *bytes = nullptr; // capacity bytes of memory_
        uint64_t offset = 0;
        size_t length = 0;
        bool done = false;
        std::optional<Error> error;
    };
    ReadAheadInput(SourcePtr source, std::unique_ptr<AsyncReader> reader, size_t capacity, int depth, uint64_t start);
    void submit(Chunk &chunk, uint64_t offset);
    void restartAt(uint64_t offset);
    Result<Chunk *> current();

    SourcePtr source_;
    std::unique_ptr<AsyncReader> reader_;
    size_t capacity_;
    std::vector<Chunk> chunks_;
    std::unique_ptr<char[]> memory_; // every chunk's bytes; not zero-filled (the kernel writes them)
    size_t head_ = 0; // chunk holding position_
    uint64_t nextSubmit_ = 0; // offset of the next chunk to submit
    uint64_t position_;
    uint64_t reads_ = 0;
};

} // namespace asc::pxar
