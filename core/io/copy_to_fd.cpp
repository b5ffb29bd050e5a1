#include "copy_to_fd.h"

#include <cerrno>
#include <memory>
#include <sys/sendfile.h>
#include <unistd.h>

namespace asc {

static constexpr size_t kChunk = 1 << 20;
static constexpr size_t kKernelChunk = 64 << 20;

Result<CopyOutcome> copyToFd(const ByteSource &source, int fd, const QString &fdName, const CancelFlag &cancel)
{
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
        for (size_t done = 0; done < *got;) {
            const ssize_t n = ::write(fd, buffer.get() + done, *got - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno == EPIPE) {
                outcome.readerGone = true;
                return outcome;
            }
            if (n < 0)
                return Error::system(fdName, QStringLiteral("write"), errno);
            done += size_t(n);
        }
        outcome.bytes += *got;
    }
    return outcome;
}

} // namespace asc
