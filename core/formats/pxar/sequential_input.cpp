// SPDX-License-Identifier: MIT
#include "sequential_input.h"

#include <cstring>

namespace asc::pxar {

Result<std::unique_ptr<ReadAheadInput>> ReadAheadInput::create(SourcePtr source, size_t capacity, int depth, uint64_t start, bool otherCore)
{
    AsyncOptions options;
    options.queueDepth = capacity == 0 ? 1 : std::max(1, depth);
    if (otherCore)
        useOtherCore(options, capacity);
    auto reader = AsyncReader::create(source, options);
    if (!reader)
        return std::move(reader).error();
    return std::unique_ptr<ReadAheadInput>(new ReadAheadInput(std::move(source), std::move(reader).value(), capacity, options.queueDepth, start));
}

ReadAheadInput::ReadAheadInput(SourcePtr source, std::unique_ptr<AsyncReader> reader, size_t capacity, int depth, uint64_t start)
    : source_(std::move(source)),
      reader_(std::move(reader)),
      capacity_(capacity),
      position_(start)
{
    if (capacity_ > 0) {
        chunks_.resize(size_t(depth));
        memory_.reset(new char[capacity_ * size_t(depth)]);
        for (size_t i = 0; i < chunks_.size(); ++i)
            chunks_[i].bytes = memory_.get() + i * capacity_;
        restartAt(start);
    }
}

ReadAheadInput::~ReadAheadInput()
{
    reader_->drain(); // the kernel still writes into our chunks until then
}

void ReadAheadInput::submit(Chunk &chunk, uint64_t offset)
{
    chunk.offset = offset;
    chunk.length = 0;
    chunk.done = false;
    chunk.error.reset();
    if (offset >= source_->size()) {
        chunk.done = true;
        return;
    }
    ++reads_;
    reader_->readAt(offset, std::span(chunk.bytes, capacity_), [&chunk](Result<size_t> r) {
        chunk.done = true;
        if (r)
            chunk.length = *r;
        else
            chunk.error = r.error();
    });
}

void ReadAheadInput::restartAt(uint64_t offset)
{
    reader_->drain();
    head_ = 0;
    nextSubmit_ = offset; // chunks start where reading starts
    for (Chunk &c : chunks_) {
        submit(c, nextSubmit_);
        nextSubmit_ += capacity_;
    }
}

Result<ReadAheadInput::Chunk *> ReadAheadInput::current()
{
    for (;;) {
        if (position_ >= nextSubmit_ && position_ < source_->size()) {
            restartAt(position_); // a long skip past everything in flight: start over there
            continue;
        }
        Chunk &c = chunks_[head_];
        while (!c.done)
            reader_->reap(true);
        if (c.error)
            return *c.error;
        if (position_ >= c.offset && position_ < c.offset + c.length)
            return &c;
        if (position_ < c.offset || c.length < capacity_ || c.offset >= source_->size()) {
            if (position_ >= source_->size())
                return static_cast<Chunk *>(nullptr);
            restartAt(position_); // moved outside the window (a long skip): start over there
            continue;
        }
        // This chunk is consumed: reuse it for the next offset, move to the following one.
        submit(c, nextSubmit_);
        nextSubmit_ += capacity_;
        head_ = (head_ + 1) % chunks_.size();
    }
}

Result<size_t> ReadAheadInput::read(std::span<char> out)
{
    if (out.empty() || position_ >= source_->size())
        return size_t(0);
    if (capacity_ == 0) {
        ++reads_;
        auto got = reader_->await(reader_->read(position_, out));
        if (got)
            position_ += *got;
        return got;
    }
    auto chunk = current();
    if (!chunk)
        return std::move(chunk).error();
    if (!*chunk)
        return size_t(0);
    const size_t at = size_t(position_ - (*chunk)->offset);
    const size_t n = std::min(out.size(), (*chunk)->length - at);
    std::memcpy(out.data(), (*chunk)->bytes + at, n);
    position_ += n;
    return n;
}

Result<std::span<const char>> ReadAheadInput::readView(size_t max)
{
    if (max == 0 || position_ >= source_->size())
        return std::span<const char>();
    if (capacity_ == 0) {
        scratch_.resize(max);
        auto got = read(scratch_);
        if (!got)
            return std::move(got).error();
        return std::span<const char>(scratch_.data(), *got);
    }
    auto chunk = current();
    if (!chunk)
        return std::move(chunk).error();
    if (!*chunk)
        return std::span<const char>();
    const size_t at = size_t(position_ - (*chunk)->offset);
    const size_t n = std::min(max, (*chunk)->length - at);
    position_ += n;
    return std::span<const char>((*chunk)->bytes + at, n);
}

Result<void> ReadAheadInput::readExact(std::span<char> out)
{
    const uint64_t startedAt = position_;
    size_t done = 0;
    while (done < out.size()) {
        auto got = read(out.subspan(done));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return Error::format(source_->name(), startedAt, QStringLiteral("unexpected end of data: wanted %1 bytes, %2 available").arg(out.size()).arg(done));
        done += *got;
    }
    return {};
}

Result<void> ReadAheadInput::skip(uint64_t n)
{
    if (position_ + n > source_->size() || position_ + n < position_)
        return Error::format(source_->name(), position_, QStringLiteral("cannot skip %1 bytes: only %2 left").arg(n).arg(source_->size() - std::min(position_, source_->size())));
    position_ += n;
    return {};
}

} // namespace asc::pxar
