// SPDX-License-Identifier: MIT
#pragma once
// A window [start, start+length) of another source (a partition, an archive member stored uncompressed).

#include "byte_source.h"

namespace asc {

class SliceSource final : public ByteSource {
public:
    // The window is clamped to the parent's size.
    SliceSource(SourcePtr parent, uint64_t start, uint64_t length, QString name);

    uint64_t size() const override { return length_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return name_; }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override;
    uint64_t zeroRun(uint64_t offset) const override;
    bool opaque() const override { return opaque_; }
    void setOpaque(bool opaque) { opaque_ = opaque; }

    const SourcePtr &parent() const { return parent_; }
    uint64_t start() const { return start_; }

private:
    SourcePtr parent_;
    uint64_t start_;
    uint64_t length_;
    QString name_;
    bool opaque_ = false;
};

} // namespace asc
