// SPDX-License-Identifier: MIT
#include "xz_blocks.h"

#include "io/cancel.h"
#include "io/trace.h"

#include <lzma.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace asc {

namespace {
// A block is decoded whole before it is used (its check comes last): xz -9 -T0 makes 192 MiB.
constexpr uint64_t kMaxBlock = uint64_t(256) << 20;
constexpr uint64_t kMaxIndex = uint64_t(64) << 20;

bool readExactly(const ByteSource &source, uint64_t at, uint8_t *out, size_t size)
{
    auto got = source.readAt(at, std::span(reinterpret_cast<char *>(out), size));
    return got && *got == size;
}
} // namespace

bool XzBlockIndex::plausible(uint64_t fileSize) const
{
    if (blocks.size() < 2)
        return false;
    uint64_t out = 0;
    for (const XzBlock &b : blocks) {
        if (b.out != out || b.outSize > kMaxBlock || b.compressedSize < 8 || b.compressedSize > fileSize || b.compressed > fileSize - b.compressedSize)
            return false;
        out += b.outSize;
    }
    return out == decodedSize;
}

std::optional<XzBlockIndex> readXzBlocks(const ByteSource &source)
{
    const uint64_t size = source.size();
    uint8_t header[LZMA_STREAM_HEADER_SIZE], footer[LZMA_STREAM_HEADER_SIZE];
    if (size < 2 * LZMA_STREAM_HEADER_SIZE || !readExactly(source, 0, header, sizeof header) ||
        !readExactly(source, size - sizeof footer, footer, sizeof footer))
        return std::nullopt;
    lzma_stream_flags headerFlags{}, footerFlags{};
    if (lzma_stream_header_decode(&headerFlags, header) != LZMA_OK || lzma_stream_footer_decode(&footerFlags, footer) != LZMA_OK ||
        lzma_stream_flags_compare(&headerFlags, &footerFlags) != LZMA_OK)
        return std::nullopt; // padding after the stream, or more than one: read from the start
    const uint64_t indexSize = footerFlags.backward_size;
    if (indexSize > kMaxIndex || indexSize + 2 * LZMA_STREAM_HEADER_SIZE > size)
        return std::nullopt;
    std::vector<uint8_t> indexBytes(static_cast<size_t>(indexSize));
    if (!readExactly(source, size - sizeof footer - indexSize, indexBytes.data(), indexBytes.size()))
        return std::nullopt;
    lzma_index *index = nullptr;
    uint64_t memlimit = kMaxIndex * 4;
    size_t at = 0;
    if (lzma_index_buffer_decode(&index, &memlimit, nullptr, indexBytes.data(), &at, indexBytes.size()) != LZMA_OK)
        return std::nullopt;
    XzBlockIndex blocks;
    blocks.check = uint32_t(headerFlags.check);
    const bool wholeFile = lzma_index_file_size(index) == size;
    lzma_index_iter iter;
    lzma_index_iter_init(&iter, index);
    while (wholeFile && !lzma_index_iter_next(&iter, LZMA_INDEX_ITER_BLOCK)) {
        XzBlock b;
        b.compressed = iter.block.compressed_file_offset;
        b.compressedSize = iter.block.total_size;
        b.out = iter.block.uncompressed_file_offset;
        b.outSize = iter.block.uncompressed_size;
        blocks.blocks.push_back(b);
    }
    blocks.decodedSize = lzma_index_uncompressed_size(index);
    lzma_index_end(index, nullptr);
    if (!wholeFile || !blocks.plausible(size))
        return std::nullopt;
    return blocks;
}

namespace {

class XzBlockStream final : public ByteStream {
public:
    XzBlockStream(SourcePtr source, std::shared_ptr<const XzBlockIndex> index, size_t block, uint64_t skip, QString where)
        : source_(std::move(source)),
          index_(std::move(index)),
          block_(block),
          skip_(skip),
          where_(std::move(where))
    {
    }

