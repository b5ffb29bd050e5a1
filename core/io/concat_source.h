// SPDX-License-Identifier: MIT
#pragma once
// Several sources read as one, end to end: the parts of a split archive (x.7z.001, x.7z.002, ...;
// x.z01 ... x.zip; x.part1.rar, ...), which their formats define as the concatenation of the parts.

#include "byte_source.h"

#include <vector>

namespace asc {

class ConcatSource final : public ByteSource {
public:
    ConcatSource(std::vector<SourcePtr> parts, QString name);

    uint64_t size() const override { return size_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return name_; }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override;
    const std::vector<SourcePtr> &parts() const { return parts_; }

private:
    // The part holding `offset` and where that part starts.
    std::pair<size_t, uint64_t> locate(uint64_t offset) const;

    std::vector<SourcePtr> parts_;
    std::vector<uint64_t> starts_; // each part's first byte in the whole
    uint64_t size_ = 0;
    QString name_;
};

} // namespace asc
