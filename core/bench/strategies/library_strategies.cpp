// SPDX-License-Identifier: MIT
#include "library_strategies.h"

#include "io/byte_text.h"
#include "io/file_source.h"
#include "sandbox/proc_io.h"

#include <QFile>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace asc {

namespace {

// Consumers of stdio typically read small records; 4 KiB is what the framed cases use.
constexpr size_t kConsumerRead = 4096;

QString plainFileOnly(const ReadTarget &target)
{
    return target.filePath.isEmpty() ? QStringLiteral("not applicable: needs a plain file, the target is inside a container")
                                     : QString();
}

// Read-type system calls this thread made while `body` ran (0 where /proc has no io file).
template <class Body>
auto countingThreadSyscalls(Body body) -> decltype(body())
{
    const auto before = readProcIo(ProcIoScope::Thread);
    auto outcome = body();
    const auto after = readProcIo(ProcIoScope::Thread);
    if (outcome && before && after)
        outcome->syscalls = after->syscr - before->syscr;
    return outcome;
}

class StdioStrategy final : public ReadStrategy {
public:
    explicit StdioStrategy(bool defaultBuffer)
        : defaultBuffer_(defaultBuffer) {}
    QString name() const override { return defaultBuffer_ ? QStringLiteral("stdio-default") : QStringLiteral("stdio"); }
    QString description() const override
    {
        return defaultBuffer_ ? QStringLiteral("fread of 4 KiB records with libc's default buffer (ignores N: shows the hidden size)")
                              : QStringLiteral("fread of 4 KiB records through a setvbuf buffer of N bytes");
    }
    QString group() const override { return QStringLiteral("plain file"); }
    QString notApplicable(const ReadTarget &target) const override { return plainFileOnly(target); }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        // Opened before counting: in a sandboxed worker, opening is a request to the parent,
        // and its reply would count as a read.
        const int fd = openReadOnly(nativePath(target.filePath));
        if (fd < 0)
            return Error::system(target.filePath, QStringLiteral("open"), -fd);
        return countingThreadSyscalls([&]() -> Result<ReadOutcome> {
            FILE *f = ::fdopen(fd, "rb");
            if (!f) {
                const int err = errno;
                ::close(fd);
                return Error::system(target.filePath, QStringLiteral("fdopen"), err);
            }
            std::unique_ptr<FILE, decltype(&std::fclose)> file(f, &std::fclose);
            std::unique_ptr<char[]> streamBuffer;
            if (!defaultBuffer_) {
                streamBuffer.reset(new char[buffer]);
                std::setvbuf(f, streamBuffer.get(), _IOFBF, buffer);
            }
            char record[kConsumerRead];
            ReadOutcome outcome;
            for (;;) {
                if (cancel.isCancelled())
                    return Error::cancelled();
                const size_t n = std::fread(record, 1, sizeof record, f);
                if (n == 0) {
                    if (std::ferror(f))
                        return Error::system(target.filePath, QStringLiteral("fread"), errno, outcome.bytes);
                    break;
                }
                if (consume)
                    consume(std::span<const char>(record, n));
                outcome.bytes += n;
            }
            file.reset(); // fclose before the buffer it uses goes away
            return outcome;
        });
    }

private:
    bool defaultBuffer_;
};

class QFileStrategy final : public ReadStrategy {
public:
    QString name() const override { return QStringLiteral("qfile"); }
    QString description() const override { return QStringLiteral("QFile::read of N bytes (QIODevice with its own buffering)"); }
    QString group() const override { return QStringLiteral("plain file"); }
    QString notApplicable(const ReadTarget &target) const override { return plainFileOnly(target); }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        const int fd = openReadOnly(nativePath(target.filePath)); // before counting, as for stdio
        if (fd < 0)
            return Error::system(target.filePath, QStringLiteral("open"), -fd);
        return countingThreadSyscalls([&]() -> Result<ReadOutcome> {
            QFile file;
            if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
                ::close(fd);
                return Error::make(ErrorKind::System, target.filePath, file.errorString());
            }
            std::unique_ptr<char[]> bytes(new char[buffer]);
            ReadOutcome outcome;
            for (;;) {
                if (cancel.isCancelled())
                    return Error::cancelled();
                const qint64 n = file.read(bytes.get(), qint64(buffer));
                if (n < 0)
                    return Error::make(ErrorKind::System, target.filePath, file.errorString(), outcome.bytes);
                if (n == 0)
                    break;
                if (consume)
                    consume(std::span<const char>(bytes.get(), size_t(n)));
                outcome.bytes += uint64_t(n);
            }
            return outcome;
        });
    }
};

} // namespace

StrategyPtr makeStdioStrategy()
{
    return std::make_shared<StdioStrategy>(false);
}
StrategyPtr makeStdioDefaultStrategy()
{
    return std::make_shared<StdioStrategy>(true);
}
StrategyPtr makeQFileStrategy()
{
    return std::make_shared<QFileStrategy>();
}

} // namespace asc
