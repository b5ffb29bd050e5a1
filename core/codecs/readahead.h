// SPDX-License-Identifier: MIT
#pragma once
// Decompression ahead of parsing: a thread fills a few large blocks from a stream while the
// caller parses the previous ones (libarchive reads them in place: no copy). Bounded: at most
// `blocks` blocks exist. The first blocks are read on the caller's thread and the thread starts
// only after them, so probing a file (which reads one block or two) decodes nothing ahead. With
// `threaded` false every block is read on the caller's thread (small inputs, where a thread
// costs more than it saves).

#include "byte_stream.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace asc {

class Readahead {
public:
    Readahead(StreamPtr stream, bool threaded, size_t blockSize = size_t(1) << 20, int blocks = 4);
    ~Readahead();
    Readahead(const Readahead &) = delete;
    Readahead &operator=(const Readahead &) = delete;

    // The next block of the stream, valid until the next call; empty at the end.
    Result<std::span<const char>> next();
    // File bytes consumed by the producer so far (ahead of what next() returned).
    uint64_t consumed() const;

private:
    // A block's storage, left uninitialised: a reader is opened per nested file (a probe, then
    // the open), and zeroing a megabyte each time cost more than decoding small files.
    struct Storage {
        std::unique_ptr<char[]> bytes;
        size_t length = 0;
        char *data() { return bytes.get(); }
        size_t size() const { return length; }
        void resize(size_t n)
        {
            if (n != length) {
                bytes.reset(new char[n]);
                length = n;
            }
        }
    };
    struct Block {
        Storage bytes;
        size_t size = 0;
        std::optional<Error> error;
    };
    void produce();
    Result<std::span<const char>> readHere(); // a block on the caller's thread
    static constexpr int kBlocksBeforeThread = 2;

    StreamPtr stream_;
    const bool threaded_;
    std::vector<Block> storage_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Block *> free_;
    std::deque<Block *> filled_;
    Block *lent_ = nullptr;
    int blocksRead_ = 0; // on the caller's thread, before the producer started
    size_t blockSize_;
    bool stop_ = false;
    bool producerDone_ = false;
    std::atomic<uint64_t> consumed_{0};
    std::thread thread_;
};

} // namespace asc
