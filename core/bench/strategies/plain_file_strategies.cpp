// SPDX-License-Identifier: MIT
#include "plain_file_strategies.h"

#include "io/file_source.h"

#include "io/byte_text.h"
#include "io/trace.h"

#include "file_descriptor.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/mman.h>
#include <vector>

namespace asc {

namespace {

QString plainFileOnly(const ReadTarget &target)
{
    return target.filePath.isEmpty() ? QStringLiteral("not applicable: needs a plain file, the target is inside a container")
                                     : QString();
}

Result<int> openTarget(const ReadTarget &target, int extraFlags)
{
    const int fd = openReadOnly(nativePath(target.filePath), extraFlags);
    if (fd < 0)
        return Error::system(target.filePath, QStringLiteral("open"), -fd);
    return fd;
}

// The loop every read(2)-style strategy shares: one call per buffer, continue on EINTR.
template <class ReadCall>
Result<ReadOutcome> readLoop(const ReadTarget &target, char *buffer, size_t size, const CancelFlag &cancel,
                             const ByteConsumer &consume, ReadCall call)
{
    ReadOutcome outcome;
    for (;;) {
        if (cancel.isCancelled())
            return Error::cancelled();
        const ssize_t n = call(buffer, size, outcome.bytes);
        ++outcome.syscalls;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Error::system(target.filePath, QStringLiteral("read"), errno, outcome.bytes);
        }
        if (n == 0)
            return outcome;
        // These reads bypass our sources: the trace hears of them here (Trace I/O of a point).
        if (IoTrace::enabled())
            IoTrace::record(target.filePath, outcome.bytes, uint64_t(n));
        if (consume)
            consume(std::span<const char>(buffer, size_t(n)));
        outcome.bytes += uint64_t(n);
    }
}

class ReadCallStrategy final : public ReadStrategy {
public:
    enum class Kind { Read,
                      Pread,
                      Fadvise };
    explicit ReadCallStrategy(Kind kind)
        : kind_(kind) {}
    QString name() const override
    {
        switch (kind_) {
        case Kind::Read: return QStringLiteral("read");
        case Kind::Pread: return QStringLiteral("pread");
        case Kind::Fadvise: return QStringLiteral("fadvise-seq");
        }
        return {};
    }
    QString description() const override
    {
        switch (kind_) {
        case Kind::Read: return QStringLiteral("read(2) into a buffer of N bytes");
        case Kind::Pread: return QStringLiteral("pread(2) of N bytes at increasing offsets");
        case Kind::Fadvise: return QStringLiteral("read(2) of N bytes after POSIX_FADV_SEQUENTIAL, with readahead(2) hints 8 MiB ahead");
        }
        return {};
    }
    QString group() const override { return QStringLiteral("plain file"); }
    QString notApplicable(const ReadTarget &target) const override { return plainFileOnly(target); }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        auto fd = openTarget(target, 0);
        if (!fd)
            return std::move(fd).error();
        FileDescriptor file(*fd);
        std::unique_ptr<char[]> bytes(new char[buffer]);
        if (kind_ == Kind::Pread)
            return readLoop(target, bytes.get(), buffer, cancel, consume,
                            [&](char *b, size_t n, uint64_t at) { return ::pread(file.get(), b, n, off_t(at)); });
        uint64_t hints = 0;
        uint64_t hintedUpTo = 0;
        constexpr uint64_t kWindow = 8 << 20;
        if (kind_ == Kind::Fadvise) {
            ::posix_fadvise(file.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
            ++hints;
        }
        auto outcome = readLoop(target, bytes.get(), buffer, cancel, consume, [&](char *b, size_t n, uint64_t at) {
            if (kind_ == Kind::Fadvise && at + kWindow > hintedUpTo) {
                ::readahead(file.get(), off_t(hintedUpTo), kWindow);
                hintedUpTo += kWindow;
                ++hints;
            }
            return ::read(file.get(), b, n);
        });
        if (outcome)
            outcome->syscalls += hints;
        return outcome;
    }

private:
    Kind kind_;
};

class DirectStrategy final : public ReadStrategy {
public:
    QString name() const override { return QStringLiteral("direct"); }
    QString description() const override { return QStringLiteral("O_DIRECT read(2) of N bytes (rounded up to 4 KiB) into an aligned buffer, bypassing the page cache"); }
    QString group() const override { return QStringLiteral("plain file"); }
    QString notApplicable(const ReadTarget &target) const override { return plainFileOnly(target); }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        constexpr size_t kAlign = 4096;
        const size_t size = (buffer + kAlign - 1) / kAlign * kAlign;
        QString note;
        auto fd = openTarget(target, O_DIRECT);
        if (!fd && fd.error().errnum == EINVAL) {
            note = QStringLiteral("the filesystem refuses O_DIRECT: fell back to buffered reads");
            fd = openTarget(target, 0);
        }
        if (!fd)
            return std::move(fd).error();
        FileDescriptor file(*fd);
        void *raw = nullptr;
        if (::posix_memalign(&raw, kAlign, size) != 0)
            return Error::system(target.filePath, QStringLiteral("allocate aligned buffer"), ENOMEM);
        std::unique_ptr<char, decltype(&std::free)> bytes(static_cast<char *>(raw), &std::free);
        auto outcome = readLoop(target, bytes.get(), size, cancel, consume,
                                [&](char *b, size_t n, uint64_t) { return ::read(file.get(), b, n); });
        if (outcome)
            outcome->note = note;
        return outcome;
    }
};

