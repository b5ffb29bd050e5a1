// SPDX-License-Identifier: MIT
#pragma once
// zstd decompression (libzstd's streaming decoder): every frame of the stream, with or without
// a recorded content size, skippable frames skipped; windows larger than 1 GiB are refused.

#include "filter_input.h"

struct ZSTD_DCtx_s;

namespace asc {

class ZstdStream final : public ByteStream {
public:
    // `chunk`: compressed bytes per read of the upstream.
    ZstdStream(StreamPtr upstream, QString where, size_t chunk = size_t(1) << 20);
    ~ZstdStream() override;
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return input_.upstream().consumed(); }

private:
    FilterInput input_;
    QString where_;
    ZSTD_DCtx_s *context_;
    FramePosition frame_;
};

} // namespace asc
