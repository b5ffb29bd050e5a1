// SPDX-License-Identifier: MIT
#include "pxar_strategies.h"

#include "formats/pxar/pxar_accessor.h"
#include "formats/pxar/pxar_container.h"
#include "formats/pxar/pxar_decoder.h"
#include "io/async_reader.h"
#include "io/counting_source.h"

#include <functional>
#include <map>
#include <memory>

namespace asc {

namespace {

constexpr int kAsyncDepth = 8;

QString pxarOnly(const ReadTarget &target)
{
    char head[16] = {};
    auto got = target.source->readAt(0, head);
    if (!got || !looksLikePxar(std::span<const char>(head, *got)))
        return QStringLiteral("not applicable: the target is not a pxar archive");
    auto payload = findPayloadFile(target.source);
    if (payload && !*payload && QByteArray(head + 0, 8) == QByteArray::fromHex("0da416df756c0f73"))
        return QStringLiteral("not applicable: split archive without its .ppxar beside it");
    return {};
}

uint64_t totalBytes(const ReadTarget &target)
{
    auto payload = findPayloadFile(target.source);
    return target.source->size() + (payload && *payload ? (*payload)->size() : 0);
}

class PxarStrategy : public ReadStrategy {
public:
    explicit PxarStrategy(bool async)
        : async_(async) {}
    QString group() const override { return QStringLiteral("pxar"); }
    QString notApplicable(const ReadTarget &target) const override { return pxarOnly(target); }
    uint64_t expectedBytes(const ReadTarget &target) const override { return totalBytes(target); }

protected:
    bool async_;
};

class DecoderStrategy final : public PxarStrategy {
public:
    using PxarStrategy::PxarStrategy;
    QString name() const override { return async_ ? QStringLiteral("pxar-decoder-async") : QStringLiteral("pxar-decoder-sync"); }
    QString description() const override
    {
        return async_ ? QStringLiteral("pxar sequential decoder over io_uring read-ahead (reads of N, 512 KiB in flight; under 64 KiB taken by a "
                                       "polling kernel thread, from 1 MiB done by io_uring workers), every entry and payload")
                      : QStringLiteral("pxar sequential decoder over our buffered stream of capacity N, every entry and payload");
    }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel, const ByteConsumer &consume) const override
    {
        auto payloadSource = findPayloadFile(target.source);
        if (!payloadSource)
            return std::move(payloadSource).error();
        auto makeInput = [&](const SourcePtr &source, bool otherCore) -> Result<std::unique_ptr<pxar::SequentialInput>> {
            if (!source)
                return std::unique_ptr<pxar::SequentialInput>();
            if (!async_)
                return std::unique_ptr<pxar::SequentialInput>(std::make_unique<pxar::SyncInput>(source, buffer));
            // About 512 KiB read ahead whatever the capacity: deep queues of small reads (batched
            // into few system calls), shallow ones of big reads (they stay in the CPU caches).
            const int depth = int(std::clamp<size_t>(buffer ? (512 * 1024) / buffer : 1, 2, 32));
            auto input = pxar::ReadAheadInput::create(source, buffer, depth, 0, otherCore);
            if (!input)
                return std::move(input).error();
            return std::unique_ptr<pxar::SequentialInput>(std::move(input).value());
        };
        // A split archive: the payload half carries most bytes and gets the other core.
        auto archive = makeInput(target.source, !*payloadSource);
        if (!archive)
            return std::move(archive).error();
        auto payload = makeInput(*payloadSource, true);
        if (!payload)
            return std::move(payload).error();
        pxar::SequentialInput *archiveInput = archive->get();
        pxar::SequentialInput *payloadInput = payload->get();
        pxar::Decoder decoder(std::move(archive).value(), std::move(payload).value());
        std::vector<char> chunk(std::max<size_t>(buffer, 4096));
        ReadOutcome outcome;
        for (;;) {
            if (cancel.isCancelled())
                return Error::cancelled();
            auto next = decoder.next();
            if (!next)
                return std::move(next).error();
            if (!*next)
                break;
            if ((*next)->kind != pxar::Kind::File)
                continue;
            // Content handed out where it lies in the input's buffer: no copy on the consumer side.
            for (;;) {
                if (cancel.isCancelled())
                    return Error::cancelled();
                auto view = decoder.readContentView(chunk.size());
                if (!view)
                    return std::move(view).error();
                if (view->empty())
                    break;
                if (consume)
                    consume(*view);
            }
        }
        // The decoder consumed every byte of the archive (and of the referenced payload).
        outcome.bytes = archiveInput->position() + (payloadInput ? payloadInput->size() : 0);
        outcome.syscalls = archiveInput->sourceReads() + (payloadInput ? payloadInput->sourceReads() : 0);
        return outcome;
    }
};

class AccessorStrategy final : public PxarStrategy {
public:
    using PxarStrategy::PxarStrategy;
    QString name() const override { return async_ ? QStringLiteral("pxar-accessor-async") : QStringLiteral("pxar-accessor-sync"); }
    QString description() const override
    {
        return async_ ? QStringLiteral("pxar accessor walking the goodbye tables, child entries (16 in flight) and payloads (reads of N, up to 8 and 16 MiB in flight) read with io_uring")
                      : QStringLiteral("pxar accessor walking the goodbye tables, payloads read N bytes at a time");
    }

    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel, const ByteConsumer &consume) const override
    {
        auto payloadSource = findPayloadFile(target.source);
        if (!payloadSource)
            return std::move(payloadSource).error();
        auto archive = std::make_shared<CountingSource>(target.source);
        std::shared_ptr<CountingSource> payload = *payloadSource ? std::make_shared<CountingSource>(*payloadSource) : nullptr;
        auto accessor = pxar::Accessor::open(archive, payload);
        if (!accessor)
            return std::move(accessor).error();
        std::vector<char> chunk(std::max<size_t>(buffer, 4096));
        ReadOutcome outcome;
        // One ring per file for the whole walk: setting a ring up costs more than many reads.
        std::unique_ptr<AsyncReader> archiveReader, payloadReader, windowReader;
        // Up to 8 content reads of N in flight, at most 16 MiB together; the buffers are not
        // zero-filled (the kernel writes them).
        const size_t readSize = std::max<size_t>(buffer, 4096);
        const int depth = int(std::clamp<size_t>((16 << 20) / readSize, 2, kAsyncDepth));
        std::unique_ptr<char[]> contentArena(async_ ? new char[readSize * size_t(depth)] : nullptr);
        auto contentBuffer = [&](uint64_t slot) { return contentArena.get() + slot * readSize; };
        uint64_t asyncReads = 0, asyncBytes = 0;
        if (async_) {
            AsyncOptions contentOptions;
            contentOptions.queueDepth = depth;
            useOtherCore(contentOptions, std::max<size_t>(buffer, 4096));
            // On the files themselves (not the counting wrappers) so io_uring reads them directly.
            auto a = AsyncReader::create(target.source, contentOptions);
            if (!a)
                return std::move(a).error();
            archiveReader = std::move(a).value();
            if (payload) {
                auto p = AsyncReader::create(*payloadSource, contentOptions);
                if (!p)
                    return std::move(p).error();
                payloadReader = std::move(p).value();
            }
            AsyncOptions windowOptions;
            windowOptions.queueDepth = 16;
            auto w = AsyncReader::create(target.source, windowOptions);
            if (!w)
                return std::move(w).error();
            windowReader = std::move(w).value();
        }

        auto readContent = [&](const pxar::PxarEntry &file) -> Result<void> {
            auto content = (*accessor)->content(file);
            if (!content)
                return std::move(content).error();
            const ByteSource &source = **content;
            if (!async_) {
                for (uint64_t at = 0; at < source.size();) {
                    if (cancel.isCancelled())
                        return Error::cancelled();
                    auto got = source.readAt(at, std::span(chunk.data(), std::min<size_t>(buffer ? buffer : chunk.size(), chunk.size())));
                    if (!got)
                        return std::move(got).error();
                    if (*got == 0)
                        break;
                    if (consume)
                        consume(std::span<const char>(chunk.data(), *got));
                    at += *got;
                }
                return {};
            }
            // Async: up to 4 reads of N in flight, consumed in order, at the content's place in its file.
            AsyncReader *reader = file.contentInPayloadFile ? payloadReader.get() : archiveReader.get();
            const uint64_t base = file.contentInPayloadFile ? file.contentOffset + 16 : file.contentOffset;
            const size_t n = readSize;
            std::vector<std::optional<Result<size_t>>> done{};
            done.resize(size_t(depth));
            uint64_t submitted = 0, consumed = 0;
            const uint64_t size = source.size();
            auto submit = [&](uint64_t slot) {
                done[slot].reset();
                const size_t want = size_t(std::min<uint64_t>(n, size - submitted * n));
                reader->readAt(base + submitted * n, std::span(contentBuffer(slot), want), [&done, slot](Result<size_t> r) { done[slot] = std::move(r); });
                ++asyncReads;
                asyncBytes += want;
                ++submitted;
            };
            for (int i = 0; i < depth && submitted * n < size; ++i)
                submit(uint64_t(i));
            while (consumed < submitted) {
                if (cancel.isCancelled()) {
                    reader->drain();
                    return Error::cancelled();
                }
                const uint64_t slot = consumed % uint64_t(depth);
                while (!done[slot])
                    reader->reap(true);
                if (!*done[slot]) {
                    Error e = done[slot]->error();
                    reader->drain();
                    return e;
                }
                if (consume)
                    consume(std::span<const char>(contentBuffer(slot), **done[slot]));
                ++consumed;
                if (submitted * n < size)
                    submit(slot);
            }
            return {};
        };

        std::vector<char> windowArena;
        std::function<Result<void>(const pxar::PxarEntry &)> walk = [&](const pxar::PxarEntry &dir) -> Result<void> {
            auto d = (*accessor)->directory(dir);
            if (!d)
                return std::move(d).error();
            std::vector<pxar::PxarEntry> children;
            children.reserve(d->rows.size());
            if (!async_) {
                for (const pxar::GoodbyeRow &row : d->rows) {
                    auto c = (*accessor)->child(*d, row, dir.path);
                    if (!c)
                        return std::move(c).error();
                    children.push_back(std::move(c).value());
                }
            } else {
                // Every child's FILENAME+ENTRY window fetched with 16 reads in flight, then decoded.
                // One arena for every directory's windows: no allocation per child.
                AsyncReader *reader = windowReader.get();
                constexpr size_t kWindow = pxar::Accessor::kWindow;
                if (windowArena.size() < d->rows.size() * kWindow)
                    windowArena.resize(d->rows.size() * kWindow);
                std::vector<std::optional<Result<size_t>>> results(d->rows.size());
                for (size_t i = 0; i < d->rows.size(); ++i) {
                    const uint64_t at = d->goodbyeStart - d->rows[i].offset;
                    reader->readAt(at, std::span(windowArena.data() + i * kWindow, kWindow), [&results, i](Result<size_t> r) { results[i] = std::move(r); });
                    ++asyncReads;
                    asyncBytes += kWindow;
                }
                reader->drain();
                for (size_t i = 0; i < d->rows.size(); ++i) {
                    if (!*results[i])
                        return results[i]->error();
                    const QByteArray window = QByteArray::fromRawData(windowArena.data() + i * kWindow, qsizetype(**results[i]));
                    auto c = (*accessor)->childFromWindow(*d, d->rows[i], dir.path, d->goodbyeStart - d->rows[i].offset, window);
                    if (!c)
                        return std::move(c).error();
                    children.push_back(std::move(c).value());
                }
            }
            for (const pxar::PxarEntry &c : children) {
                if (cancel.isCancelled())
                    return Error::cancelled();
                if (c.kind == pxar::Kind::Directory) {
                    if (auto ok = walk(c); !ok)
                        return ok;
                } else if (c.kind == pxar::Kind::File) {
                    if (auto ok = readContent(c); !ok)
                        return ok;
                }
            }
            return {};
        };
        if (auto ok = walk((*accessor)->root()); !ok)
            return std::move(ok).error();
        // Every entry and payload was visited; what was really read is in `syscalls` terms below.
        outcome.bytes = totalBytes(target);
        outcome.syscalls = archive->reads() + (payload ? payload->reads() : 0) + asyncReads;
        outcome.note = QStringLiteral("read %1 bytes of metadata and content").arg(archive->bytes() + (payload ? payload->bytes() : 0) + asyncBytes);
        return outcome;
    }
};

} // namespace

StrategyPtr makePxarDecoderStrategy(bool async)
{
    return std::make_shared<DecoderStrategy>(async);
}
StrategyPtr makePxarAccessorStrategy(bool async)
{
    return std::make_shared<AccessorStrategy>(async);
}

} // namespace asc
