// SPDX-License-Identifier: MIT
#include "write_strategy.h"

#include "sandbox/proc_io.h"

#include <QRandomGenerator>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace asc {

namespace {

// Opens where the payload goes: the target itself, or a temporary name for an atomic replace.
struct Destination {
    int fd = -1;
    QByteArray name; // what was opened
    QByteArray target;
};

Result<Destination> openDestination(const WriteJob &job, int extraFlags, bool readWrite = false)
{
    Destination d;
    d.target = job.fileName;
    d.name = job.atomic ? ".asc-tmp-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36) + "-" + job.fileName : job.fileName;
    d.fd = ::openat(job.dirfd, d.name.constData(), (readWrite ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC | O_CLOEXEC | extraFlags, 0644);
    if (d.fd < 0)
        return Error::system(job.dirName + QLatin1Char('/') + QString::fromUtf8(d.name), QStringLiteral("open for writing"), errno);
    return d;
}

// fsync, close, and for an atomic replace rename over the target and fsync the directory.
Result<void> finish(const WriteJob &job, Destination &d)
{
    const QString path = job.dirName + QLatin1Char('/') + QString::fromUtf8(d.name);
    if ((job.fsync || job.atomic) && ::fsync(d.fd) != 0) {
        const int err = errno;
        ::close(d.fd);
        return Error::system(path, QStringLiteral("fsync"), err);
    }
    if (::close(d.fd) != 0)
        return Error::system(path, QStringLiteral("close"), errno);
    d.fd = -1;
    if (job.atomic) {
        if (::renameat(job.dirfd, d.name.constData(), job.dirfd, d.target.constData()) != 0) {
            const int err = errno;
            ::unlinkat(job.dirfd, d.name.constData(), 0);
            return Error::system(path, QStringLiteral("rename into place"), err);
        }
        if (::fsync(job.dirfd) != 0)
            return Error::system(job.dirName, QStringLiteral("fsync directory"), errno);
    }
    return {};
}

void abandon(const WriteJob &job, Destination &d)
{
    if (d.fd >= 0)
        ::close(d.fd);
    if (job.atomic)
        ::unlinkat(job.dirfd, d.name.constData(), 0);
}

Result<void> writeAll(const WriteJob &job, int fd, const char *data, size_t size, WriteOutcome &o)
{
    for (size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd, data + done, size - done);
        ++o.writeCalls;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error::system(job.dirName, QStringLiteral("write"), errno);
        o.bytesToWriteCalls += size_t(n);
        done += size_t(n);
    }
    return {};
}

class ChunkedWrite final : public WriteStrategy {
public:
    QString name() const override { return QStringLiteral("write-N"); }
    QString description() const override { return QStringLiteral("write(2) in N-byte chunks"); }
    Result<WriteOutcome> write(const WriteJob &job, const CancelFlag &cancel) const override
    {
        auto d = openDestination(job, 0);
        if (!d)
            return std::move(d).error();
        WriteOutcome o;
        for (size_t at = 0; at < job.size; at += job.buffer) {
            if (cancel.isCancelled()) {
                abandon(job, *d);
                return Error::cancelled();
            }
            if (auto ok = writeAll(job, d->fd, job.payload + at, std::min(job.buffer, job.size - at), o); !ok) {
                abandon(job, *d);
                return std::move(ok).error();
            }
        }
        if (auto ok = finish(job, *d); !ok)
            return std::move(ok).error();
        return o;
    }
};

class SingleWrite final : public WriteStrategy {
public:
    QString name() const override { return QStringLiteral("single-write"); }
    QString description() const override { return QStringLiteral("one write(2) of the whole payload (looping only on short writes)"); }
    bool usesBuffer() const override { return false; }
    Result<WriteOutcome> write(const WriteJob &job, const CancelFlag &) const override
    {
        auto d = openDestination(job, 0);
        if (!d)
            return std::move(d).error();
        WriteOutcome o;
        if (auto ok = writeAll(job, d->fd, job.payload, job.size, o); !ok) {
            abandon(job, *d);
            return std::move(ok).error();
        }
        if (auto ok = finish(job, *d); !ok)
            return std::move(ok).error();
        return o;
    }
};

class GatheredWrite final : public WriteStrategy {
public:
    QString name() const override { return QStringLiteral("pwritev"); }
    QString description() const override { return QStringLiteral("pwritev(2) of N-byte pieces, up to IOV_MAX per call"); }
    Result<WriteOutcome> write(const WriteJob &job, const CancelFlag &) const override
    {
        auto d = openDestination(job, 0);
        if (!d)
            return std::move(d).error();
        WriteOutcome o;
        std::vector<iovec> pieces;
        for (size_t at = 0; at < job.size; at += job.buffer)
            pieces.push_back({const_cast<char *>(job.payload + at), std::min(job.buffer, job.size - at)});
        size_t first = 0;
        uint64_t offset = 0;
        while (first < pieces.size()) {
            const int count = int(std::min<size_t>(pieces.size() - first, IOV_MAX));
            const ssize_t n = ::pwritev(d->fd, pieces.data() + first, count, off_t(offset));
            ++o.writeCalls;
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                const int err = errno;
                abandon(job, *d);
                return Error::system(job.dirName, QStringLiteral("pwritev"), err);
            }
            o.bytesToWriteCalls += size_t(n);
            offset += uint64_t(n);
            size_t left = size_t(n);
            while (left > 0 && first < pieces.size()) { // skip what was written (short writes included)
                if (left >= pieces[first].iov_len) {
                    left -= pieces[first].iov_len;
                    ++first;
                } else {
                    pieces[first].iov_base = static_cast<char *>(pieces[first].iov_base) + left;
                    pieces[first].iov_len -= left;
                    left = 0;
                }
            }
        }
        if (auto ok = finish(job, *d); !ok)
            return std::move(ok).error();
        return o;
    }
};

