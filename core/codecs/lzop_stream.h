// SPDX-License-Identifier: MIT
#pragma once
// lzop decompression (liblzo2's LZO1X decoder): the file header (its checksum checked), then
// blocks of at most 64 MiB, each with the checksums the header's flags ask for (Adler-32 or
// CRC-32 of the decoded and of the compressed bytes) checked; lzop files one after another are
// read on. bsdtar decodes lzop through the external program, which a sandbox cannot run.

#include "filter_input.h"

#include <vector>

namespace asc {

class LzopStream final : public ByteStream {
public:
    LzopStream(StreamPtr upstream, QString where, size_t chunk = size_t(1) << 20);
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return input_.upstream().consumed(); }

    // lzop's own bound on a block's decoded size.
    static constexpr uint32_t kMaxBlock = 64u << 20;

private:
    Result<bool> readHeader(); // false at the end of the input
    Result<bool> nextBlock(); // false after the last block of the last file

    FilterInput input_;
    QString where_;
    uint32_t flags_ = 0;
    bool inFile_ = false;
    bool ended_ = false;
    uint64_t files_ = 0;
    std::vector<uint8_t> block_;
    size_t blockAt_ = 0;
};

} // namespace asc
