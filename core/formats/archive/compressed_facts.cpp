// SPDX-License-Identifier: MIT
#include "compressed_facts.h"
#include "io/trace.h"

#include <lzma.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <cstring>
#include <vector>

namespace asc {

namespace {

uint32_t le32(const unsigned char *p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t le64(const unsigned char *p)
{
    return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32;
}

bool readExact(const ByteSource &source, uint64_t offset, void *out, size_t size)
{
    const TraceLayer layer("compressed facts");
    auto got = source.readAt(offset, std::span(static_cast<char *>(out), size));
    return got && *got == size;
}

// Small streams are inflated to count their bytes exactly (any number of members); this bounds
// the work a tiny "bomb" can ask for.
constexpr uint64_t kCountBelow = 1 << 20;
constexpr uint64_t kCountOutputLimit = 1ULL << 30;

std::optional<uint64_t> inflatedSize(const ByteSource &source)
{
    std::vector<char> in(size_t(source.size()));
    if (!readExact(source, 0, in.data(), in.size()))
        return std::nullopt;
    std::vector<unsigned char> out(1 << 16);
    uint64_t total = 0;
    size_t at = 0;
    while (at < in.size()) {
        z_stream z{};
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
            return std::nullopt;
        z.next_in = reinterpret_cast<Bytef *>(in.data() + at);
        z.avail_in = uInt(in.size() - at);
        int rc = Z_OK;
        while (rc == Z_OK) {
            z.next_out = out.data();
            z.avail_out = uInt(out.size());
            rc = inflate(&z, Z_NO_FLUSH);
            total += out.size() - z.avail_out;
            if (total > kCountOutputLimit || (rc == Z_BUF_ERROR && z.avail_in == 0)) {
                inflateEnd(&z);
                return std::nullopt;
            }
        }
        const size_t used = size_t(z.total_in);
        inflateEnd(&z);
        if (rc != Z_STREAM_END)
            return std::nullopt;
        at += used;
        // gzip allows trailing zero padding (tape blocks): it is not another member.
        while (at < in.size() && in[at] == 0)
            ++at;
        if (at + 2 <= in.size() && !(uint8_t(in[at]) == 0x1f && uint8_t(in[at + 1]) == 0x8b))
            break;
    }
    return total;
}

// bgzip: every member carries its own compressed size ("BC" extra field): sum the ISIZEs.
std::optional<uint64_t> bgzfSize(const ByteSource &source)
{
    uint64_t at = 0, total = 0;
    const uint64_t size = source.size();
    while (at + 18 <= size) {
        unsigned char h[18];
        if (!readExact(source, at, h, sizeof h) || h[0] != 0x1f || h[1] != 0x8b || !(h[3] & 4) || h[12] != 'B' || h[13] != 'C')
            return std::nullopt;
        const uint64_t blockSize = uint64_t(h[16] | h[17] << 8) + 1;
        unsigned char trailer[4];
        if (at + blockSize > size || !readExact(source, at + blockSize - 4, trailer, 4))
            return std::nullopt;
        total += le32(trailer);
        at += blockSize;
    }
    return at == size ? std::optional<uint64_t>(total) : std::nullopt;
}

CompressedFacts gzipFacts(const ByteSource &source, const unsigned char *head)
{
    CompressedFacts facts;
    if (const uint32_t mtime = le32(head + 4))
        facts.mtime = int64_t(mtime);
    const uint64_t size = source.size();
    if (size <= kCountBelow) {
        facts.size = inflatedSize(source);
        return facts;
    }
    if ((head[3] & 4) && head[12] == 'B' && head[13] == 'C') {
        facts.size = bgzfSize(source);
        return facts;
    }
    // ISIZE is the last member's size mod 2^32: right for one member under 4 GiB. Deflate
    // never grows its input by more than a fraction of a percent and never shrinks it below
    // ~1/1032: an ISIZE outside those bounds belongs to one of several members, or has wrapped.
    unsigned char trailer[4];
    if (size >= (4ULL << 30) || !readExact(source, size - 4, trailer, 4))
        return facts;
    const uint64_t isize = le32(trailer);
    if (isize * 1032 >= size && isize + 1024 + size / 64 >= size)
        facts.size = isize;
    return facts;
}

// xz: each stream ends with a footer pointing at its index; walk the streams from the end.
std::optional<uint64_t> xzSize(const ByteSource &source)
{
    uint64_t end = source.size();
    uint64_t total = 0;
    int streams = 0;
    while (end > 0) {
        unsigned char footer[LZMA_STREAM_HEADER_SIZE];
        // Stream padding: multiples of four zero bytes between streams.
        while (end >= 4) {
            unsigned char pad[4];
            if (!readExact(source, end - 4, pad, 4))
                return std::nullopt;
            if (std::memcmp(pad, "\0\0\0\0", 4) != 0)
                break;
            end -= 4;
        }
        if (end < 2 * LZMA_STREAM_HEADER_SIZE || !readExact(source, end - sizeof footer, footer, sizeof footer))
            return std::nullopt;
        lzma_stream_flags flags{};
        if (lzma_stream_footer_decode(&flags, footer) != LZMA_OK || flags.backward_size > (64ULL << 20) ||
            flags.backward_size + LZMA_STREAM_HEADER_SIZE > end)
            return std::nullopt;
        std::vector<uint8_t> buffer(size_t(flags.backward_size));
        const uint64_t indexAt = end - LZMA_STREAM_HEADER_SIZE - flags.backward_size;
        if (!readExact(source, indexAt, buffer.data(), buffer.size()))
            return std::nullopt;
        lzma_index *index = nullptr;
        uint64_t memlimit = 256ULL << 20;
        size_t pos = 0;
        if (lzma_index_buffer_decode(&index, &memlimit, nullptr, buffer.data(), &pos, buffer.size()) != LZMA_OK)
            return std::nullopt;
        total += lzma_index_uncompressed_size(index);
        const uint64_t streamSize = lzma_index_total_size(index) + flags.backward_size + 2 * LZMA_STREAM_HEADER_SIZE;
        lzma_index_end(index, nullptr);
        if (streamSize > end || ++streams > 4096)
            return std::nullopt;
        end -= streamSize;
    }
    return total;
}

// lzip: each member ends with a trailer giving its data size and its own size.
std::optional<uint64_t> lzipSize(const ByteSource &source)
{
    uint64_t end = source.size();
    uint64_t total = 0;
    while (end > 0) {
        unsigned char trailer[20];
        if (end < 26 || !readExact(source, end - 20, trailer, 20))
            return std::nullopt;
        const uint64_t dataSize = le64(trailer + 4);
        const uint64_t memberSize = le64(trailer + 12);
        if (memberSize < 26 || memberSize > end)
            return std::nullopt;
        unsigned char magic[4];
        if (!readExact(source, end - memberSize, magic, 4) || std::memcmp(magic, "LZIP", 4) != 0)
            return std::nullopt;
        total += dataSize;
        end -= memberSize;
    }
    return total;
}

// zstd: frames may record their content size; every frame must, for the total to be known.
std::optional<uint64_t> zstdSize(const ByteSource &source)
{
    const uint64_t size = source.size();
    // Walk frame headers and block headers (3 bytes each) without reading the data.
    uint64_t at = 0, total = 0;
    while (at < size) {
        unsigned char h[ZSTD_FRAMEHEADERSIZE_MAX] = {};
        const size_t want = size_t(std::min<uint64_t>(sizeof h, size - at));
        if (!readExact(source, at, h, want))
            return std::nullopt;
        if ((le32(h) & 0xFFFFFFF0u) == 0x184D2A50u) { // skippable frame
            if (want < 8)
                return std::nullopt;
            at += 8 + uint64_t(le32(h + 4)); // 64-bit: 8 + 0xfffffff8 must not wrap to 0 (a loop)
            continue;
        }
        ZSTD_frameHeader fh{};
        if (ZSTD_getFrameHeader(&fh, h, want) != 0 || fh.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN)
            return std::nullopt;
        total += fh.frameContentSize;
        at += fh.headerSize;
        for (;;) { // blocks
            unsigned char b[3];
            if (!readExact(source, at, b, 3))
                return std::nullopt;
            const uint32_t header = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16;
            const uint32_t type = (header >> 1) & 3;
            const uint32_t blockSize = header >> 3;
            at += 3 + (type == 1 ? 1 : blockSize);
            if (header & 1)
                break;
            if (at > size)
                return std::nullopt;
        }
        if (fh.checksumFlag)
            at += 4;
    }
    return at == size ? std::optional<uint64_t>(total) : std::nullopt;
}

} // namespace

CompressedFacts readCompressedFacts(const ByteSource &source)
{
    unsigned char head[18] = {};
    const uint64_t size = source.size();
    if (size < 6 || !readExact(source, 0, head, size_t(std::min<uint64_t>(sizeof head, size))))
        return {};
    CompressedFacts facts;
    if (head[0] == 0x1f && head[1] == 0x8b && size >= 18)
        return gzipFacts(source, head);
    if (std::memcmp(head, "\xFD"
                          "7zXZ\0",
                    6) == 0)
        facts.size = xzSize(source);
    else if (std::memcmp(head, "LZIP", 4) == 0)
        facts.size = lzipSize(source);
    else if (le32(head) == 0xFD2FB528u)
        facts.size = zstdSize(source);
    return facts;
}

} // namespace asc
