// SPDX-License-Identifier: MIT
#include "copy_to_fd.h"

#include "io/trace.h"

#include <QThread>
#include <atomic>
#include <cstring>
#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace asc {

// A kernel copy reads the file as surely as a pread does: the trace records it, in a layer of
// its own (a `cat` of a plain file is one sendfile after another, not a read call).
static void traceKernelCopy(const FileExtent &extent, uint64_t length)
{
    if (!IoTrace::enabled())
        return;
    const TraceLayer layer("kernel copy");
    IoTrace::record(extent.file, extent.fileOffset, length);
}

namespace {

constexpr size_t kChunk = 1 << 20;
constexpr size_t kKernelChunk = 64 << 20;
constexpr uint64_t kSegment = 32ULL << 20; // work unit of the parallel file copy
constexpr uint64_t kMinHole = 4096; // shorter zero runs are written, not skipped

Result<size_t> writeAll(int fd, const char *data, size_t size, std::optional<uint64_t> at, const QString &fdName)
{
    size_t done = 0;
    while (done < size) {
        const ssize_t n = at ? ::pwrite(fd, data + done, size - done, off_t(*at + done)) : ::write(fd, data + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error::system(fdName, at ? QStringLiteral("pwrite") : QStringLiteral("write"), errno);
        done += size_t(n);
    }
    return done;
}

bool allZero(const char *data, size_t size)
{
    // Word-wise OR: the compiler vectorises it; zero blocks are rare enough that an early exit
    // on the first word usually ends the test at once.
    uint64_t acc = 0;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t word;
        memcpy(&word, data + i, 8);
        acc |= word;
        if ((i & 511) == 0 && acc)
            return false;
    }
    for (; i < size; ++i)
        acc |= uint8_t(data[i]);
    return acc == 0;
}

// Copies [from, to) of the source to the same offsets (plus `base`) of a regular file: holes are
// skipped (the file was truncated to size first), file-backed runs go kernel to kernel.
Result<void> copyRange(const ByteSource &source, int fd, uint64_t base, uint64_t from, uint64_t to, const QString &fdName,
                       const CancelFlag &cancel, std::vector<char> &buffer)
{
    bool kernelCopy = true;
    for (uint64_t at = from; at < to;) {
        if (cancel.isCancelled())
            return Error::cancelled();
        const uint64_t zeros = source.zeroRun(at);
        if (zeros >= kMinHole) {
            at += std::min(zeros, to - at);
            continue;
        }
        const auto extent = kernelCopy ? source.fileExtent(at) : std::nullopt;
        if (extent) {
            loff_t in = loff_t(extent->fileOffset);
            loff_t out = loff_t(base + at);
            const size_t want = size_t(std::min<uint64_t>({extent->length, to - at, kKernelChunk}));
            const ssize_t n = ::copy_file_range(extent->fd, &in, fd, &out, want, 0);
            if (n > 0) {
                traceKernelCopy(*extent, uint64_t(n));
                at += uint64_t(n);
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            kernelCopy = false; // across filesystems on older kernels, or unsupported: copy ourselves
            continue;
        }
        const size_t want = size_t(std::min<uint64_t>(buffer.size(), to - at));
        auto got = source.readAt(at, std::span(buffer.data(), want));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return Error::format(source.name(), at, QStringLiteral("source ended early"));
        auto written = writeSparse(fd, buffer.data(), *got, base + at, fdName);
        if (!written)
            return std::move(written).error();
        at += *got;
    }
    return {};
}

Result<CopyOutcome> copyToRegularFile(const ByteSource &source, int fd, uint64_t base, const QString &fdName, const CancelFlag &cancel)
{
    const uint64_t size = source.size();
    if (::ftruncate(fd, off_t(base + size)) != 0)
        return Error::system(fdName, QStringLiteral("ftruncate"), errno);
    // Segments handed to a few threads: decompression and copying overlap across cores.
    const unsigned threads = unsigned(std::clamp(QThread::idealThreadCount(), 1, 8));
    std::atomic<uint64_t> next{0};
    std::mutex mutex;
    std::optional<Error> failure;
    CancelFlag stop;
    auto work = [&] {
        std::vector<char> buffer(kChunk);
        for (;;) {
            if (cancel.isCancelled())
                stop.cancel();
            const uint64_t from = next.fetch_add(kSegment);
            if (from >= size || stop.isCancelled())
                return;
            auto copied = copyRange(source, fd, base, from, std::min(size, from + kSegment), fdName, stop, buffer);
            if (!copied) {
                std::lock_guard lock(mutex);
                if (!failure)
                    failure = copied.error();
                stop.cancel();
                return;
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads && uint64_t(i) * kSegment < size; ++i)
        pool.emplace_back(work);
    work();
    for (auto &t : pool)
        t.join();
    if (failure)
        return *failure;
    if (cancel.isCancelled())
        return Error::cancelled();
    ::lseek(fd, off_t(base + size), SEEK_SET); // as if written sequentially
    CopyOutcome outcome;
    outcome.bytes = size;
    return outcome;
}

} // namespace

// Writes `data` at `at` of a file already truncated to its final size, leaving whole zero blocks
// of kMinHole bytes (aligned in the output) as holes, as `qemu-img convert` and
// `cp --sparse=always` do: allocated image blocks often hold free filesystem space.
Result<size_t> writeSparse(int fd, const char *data, size_t size, uint64_t at, const QString &fdName)
{
    size_t done = 0;
    while (done < size) {
        // The block containing position done, cut at the next kMinHole boundary of the output.
        const uint64_t pos = at + done;
        const size_t block = size_t(std::min<uint64_t>(kMinHole - pos % kMinHole, size - done));
        if (block == kMinHole && allZero(data + done, block)) {
            done += block;
            continue;
        }
        // A run of blocks up to the next whole zero block.
        size_t end = done + block;
        while (end < size) {
            const size_t next = std::min<size_t>(kMinHole, size - end);
            if (next == kMinHole && allZero(data + end, next))
                break;
            end += next;
        }
        auto written = writeAll(fd, data + done, end - done, pos, fdName);
        if (!written)
            return written;
        done = end;
    }
    return done;
}

Result<CopyOutcome> copyToFd(const ByteSource &source, int fd, const QString &fdName, const CancelFlag &cancel)
{
    // A regular file we may write at offsets (not opened for appending): sparse and parallel.
    struct stat st {};
    const int flags = ::fcntl(fd, F_GETFL);
    const off_t position = ::lseek(fd, 0, SEEK_CUR);
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flags >= 0 && !(flags & O_APPEND) && position >= 0 &&
        uint64_t(st.st_size) <= uint64_t(position))
        return copyToRegularFile(source, fd, uint64_t(position), fdName, cancel);

    CopyOutcome outcome;
    const uint64_t size = source.size();
    bool kernelCopy = true;
    std::unique_ptr<char[]> buffer;
    while (outcome.bytes < size) {
        if (cancel.isCancelled())
            return Error::cancelled();
        const auto extent = kernelCopy ? source.fileExtent(outcome.bytes) : std::nullopt;
        if (extent) {
            off_t from = off_t(extent->fileOffset);
            const size_t want = size_t(std::min<uint64_t>({extent->length, size - outcome.bytes, kKernelChunk}));
            const ssize_t n = ::sendfile(fd, extent->fd, &from, want);
            if (n > 0) {
                traceKernelCopy(*extent, uint64_t(n));
                outcome.bytes += uint64_t(n);
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno == EPIPE) {
                outcome.readerGone = true;
                return outcome;
            }
            if (n < 0 && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
                return Error::system(fdName, QStringLiteral("sendfile"), errno, outcome.bytes);
            kernelCopy = false; // the output does not take sendfile (e.g. a terminal): copy ourselves
            continue;
        }
        if (!buffer)
            buffer.reset(new char[kChunk]);
        auto got = source.readAt(outcome.bytes, std::span(buffer.get(), kChunk));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            break;
        auto written = writeAll(fd, buffer.get(), *got, std::nullopt, fdName);
        if (!written) {
            if (written.error().errnum == EPIPE) {
                outcome.readerGone = true;
                return outcome;
            }
            return std::move(written).error();
        }
        outcome.bytes += *got;
    }
    return outcome;
}

} // namespace asc
