// SPDX-License-Identifier: MIT
#include "copy_strategy.h"

#include "io/scratch_file.h"

#include <functional>
#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

namespace asc {

namespace {

class CopyStrategy final : public ReadStrategy {
public:
    explicit CopyStrategy(bool fsync)
        : fsync_(fsync) {}
    QString name() const override { return fsync_ ? QStringLiteral("copy-fsync") : QStringLiteral("copy"); }
    QString description() const override
    {
        return fsync_ ? QStringLiteral("copy the target to a file in --output-dir, N bytes per read and write, fsync at the end")
                      : QStringLiteral("copy the target to a file in --output-dir, N bytes per read and write (extract throughput)");
    }
    QString group() const override { return QStringLiteral("write"); }
    QString notApplicable(const ReadTarget &target) const override
    {
        return target.outputDir.isEmpty() ? QStringLiteral("not applicable: needs --output-dir DIR to write the copy") : QString();
    }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel, const ByteConsumer &consume) const override
    {
        auto scratch = createScratchFile(target.outputDir);
        if (!scratch)
            return std::move(scratch).error();
        // The copy never outlives the run: a scratch file is gone once closed.
        const int fd = *scratch;
        const QString path = target.outputDir;
        std::unique_ptr<void, std::function<void(void *)>> guard(reinterpret_cast<void *>(1), [fd](void *) { ::close(fd); });
        std::unique_ptr<char[]> bytes(new char[buffer]);
        ReadOutcome outcome;
        uint64_t writes = 0;
        for (;;) {
            if (cancel.isCancelled())
                return Error::cancelled();
            auto got = target.source->readAt(outcome.bytes, std::span(bytes.get(), buffer));
            ++outcome.syscalls;
            if (!got)
                return std::move(got).error();
            if (*got == 0)
                break;
            for (size_t done = 0; done < *got;) {
                const ssize_t n = ::write(fd, bytes.get() + done, *got - done);
                ++writes;
                if (n < 0 && errno == EINTR)
                    continue;
                if (n < 0)
                    return Error::system(path, QStringLiteral("write"), errno);
                done += size_t(n);
            }
            if (consume)
                consume(std::span<const char>(bytes.get(), *got));
            outcome.bytes += *got;
        }
        if (fsync_ && ::fsync(fd) != 0)
            return Error::system(path, QStringLiteral("fsync"), errno);
        outcome.syscalls += writes;
        outcome.note = QStringLiteral("%1 writes of up to %2 bytes").arg(writes).arg(buffer);
        return outcome;
    }

private:
    bool fsync_;
};

} // namespace

StrategyPtr makeCopyStrategy(bool fsyncAtEnd)
{
    return std::make_shared<CopyStrategy>(fsyncAtEnd);
}

} // namespace asc
