// SPDX-License-Identifier: MIT
#include "xz_stream.h"

#include "decode_pool.h"

#include "io/cancel.h"

#include <QThread>

namespace asc {

XzStream::XzStream(StreamPtr upstream, QString where, unsigned threads, size_t chunk, Container container)
    : input_(std::move(upstream), chunk),
      where_(std::move(where)),
      name_(container == Container::Lzip ? QStringLiteral("lzip") : QStringLiteral("xz"))
{
    if (container == Container::Lzip) {
        // lzip members have no blocks to spread over threads: one decoder, same memory bound.
        if (const lzma_ret rc = lzma_lzip_decoder(&stream_, kMemoryLimit, LZMA_CONCATENATED); rc != LZMA_OK)
            startError_ = Error::make(ErrorKind::System, where_, QStringLiteral("cannot start the lzip decoder (liblzma error %1)").arg(int(rc)));
        return;
    }
    lzma_mt mt{};
    mt.flags = LZMA_CONCATENATED | LZMA_TELL_UNSUPPORTED_CHECK;
    // Qt counts the CPUs this process may run on (sched_getaffinity): no file to read, so it works
    // in a worker that may not open any.
    mt.threads = threads ? threads : decodeThreads(); // liblzma's own threads, counted by our one policy
    mt.timeout = 0;
    // Above this, fewer threads; above the stop limit, an error (a hostile header asking for
    // gigabytes of dictionary).
    mt.memlimit_threading = kMemoryLimit / 2;
    mt.memlimit_stop = kMemoryLimit;
    if (const lzma_ret rc = lzma_stream_decoder_mt(&stream_, &mt); rc != LZMA_OK)
        startError_ = Error::make(ErrorKind::System, where_, QStringLiteral("cannot start the xz decoder (liblzma error %1)").arg(int(rc)));
}

XzStream::~XzStream()
{
    lzma_end(&stream_);
}

static QString lzmaText(lzma_ret rc, const QString &name)
{
    switch (rc) {
    case LZMA_FORMAT_ERROR: return QStringLiteral("not an %1 stream").arg(name);
    case LZMA_OPTIONS_ERROR: return QStringLiteral("unsupported %1 options (version or dictionary size)").arg(name);
    case LZMA_DATA_ERROR: return QStringLiteral("corrupt %1 data").arg(name);
    case LZMA_BUF_ERROR: return QStringLiteral("truncated: the file ends inside the %1 stream").arg(name);
    case LZMA_MEM_ERROR: return QStringLiteral("out of memory");
    case LZMA_MEMLIMIT_ERROR: return QStringLiteral("the stream needs more than %1 MiB of memory to decode").arg(XzStream::kMemoryLimit >> 20);
    case LZMA_UNSUPPORTED_CHECK: return QStringLiteral("unsupported integrity check: the data cannot be verified");
    default: return QStringLiteral("liblzma error %1").arg(int(rc));
    }
}

Result<size_t> XzStream::read(std::span<char> out)
{
    if (startError_)
        return *startError_;
    size_t produced = 0;
    while (produced < out.size() && !done_) {
        if (stopRequested())
            return Error::cancelled();
        if (input_.available() == 0 && !input_.ended()) {
            auto more = input_.fill();
            if (!more)
                return std::move(more).error();
        }
        stream_.next_in = input_.data();
        stream_.avail_in = input_.available();
        stream_.next_out = reinterpret_cast<uint8_t *>(out.data() + produced);
        stream_.avail_out = out.size() - produced;
        const size_t before = stream_.avail_in;
        const lzma_ret rc = lzma_code(&stream_, input_.ended() ? LZMA_FINISH : LZMA_RUN);
        input_.consume(before - stream_.avail_in);
        produced = out.size() - stream_.avail_out;
        if (rc == LZMA_STREAM_END) {
            done_ = true;
        } else if (rc != LZMA_OK) {
            // The offset of the compressed byte the decoder had reached.
            return Error::format(where_, input_.offset(), QStringLiteral("%1: %2").arg(name_, lzmaText(rc, name_)));
        }
    }
    return produced;
}

} // namespace asc
