// SPDX-License-Identifier: MIT
#include "zip_packed_sizes.h"
#include "listed_path_key.h"

#include "io/little_endian.h"
#include "legacy_names.h"
#include "libarchive_reader.h"

#include <QHash>
#include <algorithm>

namespace asc {

namespace {
// A directory past this is not read for sizes (a million members take ~80 MiB).
constexpr uint64_t kMaxDirectory = uint64_t(512) << 20;
constexpr uint64_t kEocdSize = 22;
constexpr uint64_t kTail = kEocdSize + 0xFFFF; // the EOCD and the longest comment
constexpr uint64_t kRecordSize = 46;

bool readBytes(const ByteSource &source, uint64_t at, uint64_t n, QByteArray &out)
{
    out.resize(qsizetype(n));
    auto got = source.readAt(at, std::span(out.data(), size_t(n)));
    return got && *got == n;
}

} // namespace

std::optional<ZipPackedSizes> ZipPackedSizes::read(const ByteSource &source, const QByteArray &charset)
{
    const uint64_t size = source.size();
    if (size < kEocdSize)
        return std::nullopt;
    const uint64_t tailSize = std::min(size, kTail);
    QByteArray tail;
    if (!readBytes(source, size - tailSize, tailSize, tail))
        return std::nullopt;
    qsizetype at = tail.size() - qsizetype(kEocdSize);
    while (at >= 0 && le32(tail.constData() + at) != 0x06054b50)
        --at;
    if (at < 0)
        return std::nullopt;
    const char *eocd = tail.constData() + at;
    uint64_t count = le16(eocd + 10);
    uint64_t directorySize = le32(eocd + 12);
    uint64_t directoryEnd = size - tailSize + uint64_t(at);
    if (count == 0xFFFF || directorySize == 0xFFFFFFFF || le32(eocd + 16) == 0xFFFFFFFF) {
        QByteArray locator, record;
        if (directoryEnd < 20 || !readBytes(source, directoryEnd - 20, 20, locator) || le32(locator.constData()) != 0x07064b50)
            return std::nullopt;
        const uint64_t recordAt = le64(locator.constData() + 8);
        if (recordAt >= directoryEnd || !readBytes(source, recordAt, 56, record) || le32(record.constData()) != 0x06064b50)
            return std::nullopt;
        count = le64(record.constData() + 32);
        directorySize = le64(record.constData() + 40);
        directoryEnd = recordAt;
    }
    // The directory ends where its end record begins, whatever offset it names (a
    // self-extractor's stub before the zip shifts every offset it stores).
    if (directorySize > kMaxDirectory || directorySize > directoryEnd || count > directorySize / kRecordSize)
        return std::nullopt;
    QByteArray directory;
    if (!readBytes(source, directoryEnd - directorySize, directorySize, directory))
        return std::nullopt;
    ZipPackedSizes sizes;
    sizes.records_.reserve(size_t(count));
    const char *const begin = directory.constData();
    const uint64_t length = uint64_t(directory.size());
    uint64_t p = 0;
    for (uint64_t i = 0; i < count; ++i) {
        if (p + kRecordSize > length || le32(begin + p) != 0x02014b50)
            return std::nullopt;
        const char *r = begin + p;
        const uint64_t nameLength = le16(r + 28), extraLength = le16(r + 30), commentLength = le16(r + 32);
        if (p + kRecordSize + nameLength + extraLength + commentLength > length)
            return std::nullopt;
        Record record;
        record.packed = le32(r + 20);
        record.size = le32(r + 24);
        record.localOffset = le32(r + 42);
        const QByteArray name(r + kRecordSize, qsizetype(nameLength));
        const char *extra = r + kRecordSize + nameLength;
        uint64_t left = extraLength;
        while (left >= 4) {
            const uint16_t id = le16(extra);
            const uint64_t n = le16(extra + 2);
            if (n + 4 > left)
                break;
            const char *data = extra + 4;
            uint64_t dataLeft = n;
            if (id == 0x0001) { // zip64: the fields the record marks 0xFFFFFFFF, in this order
                for (uint64_t *field : {&record.size, &record.packed, &record.localOffset}) {
                    if (*field != 0xFFFFFFFF)
                        continue;
                    if (dataLeft < 8)
                        return std::nullopt;
                    *field = le64(data);
                    data += 8;
                    dataLeft -= 8;
                }
            } else if (id == 0x7075 && n > 5 && uint8_t(data[0]) == 1) { // Info-ZIP Unicode Path
                record.unicodeHash = listedPathKey(normaliseArchivePath(QByteArray(data + 5, qsizetype(n - 5))));
            }
            extra += 4 + n;
            left -= 4 + n;
        }
        record.nameHash = listedPathKey(normaliseArchivePath(decodeLegacyName(name, charset, true)));
        sizes.records_.push_back(record);
        p += kRecordSize + nameLength + extraLength + commentLength;
    }
    auto byName = [](const Record &a, const Record &b) {
        return a.nameHash != b.nameHash ? a.nameHash < b.nameHash : a.localOffset < b.localOffset;
    };
    std::sort(sizes.records_.begin(), sizes.records_.end(), byName);
    for (uint32_t i = 0; i < sizes.records_.size(); ++i) {
        if (sizes.records_[i].unicodeHash)
            sizes.byUnicode_.push_back(i);
    }
    std::sort(sizes.byUnicode_.begin(), sizes.byUnicode_.end(), [&](uint32_t a, uint32_t b) {
        const Record &x = sizes.records_[a], &y = sizes.records_[b];
        return x.unicodeHash != y.unicodeHash ? x.unicodeHash < y.unicodeHash : x.localOffset < y.localOffset;
    });
    return sizes;
}

void ZipPackedSizes::fill(Entry &entry)
{
    if (entry.type != EntryType::File)
        return;
    const uint64_t key = listedPathKey(entry.path);
    auto fits = [&](Record &r) {
        if (r.used || (entry.size != kUnknown && entry.size != r.size))
            return false;
        r.used = true;
        entry.compressedSize = r.packed;
        return true;
    };
    auto first = std::lower_bound(records_.begin(), records_.end(), key, [](const Record &r, uint64_t k) { return r.nameHash < k; });
    for (auto it = first; it != records_.end() && it->nameHash == key; ++it) {
        if (fits(*it))
            return;
    }
    auto u = std::lower_bound(byUnicode_.begin(), byUnicode_.end(), key, [&](uint32_t i, uint64_t k) { return records_[i].unicodeHash < k; });
    for (; u != byUnicode_.end() && records_[*u].unicodeHash == key; ++u) {
        if (fits(records_[*u]))
            return;
    }
}

} // namespace asc
