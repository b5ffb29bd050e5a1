// SPDX-License-Identifier: MIT
#include "rar5_file_crypt.h"

#include <QByteArray>
#include <zlib.h>

namespace asc {

namespace {

// RAR 5.0 archive format (rarlab's technote): every block is CRC32, header size (vint), then
// that many header bytes: type, flags, [extra area size], [data size], type fields, extra area.
constexpr char kSignature[] = "Rar!\x1a\x07\x01\x00";
constexpr uint64_t kMaxHeader = 2u << 20; // the format's own limit
constexpr int kMaxBlocks = 64; // service blocks before a file block: comments, quick open, ...
enum BlockType : uint64_t { Main = 1,
                            File = 2,
                            Service = 3,
                            Encryption = 4,
                            End = 5 };
enum BlockFlag : uint64_t { HasExtra = 0x1,
                            HasData = 0x2 };
constexpr uint64_t kExtraCrypt = 1;

// A vint: 7 bits a byte, low first, high bit = more. False past `end` or over 10 bytes.
bool readVint(const char *&p, const char *end, uint64_t &value)
{
    value = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
        const auto byte = static_cast<unsigned char>(*p++);
        value |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

} // namespace

std::optional<bool> rar5FileIsEncrypted(const ByteSource &source, uint64_t offset)
{
    char signature[8];
    if (offset + 8 <= source.size() && source.readExact(offset, signature) && QByteArray(signature, 8) == QByteArray(kSignature, 8))
        offset += 8;
    for (int block = 0; block < kMaxBlocks; ++block) {
        char head[4 + 3]; // CRC and a header size under 2 MiB (three vint bytes)
        if (offset + sizeof head > source.size() || !source.readExact(offset, head))
            return std::nullopt;
        const char *p = head + 4, *end = head + sizeof head;
        uint64_t headerSize = 0;
        if (!readVint(p, end, headerSize) || headerSize == 0 || headerSize > kMaxHeader)
            return std::nullopt;
        const uint64_t sizeBytes = uint64_t(p - (head + 4));
        const uint64_t headerStart = offset + 4 + sizeBytes;
        if (headerStart + headerSize > source.size())
            return std::nullopt;
        QByteArray header(qsizetype(sizeBytes + headerSize), Qt::Uninitialized);
        if (!source.readExact(offset + 4, std::span(header.data(), size_t(header.size()))))
            return std::nullopt;
        const uint32_t stored = uint32_t(static_cast<unsigned char>(head[0])) | uint32_t(static_cast<unsigned char>(head[1])) << 8 |
                                uint32_t(static_cast<unsigned char>(head[2])) << 16 | uint32_t(static_cast<unsigned char>(head[3])) << 24;
        if (uint32_t(::crc32(0, reinterpret_cast<const Bytef *>(header.constData()), uInt(header.size()))) != stored)
            return std::nullopt;
        p = header.constData() + sizeBytes;
        end = header.constData() + header.size();
        uint64_t type = 0, flags = 0, extraSize = 0, dataSize = 0;
        if (!readVint(p, end, type) || !readVint(p, end, flags))
            return std::nullopt;
        if ((flags & HasExtra) && !readVint(p, end, extraSize))
            return std::nullopt;
        if ((flags & HasData) && !readVint(p, end, dataSize))
            return std::nullopt;
        if (type == End || type == Encryption)
            return std::nullopt;
        if (type == File) {
            if (extraSize == 0)
                return false;
            if (extraSize > uint64_t(end - p))
                return std::nullopt;
            const char *record = end - extraSize;
            while (record < end) {
                uint64_t recordSize = 0, recordType = 0;
                if (!readVint(record, end, recordSize) || recordSize == 0 || recordSize > uint64_t(end - record))
                    return std::nullopt;
                const char *next = record + recordSize;
                if (!readVint(record, next, recordType))
                    return std::nullopt;
                if (recordType == kExtraCrypt)
                    return true;
                record = next;
            }
            return false;
        }
        if (type != Main && type != Service)
            return std::nullopt;
        const uint64_t next = headerStart + headerSize + dataSize;
        if (next <= offset || next < dataSize) // no progress or an overflow
            return std::nullopt;
        offset = next;
    }
    return std::nullopt;
}

} // namespace asc
