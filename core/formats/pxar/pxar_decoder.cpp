// SPDX-License-Identifier: MIT
#include "pxar_decoder.h"

#include "io/byte_text.h"

#include "pxar_format.h"

namespace asc::pxar {

Decoder::Decoder(std::unique_ptr<SequentialInput> archive, std::unique_ptr<SequentialInput> payload)
    : archive_(std::move(archive)),
      payload_(std::move(payload))
{
}

Result<void> Decoder::start(PxarEntry &root)
{
    const uint64_t limit = archive_->size();
    auto h = readHeader(*archive_, limit);
    if (!h)
        return std::move(h).error();
    if (h->type == kFormatVersion) {
        if (h->bodySize() != 8)
            return formatError(*archive_, h->offset, QStringLiteral("FORMAT_VERSION body must be 8 bytes"));
        char raw[8];
        if (auto read = archive_->readExact(raw); !read)
            return read;
        version_ = le64(raw);
        if (version_ != 1 && version_ != 2)
            return Error::make(ErrorKind::Unsupported, archive_->name(), QStringLiteral("unsupported pxar format version %1").arg(version_), h->offset);
        h = readHeader(*archive_, limit);
        if (!h)
            return std::move(h).error();
        if (h->type == kPrelude) {
            prelude_.resize(qsizetype(h->bodySize()));
            if (auto read = archive_->readExact(std::span(prelude_.data(), size_t(prelude_.size()))); !read)
                return read;
            h = readHeader(*archive_, limit);
            if (!h)
                return std::move(h).error();
        }
    }
    if (h->type != kEntry && h->type != kEntryV1)
        return formatError(*archive_, h->offset, QStringLiteral("not a pxar archive: starts with %1").arg(QLatin1String(typeName(h->type))));
    if (payload_) {
        auto start = readHeader(*payload_, payload_->size());
        if (!start || start->type != kPayloadStartMarker)
            return formatError(*payload_, 0, QStringLiteral("payload file does not start with PAYLOAD_START_MARKER"));
    }
    root.path = "/";
    auto end = readEntry(*archive_, *h, root, limit);
    if (!end)
        return std::move(end).error();
    root.entryStart = 0;
    if (root.kind != Kind::Directory)
        return formatError(*archive_, h->offset, QStringLiteral("the archive root is not a directory"));
    directories_.push_back(QByteArray());
    pending_ = end->next;
    return {};
}

Result<void> Decoder::finishPendingContent()
{
    if (contentLeft_ && contentInput_) {
        if (auto skipped = contentInput_->skip(contentLeft_); !skipped)
            return skipped;
    }
    contentLeft_ = 0;
    contentInput_ = nullptr;
    return {};
}

Result<void> Decoder::openPayload(const PxarEntry &file)
{
    if (!payload_)
        return Error::make(ErrorKind::Format, archive_->name(),
                           QStringLiteral("'%1' keeps its content in a payload file (.ppxar) that was not found").arg(bytesToText(file.path)));
    const uint64_t at = file.contentOffset;
    if (at < payload_->position())
        return formatError(*archive_, file.entryStart, QStringLiteral("payload reference %1 goes backwards (payload file already at %2)").arg(at).arg(payload_->position()));
    if (at > payload_->size() || payload_->size() - at < kHeaderSize + file.size)
        return formatError(*archive_, file.entryStart, QStringLiteral("payload reference %1+%2 lies past the end of the payload file").arg(at).arg(file.size));
    if (auto skipped = payload_->skip(at - payload_->position()); !skipped)
        return skipped;
    auto h = readHeader(*payload_, payload_->size());
    if (!h)
        return std::move(h).error();
    if (h->type != kPayload || h->bodySize() != file.size)
        return formatError(*payload_, at, QStringLiteral("payload reference does not point at a PAYLOAD of %1 bytes").arg(file.size));
    contentInput_ = payload_.get();
    contentLeft_ = file.size;
    return {};
}

Result<std::optional<PxarEntry>> Decoder::next()
{
    if (finished_)
        return std::optional<PxarEntry>();
    if (!started_) {
        started_ = true;
        PxarEntry root;
        if (auto ok = start(root); !ok)
            return std::move(ok).error();
        return std::optional<PxarEntry>(std::move(root));
    }
    if (auto ok = finishPendingContent(); !ok)
        return std::move(ok).error();
    const uint64_t limit = archive_->size();
    for (;;) {
        Header h;
        if (pending_) {
            h = *pending_;
            pending_.reset();
        } else {
            auto read = readHeader(*archive_, limit);
            if (!read)
                return std::move(read).error();
            h = *read;
        }
        if (h.type == kGoodbye) {
            if (auto skipped = archive_->skip(h.bodySize()); !skipped)
                return std::move(skipped).error();
            directories_.pop_back();
            if (directories_.empty()) {
                finished_ = true;
                if (archive_->position() != archive_->size())
                    return formatError(*archive_, archive_->position(), QStringLiteral("%1 bytes of trailing data after the root directory").arg(archive_->size() - archive_->position()));
                return std::optional<PxarEntry>();
            }
            continue;
        }
        if (h.type != kFilename)
            return formatError(*archive_, h.offset, QStringLiteral("expected FILENAME or GOODBYE in a directory, found %1").arg(QLatin1String(typeName(h.type))));
        auto name = readFilename(*archive_, h);
        if (!name)
            return std::move(name).error();
        PxarEntry e;
        e.path = directories_.back() + '/' + *name;
        e.filenameOffset = h.offset;
        auto inner = readHeader(*archive_, limit);
        if (!inner)
            return std::move(inner).error();
        if (inner->type == kHardlink) {
            if (inner->bodySize() < 9)
                return formatError(*archive_, inner->offset, QStringLiteral("HARDLINK body too short"));
            QByteArray body(qsizetype(inner->bodySize()), Qt::Uninitialized);
            if (auto read = archive_->readExact(std::span(body.data(), size_t(body.size()))); !read)
                return std::move(read).error();
            if (body.back() != '\0')
                return formatError(*archive_, inner->offset, QStringLiteral("hardlink target is not NUL-terminated"));
            e.kind = Kind::Hardlink;
            e.hardlinkOffset = le64(body.constData());
            e.target = body.mid(8, body.size() - 9);
            e.entryStart = inner->offset;
            if (e.hardlinkOffset == 0 || e.hardlinkOffset > h.offset)
                return formatError(*archive_, inner->offset, QStringLiteral("hardlink offset %1 does not point backwards into the archive").arg(e.hardlinkOffset));
            return std::optional<PxarEntry>(std::move(e));
        }
        auto end = readEntry(*archive_, *inner, e, limit);
        if (!end)
            return std::move(end).error();
        pending_ = end->next;
        if (e.kind == Kind::Directory) {
            directories_.push_back(e.path);
            if (directories_.size() > 4096)
                return formatError(*archive_, h.offset, QStringLiteral("directories nested more than 4096 deep"));
        } else if (e.kind == Kind::File) {
            if (e.contentInPayloadFile) {
                if (auto ok = openPayload(e); !ok)
                    return std::move(ok).error();
            } else {
                contentInput_ = archive_.get();
                contentLeft_ = e.size;
            }
        }
        return std::optional<PxarEntry>(std::move(e));
    }
}

Result<std::span<const char>> Decoder::readContentView(size_t max)
{
    if (!contentInput_ || contentLeft_ == 0)
        return std::span<const char>();
    auto view = contentInput_->readView(size_t(std::min<uint64_t>(max, contentLeft_)));
    if (!view)
        return view;
    if (view->empty())
        return formatError(*contentInput_, contentInput_->position(), QStringLiteral("file content truncated"));
    contentLeft_ -= view->size();
    return view;
}

Result<size_t> Decoder::readContent(std::span<char> out)
{
    if (!contentInput_ || contentLeft_ == 0)
        return size_t(0);
    const size_t want = size_t(std::min<uint64_t>(out.size(), contentLeft_));
    auto got = contentInput_->read(out.first(want));
    if (!got)
        return got;
    if (*got == 0)
        return formatError(*contentInput_, contentInput_->position(), QStringLiteral("file content truncated"));
    contentLeft_ -= *got;
    return got;
}

} // namespace asc::pxar
