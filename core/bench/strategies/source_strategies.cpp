// SPDX-License-Identifier: MIT
#include "source_strategies.h"

#include "io/async_reader.h"
#include "io/buffered_stream.h"

#include <cstring>
#include <memory>
#include <vector>

namespace asc {

namespace {

class SourceStrategy final : public ReadStrategy {
public:
    QString name() const override { return QStringLiteral("source"); }
    QString description() const override { return QStringLiteral("the core byte source's readAt of N bytes (works on entries, virtual disks, partitions)"); }
    QString group() const override { return QStringLiteral("plain file"); }
    QString notApplicable(const ReadTarget &) const override { return {}; }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        std::unique_ptr<char[]> bytes(new char[buffer]);
        ReadOutcome outcome;
        const ByteSource &source = *target.source;
        for (;;) {
            if (cancel.isCancelled())
                return Error::cancelled();
            auto got = source.readAt(outcome.bytes, std::span(bytes.get(), buffer));
            ++outcome.syscalls;
            if (!got)
                return std::move(got).error();
            if (*got == 0)
                return outcome;
            if (consume)
                consume(std::span<const char>(bytes.get(), *got));
            outcome.bytes += *got;
        }
    }
};

class AsyncStrategy final : public ReadStrategy {
public:
    explicit AsyncStrategy(int depth)
        : depth_(depth) {}
    QString name() const override { return QStringLiteral("uring-qd%1").arg(depth_); }
    QString description() const override
    {
        return QStringLiteral("io_uring with %1 read%2 of N bytes in flight (thread pool where io_uring is unavailable)")
            .arg(depth_)
            .arg(depth_ > 1 ? QStringLiteral("s") : QString());
    }
    QString group() const override { return QStringLiteral("async"); }
    QString notApplicable(const ReadTarget &) const override { return {}; }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        AsyncOptions options;
        options.queueDepth = depth_;
        auto created = AsyncReader::create(target.source, options);
        if (!created)
            return std::move(created).error();
        AsyncReader &reader = **created;
        const uint64_t size = target.source->size();
        // One buffer per slot; completions are consumed in offset order, like a real reader would.
        std::vector<std::unique_ptr<char[]>> buffers;
        for (int i = 0; i < depth_; ++i)
            buffers.emplace_back(new char[buffer]);
        struct Pending {
            uint64_t offset = 0;
            std::optional<Result<size_t>> result;
        };
        std::vector<Pending> pending{size_t(depth_)};
        ReadOutcome outcome;
        uint64_t nextOffset = 0;
        uint64_t submitted = 0;
        uint64_t consumed = 0;
        auto submit = [&](uint64_t slotIndex) {
            Pending &p = pending[slotIndex];
            p.offset = nextOffset;
            p.result.reset();
            reader.readAt(nextOffset, std::span(buffers[slotIndex].get(), buffer),
                          [&p](Result<size_t> r) { p.result = std::move(r); });
            nextOffset += buffer;
            ++submitted;
            ++outcome.syscalls;
        };
        for (int i = 0; i < depth_ && nextOffset < size; ++i)
            submit(uint64_t(i));
        while (consumed < submitted) {
            if (cancel.isCancelled()) {
                reader.drain();
                return Error::cancelled();
            }
            const uint64_t slotIndex = consumed % uint64_t(depth_);
            Pending &p = pending[slotIndex];
            while (!p.result)
                reader.reap(true);
            if (!*p.result) {
                Error failure = p.result->error();
                reader.drain();
                return failure;
            }
            const size_t got = **p.result;
            if (consume)
                consume(std::span<const char>(buffers[slotIndex].get(), got));
            outcome.bytes += got;
            ++consumed;
            if (nextOffset < size)
                submit(slotIndex);
        }
        if (!reader.fallbackReason().isEmpty())
            outcome.note = QStringLiteral("thread pool: ") + reader.fallbackReason();
        return outcome;
    }

private:
    int depth_;
};

// The framed-reader case: a consumer takes 512-byte frames from a buffered stream of capacity N,
// either copying each frame out of the stream into its own frame buffer, or using the bytes where
// they lie in the stream's buffer.
class FramedStrategy final : public ReadStrategy {
public:
    explicit FramedStrategy(bool zeroCopy)
        : zeroCopy_(zeroCopy) {}
    QString name() const override { return zeroCopy_ ? QStringLiteral("buffered-stream-zero-copy") : QStringLiteral("buffered-stream-copy"); }
    QString description() const override
    {
        return zeroCopy_ ? QStringLiteral("512-byte frames taken in place from our buffered stream of capacity N (no copy)")
                         : QStringLiteral("512-byte frames copied out of our buffered stream of capacity N into a frame buffer");
    }
    QString group() const override { return QStringLiteral("framed"); }
    QString notApplicable(const ReadTarget &) const override { return {}; }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel,
                            const ByteConsumer &consume) const override
    {
        constexpr size_t kFrame = 512;
        BufferedStream stream(target.source, buffer);
        char frame[kFrame];
        ReadOutcome outcome;
        while (!stream.atEnd()) {
            // Checked per frame: a frame is smaller than any buffer, so cancel lands within one read.
            if (cancel.isCancelled())
                return Error::cancelled();
            if (zeroCopy_) {
                auto view = stream.peek(kFrame);
                if (!view)
                    return std::move(view).error();
                if (view->empty())
                    break;
                if (consume)
                    consume(*view);
                outcome.bytes += view->size();
                if (auto skipped = stream.skip(view->size()); !skipped)
                    return std::move(skipped).error();
            } else {
                auto got = stream.read(std::span(frame, kFrame));
                if (!got)
                    return std::move(got).error();
                if (*got == 0)
                    break;
                if (consume)
                    consume(std::span<const char>(frame, *got));
                outcome.bytes += *got;
            }
        }
        outcome.syscalls = stream.sourceReads();
        return outcome;
    }

private:
    bool zeroCopy_;
};

} // namespace

StrategyPtr makeSourceStrategy()
{
    return std::make_shared<SourceStrategy>();
}
StrategyPtr makeAsyncStrategy(int queueDepth)
{
    return std::make_shared<AsyncStrategy>(queueDepth);
}
StrategyPtr makeFramedStrategy(bool zeroCopy)
{
    return std::make_shared<FramedStrategy>(zeroCopy);
}

} // namespace asc