class MmapStrategy final : public ReadStrategy {
public:
    QString name() const override { return QStringLiteral("mmap"); }
    QString description() const override { return QStringLiteral("mmap(2) the file and copy it out in N-byte steps"); }
    QString group() const override { return QStringLiteral("plain file"); }
    QString notApplicable(const ReadTarget &target) const override { return plainFileOnly(target); }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        auto fd = openTarget(target, 0);
        if (!fd)
            return std::move(fd).error();
        FileDescriptor file(*fd);
        const uint64_t size = target.source->size();
        ReadOutcome outcome;
        if (size == 0)
            return outcome;
        void *map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, file.get(), 0);
        if (map == MAP_FAILED)
            return Error::system(target.filePath, QStringLiteral("mmap"), errno);
        // Tell the kernel we read front to back: larger fault-around and read-ahead, as fio does.
        ::madvise(map, size, MADV_SEQUENTIAL);
        outcome.syscalls = 3; // mmap + madvise + munmap
        std::unique_ptr<char[]> bytes(new char[buffer]);
        const char *base = static_cast<const char *>(map);
        for (uint64_t at = 0; at < size; at += buffer) {
            if (cancel.isCancelled()) {
                ::munmap(map, size);
                return Error::cancelled();
            }
            const size_t n = size_t(std::min<uint64_t>(buffer, size - at));
            std::memcpy(bytes.get(), base + at, n);
            if (IoTrace::enabled()) {
                const TraceLayer layer("mmap copy");
                IoTrace::record(target.filePath, at, n);
            }
            if (consume)
                consume(std::span<const char>(bytes.get(), n));
            outcome.bytes += n;
        }
        ::munmap(map, size);
        return outcome;
    }
};

} // namespace

StrategyPtr makeReadStrategy()
{
    return std::make_shared<ReadCallStrategy>(ReadCallStrategy::Kind::Read);
}
StrategyPtr makePreadStrategy()
{
    return std::make_shared<ReadCallStrategy>(ReadCallStrategy::Kind::Pread);
}
StrategyPtr makeFadviseStrategy()
{
    return std::make_shared<ReadCallStrategy>(ReadCallStrategy::Kind::Fadvise);
}
StrategyPtr makeDirectStrategy()
{
    return std::make_shared<DirectStrategy>();
}
StrategyPtr makeMmapStrategy()
{
    return std::make_shared<MmapStrategy>();
}

} // namespace asc
