// SPDX-License-Identifier: MIT
#pragma once
// A plain file mapped into memory; reads are memcpy from the mapping.

#include "byte_source.h"

namespace asc {

class MmapSource final : public ByteSource {
public:
    static Result<std::shared_ptr<MmapSource>> open(const QString &path);
    ~MmapSource() override;
    MmapSource(const MmapSource &) = delete;
    MmapSource &operator=(const MmapSource &) = delete;

    uint64_t size() const override { return size_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return path_; }

    // The whole mapping (empty for a 0-byte file). Valid while this source lives.
    std::span<const char> bytes() const { return {data_, size_t(size_)}; }

private:
    MmapSource(QString path, const char *data, uint64_t size);
    QString path_;
    const char *data_;
    uint64_t size_;
};

} // namespace asc