class StdioWrite final : public WriteStrategy {
public:
    explicit StdioWrite(bool fixed8k)
        : fixed8k_(fixed8k) {}
    QString name() const override { return fixed8k_ ? QStringLiteral("stdio-8k") : QStringLiteral("stdio-N"); }
    bool usesBuffer() const override { return !fixed8k_; }
    QString description() const override
    {
        return fixed8k_ ? QStringLiteral("fwrite of 1 KiB records through an 8 KiB stdio buffer (the common default)")
                        : QStringLiteral("fwrite of 1 KiB records through a setvbuf buffer of N bytes");
    }
    Result<WriteOutcome> write(const WriteJob &job, const CancelFlag &) const override
    {
        auto d = openDestination(job, 0);
        if (!d)
            return std::move(d).error();
        const auto before = readProcIo(ProcIoScope::Thread);
        FILE *f = ::fdopen(d->fd, "w");
        if (!f) {
            abandon(job, *d);
            return Error::system(job.dirName, QStringLiteral("fdopen"), errno);
        }
        const size_t bufferSize = fixed8k_ ? 8192 : job.buffer;
        std::unique_ptr<char[]> buffer(new char[bufferSize]);
        std::setvbuf(f, buffer.get(), _IOFBF, bufferSize);
        for (size_t at = 0; at < job.size; at += 1024)
            std::fwrite(job.payload + at, 1, std::min<size_t>(1024, job.size - at), f);
        const bool failed = std::fflush(f) != 0;
        const auto after = readProcIo(ProcIoScope::Thread);
        // fdopen took the fd: sync through it, then fclose closes it.
        if (!failed && (job.fsync || job.atomic))
            ::fsync(::fileno(f));
        std::fclose(f);
        d->fd = -1;
        if (failed) {
            abandon(job, *d);
            return Error::system(job.dirName, QStringLiteral("fwrite"), errno);
        }
        WriteOutcome o;
        if (before && after) {
            o.writeCalls = after->syscw - before->syscw;
            o.bytesToWriteCalls = after->wchar - before->wchar;
        }
        if (job.atomic) {
            if (::renameat(job.dirfd, d->name.constData(), job.dirfd, d->target.constData()) != 0)
                return Error::system(job.dirName, QStringLiteral("rename into place"), errno);
            ::fsync(job.dirfd);
        }
        return o;
    }

private:
    bool fixed8k_;
};