    Result<size_t> read(std::span<char> out) override
    {
        size_t done = 0;
        while (done < out.size()) {
            if (at_ == decoded_.size()) {
                if (block_ >= index_->blocks.size())
                    break;
                auto filled = decodeBlock(index_->blocks[block_]);
                if (!filled)
                    return std::move(filled).error();
                ++block_;
                at_ = size_t(std::min<uint64_t>(skip_, decoded_.size()));
                skip_ -= at_;
                continue;
            }
            const size_t take = std::min(out.size() - done, decoded_.size() - at_);
            std::memcpy(out.data() + done, decoded_.data() + at_, take);
            at_ += take;
            done += take;
        }
        return done;
    }
    uint64_t consumed() const override { return consumed_; }

private:
    Error fail(const XzBlock &b, const QString &what) const
    {
        return Error::format(where_, b.compressed, QStringLiteral("the xz block here (decoded offset %1): %2").arg(b.out).arg(what));
    }

    Result<void> decodeBlock(const XzBlock &b)
    {
        const TraceLayer layer("seek point");
        uint8_t first = 0;
        if (!readExactly(*source_, b.compressed, &first, 1) || first == 0)
            return fail(b, QStringLiteral("no block header"));
        lzma_filter filters[LZMA_FILTERS_MAX + 1];
        lzma_block block{};
        block.version = 1;
        block.check = lzma_check(index_->check);
        block.filters = filters;
        block.header_size = lzma_block_header_size_decode(first);
        std::vector<uint8_t> header(block.header_size);
        if (!readExactly(*source_, b.compressed, header.data(), header.size()) || lzma_block_header_decode(&block, nullptr, header.data()) != LZMA_OK)
            return fail(b, QStringLiteral("its header does not decode"));
        lzma_stream stream = LZMA_STREAM_INIT;
        const lzma_ret started = lzma_block_decoder(&stream, &block);
        for (size_t i = 0; filters[i].id != LZMA_VLI_UNKNOWN; ++i)
            std::free(filters[i].options); // the decoder copied what it needs
        if (started != LZMA_OK) {
            lzma_end(&stream);
            return fail(b, QStringLiteral("liblzma cannot decode it"));
        }
        decoded_.resize(size_t(b.outSize));
        std::vector<uint8_t> in(size_t(1) << 20);
        uint64_t at = b.compressed + header.size();
        const uint64_t end = b.compressed + b.compressedSize;
        stream.next_out = decoded_.data();
        stream.avail_out = decoded_.size();
        lzma_ret ret = LZMA_OK;
        while (ret == LZMA_OK) {
            if (stopRequested()) {
                lzma_end(&stream);
                return Error::cancelled();
            }
            if (stream.avail_in == 0 && at < end) {
                const size_t want = size_t(std::min<uint64_t>(in.size(), end - at));
                if (!readExactly(*source_, at, in.data(), want)) {
                    lzma_end(&stream);
                    return fail(b, QStringLiteral("the file ends inside it"));
                }
                at += want;
                stream.next_in = in.data();
                stream.avail_in = want;
            }
            ret = lzma_code(&stream, stream.avail_in == 0 && at >= end ? LZMA_FINISH : LZMA_RUN);
            if (ret == LZMA_OK && stream.avail_out == 0 && stream.avail_in == 0 && at >= end)
                ret = lzma_code(&stream, LZMA_FINISH);
        }
        const bool whole = ret == LZMA_STREAM_END && stream.avail_out == 0;
        lzma_end(&stream);
        consumed_ = at;
        if (!whole)
            return fail(b, ret == LZMA_STREAM_END ? QStringLiteral("it decodes to another size than the index says")
                                                  : QStringLiteral("it does not decode (liblzma error %1)").arg(int(ret)));
        return {};
    }

    SourcePtr source_;
    std::shared_ptr<const XzBlockIndex> index_;
    size_t block_;
    uint64_t skip_;
    QString where_;
    std::vector<uint8_t> decoded_;
    size_t at_ = 0;
    uint64_t consumed_ = 0;
};

} // namespace

Result<StreamPtr> openXzAt(SourcePtr source, std::shared_ptr<const XzBlockIndex> index, uint64_t offset, const QString &where)
{
    if (!index || !index->plausible(source->size()) || offset > index->decodedSize)
        return Error::format(where, std::nullopt, QStringLiteral("the xz block index is not usable"));
    auto after = std::upper_bound(index->blocks.begin(), index->blocks.end(), offset, [](uint64_t o, const XzBlock &b) { return o < b.out; });
    const size_t block = after == index->blocks.begin() ? 0 : size_t(after - index->blocks.begin()) - 1;
    const uint64_t skip = offset - index->blocks[block].out;
    return StreamPtr(std::make_unique<XzBlockStream>(std::move(source), std::move(index), block, skip, where));
}

} // namespace asc
