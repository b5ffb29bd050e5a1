// SPDX-License-Identifier: MIT
#include "lzop_stream.h"

#include "io/cancel.h"

#include <lzo/lzo1x.h>
#include <zlib.h>

#include <cstring>

namespace asc {

namespace {

constexpr uint8_t kMagic[9] = {0x89, 'L', 'Z', 'O', 0x00, 0x0d, 0x0a, 0x1a, 0x0a};
// Header flags (lzop's conf.h).
constexpr uint32_t kAdler32D = 0x1, kAdler32C = 0x2, kExtraField = 0x40, kCrc32D = 0x100, kCrc32C = 0x200,
                   kMultipart = 0x400, kFilter = 0x800, kHeaderCrc32 = 0x1000;
// Methods lzop writes: LZO1X-1, LZO1X-1(15), LZO1X-999. All decode with the LZO1X decoder.
constexpr uint8_t kMethodLzo1x1 = 1, kMethodLzo1x1_15 = 2, kMethodLzo1x999 = 3;

uint32_t be32(const uint8_t *p)
{
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
uint16_t be16(const uint8_t *p)
{
    return uint16_t(p[0] << 8 | p[1]);
}

bool lzoReady()
{
    static const bool ready = lzo_init() == LZO_E_OK;
    return ready;
}

} // namespace

LzopStream::LzopStream(StreamPtr upstream, QString where, size_t chunk)
    : input_(std::move(upstream), chunk),
      where_(std::move(where))
{
}

Result<bool> LzopStream::readHeader()
{
    const uint64_t start = input_.offset();
    // Magic, the fixed fields of the longest header and a name of up to 255 bytes.
    if (auto ready = input_.ensure(9 + 34 + 255 + 4); !ready)
        return std::move(ready).error();
    const uint8_t *p = input_.data();
    const size_t have = input_.available();
    if (have == 0)
        return false;
    if (have < 9 || std::memcmp(p, kMagic, 9) != 0) {
        if (files_ > 0)
            return Error::format(where_, start, QStringLiteral("lzop: data after the end of the last lzop file that starts no other one"));
        return Error::format(where_, start, QStringLiteral("lzop: not an lzop file (bad magic)"));
    }
    auto truncated = [&] { return Error::format(where_, start, QStringLiteral("lzop: truncated: the file ends inside its header")); };
    size_t at = 9;
    auto need = [&](size_t n) { return at + n <= have; };
    if (!need(6))
        return truncated();
    const uint16_t version = be16(p + at);
    at += 2;
    at += 2; // the LZO library version that wrote it
    if (version >= 0x0940) {
        if (!need(2))
            return truncated();
        const uint16_t needed = be16(p + at);
        at += 2;
        if (needed > 0x1040)
            return Error::format(where_, start, QStringLiteral("lzop: needs lzop version %1 or later to decode").arg(needed, 0, 16));
    }
    if (version < 0x0900)
        return Error::format(where_, start, QStringLiteral("lzop: header version %1 is not one lzop ever wrote").arg(version, 0, 16));
    if (!need(1))
        return truncated();
    const uint8_t method = p[at++];
    if (method != kMethodLzo1x1 && method != kMethodLzo1x1_15 && method != kMethodLzo1x999)
        return Error::format(where_, start + at - 1, QStringLiteral("lzop: unsupported compression method %1").arg(method));
    if (version >= 0x0940)
        ++at; // level
    if (!need(4))
        return truncated();
    flags_ = be32(p + at);
    at += 4;
    if (flags_ & kMultipart)
        return Error::format(where_, start, QStringLiteral("lzop: multipart files are not supported"));
    if (flags_ & kFilter) {
        if (!need(4))
            return truncated();
        return Error::format(where_, start, QStringLiteral("lzop: files made with a filter (lzop --filter) are not supported"));
    }
    if (!need(4 + 4 + (version >= 0x0940 ? 4 : 0) + 1))
        return truncated();
    at += 4 + 4 + (version >= 0x0940 ? 4 : 0); // mode, mtime (low, high)
    const uint8_t nameLength = p[at++];
    if (!need(size_t(nameLength) + 4))
        return truncated();
    at += nameLength;
    const uint32_t stored = be32(p + at);
    const uint32_t computed = flags_ & kHeaderCrc32 ? uint32_t(crc32(0, p + 9, uInt(at - 9)))
                                                    : uint32_t(adler32(1, p + 9, uInt(at - 9)));
    if (stored != computed)
        return Error::format(where_, start, QStringLiteral("lzop: header checksum mismatch"));
    at += 4;
    input_.consume(at);
    if (flags_ & kExtraField) {
        // A length, the field, and a checksum of both: skipped, the checksum checked.
        if (auto ready = input_.ensure(4); !ready)
            return std::move(ready).error();
        if (input_.available() < 4)
            return truncated();
        const uint32_t length = be32(input_.data());
        if (length > (1u << 20))
            return Error::format(where_, input_.offset(), QStringLiteral("lzop: extra header field of %1 bytes").arg(length));
        if (auto ready = input_.ensure(4 + size_t(length) + 4); !ready)
            return std::move(ready).error();
        if (input_.available() < 8 + size_t(length))
            return truncated();
        const uint8_t *e = input_.data();
        const uint32_t sum = flags_ & kHeaderCrc32 ? uint32_t(crc32(0, e, uInt(4 + length))) : uint32_t(adler32(1, e, uInt(4 + length)));
        if (sum != be32(e + 4 + length))
            return Error::format(where_, input_.offset(), QStringLiteral("lzop: extra header field checksum mismatch"));
        input_.consume(8 + size_t(length));
    }
    inFile_ = true;
    return true;
}

Result<bool> LzopStream::nextBlock()
{
    for (;;) {
        if (!inFile_) {
            auto header = readHeader();
            if (!header)
                return std::move(header).error();
            if (!*header) {
                if (files_ == 0)
                    return Error::format(where_, 0, QStringLiteral("lzop: empty input"));
                return false;
            }
        }
        const uint64_t at = input_.offset();
        auto truncated = [&] { return Error::format(where_, at, QStringLiteral("lzop: truncated: the file ends inside a block")); };
        if (auto ready = input_.ensure(4); !ready)
            return std::move(ready).error();
        if (input_.available() < 4)
            return truncated();
        const uint32_t decodedSize = be32(input_.data());
        if (decodedSize == 0) { // the end of this lzop file
            input_.consume(4);
            inFile_ = false;
            ++files_;
            continue;
        }
        if (decodedSize > kMaxBlock)
            return Error::format(where_, at, QStringLiteral("lzop: a block of %1 bytes, over lzop's 64 MiB").arg(decodedSize));
        if (auto ready = input_.ensure(8); !ready)
            return std::move(ready).error();
        if (input_.available() < 8)
            return truncated();
        const uint32_t compressedSize = be32(input_.data() + 4);
        if (compressedSize > decodedSize)
            return Error::format(where_, at, QStringLiteral("lzop: a block's compressed size %1 is over its decoded size %2").arg(compressedSize).arg(decodedSize));
        const bool stored = compressedSize == decodedSize;
        const int decodedSums = (flags_ & kAdler32D ? 1 : 0) + (flags_ & kCrc32D ? 1 : 0);
        const int compressedSums = stored ? 0 : (flags_ & kAdler32C ? 1 : 0) + (flags_ & kCrc32C ? 1 : 0);
        const size_t headerBytes = 8 + 4 * size_t(decodedSums + compressedSums);
        if (auto ready = input_.ensure(headerBytes + compressedSize); !ready)
            return std::move(ready).error();
        if (input_.available() < headerBytes + compressedSize)
            return truncated();
        const uint8_t *h = input_.data();
        size_t sumAt = 8;
        const uint32_t adlerD = flags_ & kAdler32D ? be32(h + (sumAt += 4) - 4) : 0;
        const uint32_t crcD = flags_ & kCrc32D ? be32(h + (sumAt += 4) - 4) : 0;
        const uint32_t adlerC = !stored && (flags_ & kAdler32C) ? be32(h + (sumAt += 4) - 4) : 0;
        const uint32_t crcC = !stored && (flags_ & kCrc32C) ? be32(h + (sumAt += 4) - 4) : 0;
        const uint8_t *data = h + headerBytes;
        if (!stored) {
            if ((flags_ & kAdler32C) && uint32_t(adler32(1, data, compressedSize)) != adlerC)
                return Error::format(where_, at, QStringLiteral("lzop: checksum mismatch in a block's compressed data"));
            if ((flags_ & kCrc32C) && uint32_t(crc32(0, data, compressedSize)) != crcC)
                return Error::format(where_, at, QStringLiteral("lzop: checksum mismatch in a block's compressed data"));
        }
        block_.resize(decodedSize);
        if (stored) {
            std::memcpy(block_.data(), data, decodedSize);
        } else {
            if (!lzoReady())
                return Error::make(ErrorKind::System, where_, QStringLiteral("cannot start the LZO decoder"));
            lzo_uint produced = decodedSize;
            const int rc = lzo1x_decompress_safe(data, compressedSize, block_.data(), &produced, nullptr);
            if (rc != LZO_E_OK || produced != decodedSize)
                return Error::format(where_, at, QStringLiteral("lzop: corrupt block (LZO error %1, %2 of %3 bytes decoded)").arg(rc).arg(produced).arg(decodedSize));
        }
        if ((flags_ & kAdler32D) && uint32_t(adler32(1, block_.data(), decodedSize)) != adlerD)
            return Error::format(where_, at, QStringLiteral("lzop: checksum mismatch in a block's decoded data"));
        if ((flags_ & kCrc32D) && uint32_t(crc32(0, block_.data(), decodedSize)) != crcD)
            return Error::format(where_, at, QStringLiteral("lzop: checksum mismatch in a block's decoded data"));
        input_.consume(headerBytes + compressedSize);
        blockAt_ = 0;
        return true;
    }
}

Result<size_t> LzopStream::read(std::span<char> out)
{
    size_t produced = 0;
    while (produced < out.size() && !ended_) {
        if (blockAt_ == block_.size()) {
            if (stopRequested())
                return Error::cancelled();
            auto more = nextBlock();
            if (!more)
                return std::move(more).error();
            if (!*more) {
                ended_ = true;
                break;
            }
        }
        const size_t n = std::min(out.size() - produced, block_.size() - blockAt_);
        std::memcpy(out.data() + produced, block_.data() + blockAt_, n);
        blockAt_ += n;
        produced += n;
    }
    return produced;
}

} // namespace asc