class MmapWrite final : public WriteStrategy {
public:
    QString name() const override { return QStringLiteral("mmap-write"); }
    QString description() const override { return QStringLiteral("ftruncate, mmap(2), copy the payload in N-byte steps, msync"); }
    Result<WriteOutcome> write(const WriteJob &job, const CancelFlag &) const override
    {
        auto d = openDestination(job, 0, true); // a shared writable mapping needs read access too
        if (!d)
            return std::move(d).error();
        WriteOutcome o;
        if (job.size > 0) {
            if (::ftruncate(d->fd, off_t(job.size)) != 0) {
                abandon(job, *d);
                return Error::system(job.dirName, QStringLiteral("ftruncate"), errno);
            }
            void *map = ::mmap(nullptr, job.size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, 0);
            if (map == MAP_FAILED) {
                const int err = errno;
                abandon(job, *d);
                return Error::system(job.dirName, QStringLiteral("mmap"), err);
            }
            for (size_t at = 0; at < job.size; at += job.buffer)
                std::memcpy(static_cast<char *>(map) + at, job.payload + at, std::min(job.buffer, job.size - at));
            if (job.fsync || job.atomic)
                ::msync(map, job.size, MS_SYNC);
            ::munmap(map, job.size);
            o.note = QStringLiteral("no write calls: pages are dirtied through the mapping");
        }
        if (auto ok = finish(job, *d); !ok)
            return std::move(ok).error();
        return o;
    }
};

class DirectWrite final : public WriteStrategy {
public:
    QString name() const override { return QStringLiteral("direct"); }
    QString description() const override { return QStringLiteral("O_DIRECT write(2) of N bytes (4 KiB aligned) from an aligned buffer, then truncate to size"); }
    Result<WriteOutcome> write(const WriteJob &job, const CancelFlag &) const override
    {
        auto d = openDestination(job, O_DIRECT);
        QString note;
        if (!d && d.error().errnum == EINVAL) {
            note = QStringLiteral("the filesystem refuses O_DIRECT: buffered writes instead");
            d = openDestination(job, 0);
        }
        if (!d)
            return std::move(d).error();
        constexpr size_t kAlign = 4096;
        const size_t chunk = std::max(kAlign, (job.buffer + kAlign - 1) / kAlign * kAlign);
        void *raw = nullptr;
        if (::posix_memalign(&raw, kAlign, chunk) != 0) {
            abandon(job, *d);
            return Error::system(job.dirName, QStringLiteral("allocate aligned buffer"), ENOMEM);
        }
        std::unique_ptr<char, decltype(&std::free)> buffer(static_cast<char *>(raw), &std::free);
        WriteOutcome o;
        o.note = note;
        for (size_t at = 0; at < job.size; at += chunk) {
            const size_t n = std::min(chunk, job.size - at);
            std::memcpy(buffer.get(), job.payload + at, n);
            std::memset(buffer.get() + n, 0, chunk - n);
            const size_t aligned = (n + kAlign - 1) / kAlign * kAlign; // O_DIRECT writes whole blocks
            if (auto ok = writeAll(job, d->fd, buffer.get(), aligned, o); !ok) {
                abandon(job, *d);
                return std::move(ok).error();
            }
        }
        if (::ftruncate(d->fd, off_t(job.size)) != 0) {
            const int err = errno;
            abandon(job, *d);
            return Error::system(job.dirName, QStringLiteral("ftruncate"), err);
        }
        if (auto ok = finish(job, *d); !ok)
            return std::move(ok).error();
        return o;
    }
};

} // namespace

const std::vector<WriteStrategyPtr> &writeStrategies()
{
    static const std::vector<WriteStrategyPtr> all = {
        std::make_shared<StdioWrite>(true),
        std::make_shared<StdioWrite>(false),
        std::make_shared<ChunkedWrite>(),
        std::make_shared<SingleWrite>(),
        std::make_shared<GatheredWrite>(),
        std::make_shared<MmapWrite>(),
        std::make_shared<DirectWrite>(),
    };
    return all;
}

WriteStrategyPtr findWriteStrategy(const QString &name)
{
    for (const auto &s : writeStrategies())
        if (s->name() == name)
            return s;
    return nullptr;
}

} // namespace asc
