// SPDX-License-Identifier: MIT
#pragma once
// gzip decompression with ISA-L's igzip inflate (about three times zlib's speed): every member
// of a multi-member stream (pigz, bgzip, concatenated files), each member's CRC-32 and length
// checked. A damaged or truncated member is an error naming the member's offset.

#include "filter_input.h"

struct inflate_state;

namespace asc {

class GzipStream final : public ByteStream {
public:
    // `where` names the stream in errors (the file, or "FILE (inside xz)").
    // `chunk`: compressed bytes per read of the upstream.
    GzipStream(StreamPtr upstream, QString where, size_t chunk = size_t(1) << 20);
    ~GzipStream() override;
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return input_.upstream().consumed(); }

private:
    // No gzip header we accept is longer (a name or comment without its end is refused).
    static constexpr size_t kMaxHeader = size_t(1) << 20;
    Error fail(const QString &what) const;
    Result<void> wholeHeader(); // the member's header, all of it in the input buffer
    FilterInput input_;
    QString where_;
    std::unique_ptr<inflate_state> state_;
    uint64_t memberStart_ = 0;
    uint64_t memberOut_ = 0; // bytes out of the current member
    bool inMember_ = false;
    bool done_ = false;
};

} // namespace asc
