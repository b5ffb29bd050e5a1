// SPDX-License-Identifier: MIT
#pragma once
// LEB128 varints and the deltas built on them, for the compact encodings (a listing, an index's
// header offsets): small numbers take a byte, and a reader over untrusted bytes never runs past
// its end (it stops, and says so with ok()).

#include <QByteArray>
#include <cstdint>

namespace asc::varint {

inline void put(QByteArray &out, uint64_t v)
{
    while (v >= 0x80) {
        out.append(char(uint8_t(v) | 0x80));
        v >>= 7;
    }
    out.append(char(v));
}

inline uint64_t zigzag(int64_t v)
{
    return (uint64_t(v) << 1) ^ uint64_t(v >> 63);
}

inline int64_t unzigzag(uint64_t v)
{
    return int64_t(v >> 1) ^ -int64_t(v & 1);
}

class Reader {
public:
    Reader() = default;
    Reader(const char *at, const char *end)
        : at_(reinterpret_cast<const uint8_t *>(at)),
          end_(reinterpret_cast<const uint8_t *>(end))
    {
    }
    uint64_t get()
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at_ == end_) {
                ok_ = false;
                return 0;
            }
            const uint8_t byte = *at_++;
            v |= uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return v;
        }
        ok_ = false; // more than ten bytes: not a varint we wrote
        return 0;
    }
    uint8_t byte()
    {
        if (at_ == end_) {
            ok_ = false;
            return 0;
        }
        return *at_++;
    }
    // `n` bytes as a view into the buffer (the caller copies); null and !ok() when fewer remain.
    const char *take(uint64_t n)
    {
        if (n > uint64_t(end_ - at_)) {
            fail();
            return nullptr;
        }
        const char *taken = reinterpret_cast<const char *>(at_);
        at_ += n;
        return taken;
    }
    void fail()
    {
        ok_ = false;
        at_ = end_;
    }
    bool ok() const { return ok_; }
    bool atEnd() const { return at_ == end_; }
    uint64_t remaining() const { return uint64_t(end_ - at_); }

private:
    const uint8_t *at_ = nullptr;
    const uint8_t *end_ = nullptr;
    bool ok_ = true;
};

// A sequence of offsets that may be unknown (UINT64_MAX), each written as its distance from the
// one before: 0 for unknown, else zigzag(delta) + 1.
class DeltaWriter {
public:
    void put(QByteArray &out, uint64_t value)
    {
        if (value == UINT64_MAX) {
            varint::put(out, 0);
            return;
        }
        varint::put(out, zigzag(int64_t(value - last_)) + 1);
        last_ = value;
    }

private:
    uint64_t last_ = 0;
};

class DeltaReader {
public:
    uint64_t get(Reader &in)
    {
        const uint64_t v = in.get();
        if (v == 0)
            return UINT64_MAX;
        last_ += uint64_t(unzigzag(v - 1));
        return last_;
    }

private:
    uint64_t last_ = 0;
};

} // namespace asc::varint
