// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "pxar_accessor.h"

#include "io/byte_text.h"

#include "io/memory_source.h"
#include "io/slice_source.h"
#include "pxar_format.h"
#include "pxar_items.h"

namespace asc::pxar {

namespace {

// Reads a little at a time from positional reads, starting from bytes already in hand.
class WindowInput final : public SequentialInput {
public:
    WindowInput(SourcePtr source, uint64_t start, uint64_t windowOffset, const QByteArray *window)
        : source_(std::move(source)),
          position_(start),
          windowOffset_(windowOffset)
    {
        if (window)
            window_ = *window;
    }
    Result<size_t> read(std::span<char> out) override
    {
        if (out.empty() || position_ >= source_->size())
            return size_t(0);
        if (position_ < windowOffset_ || position_ >= windowOffset_ + uint64_t(window_.size())) {
            // Refill: one positional read of a window (or of the whole request, if larger).
            window_.resize(qsizetype(std::max<size_t>(Accessor::kWindow, out.size())));
            const TraceLayer layer("pxar entry");
            auto got = source_->readAt(position_, std::span(window_.data(), size_t(window_.size())));
            if (!got)
                return std::move(got).error();
            window_.resize(qsizetype(*got));
            windowOffset_ = position_;
            ++reads_;
            if (*got == 0)
                return size_t(0);
        }
        const size_t at = size_t(position_ - windowOffset_);
        const size_t n = std::min(out.size(), size_t(window_.size()) - at);
        memcpy(out.data(), window_.constData() + at, n);
        position_ += n;
        return n;
    }
    Result<void> readExact(std::span<char> out) override
    {
        size_t done = 0;
        const uint64_t startedAt = position_;
        while (done < out.size()) {
            auto got = read(out.subspan(done));
            if (!got)
                return std::move(got).error();
            if (*got == 0)
                return Error::format(source_->name(), startedAt, QStringLiteral("unexpected end of data"));
            done += *got;
        }
        return {};
    }
    Result<void> skip(uint64_t n) override
    {
        position_ += n;
        return {};
    }
    Result<std::span<const char>> readView(size_t max) override
    {
        scratch_.resize(max);
        auto got = read(scratch_);
        if (!got)
            return std::move(got).error();
        return std::span<const char>(scratch_.data(), *got);
    }
    uint64_t position() const override { return position_; }
    uint64_t size() const override { return source_->size(); }
    QString name() const override { return source_->name(); }
    uint64_t sourceReads() const override { return reads_; }

private:
    SourcePtr source_;
    uint64_t position_;
    uint64_t windowOffset_;
    QByteArray window_;
    std::vector<char> scratch_;
    uint64_t reads_ = 0;
};

} // namespace

Result<std::shared_ptr<Accessor>> Accessor::open(SourcePtr archive, SourcePtr payload)
{
    std::shared_ptr<Accessor> a(new Accessor(std::move(archive), std::move(payload)));
    const uint64_t size = a->archive_->size();
    if (size < 24)
        return Error::format(a->archive_->name(), 0, QStringLiteral("too small to be a pxar archive (%1 bytes)").arg(size));
    WindowInput in(a->archive_, 0, 0, nullptr);
    auto first = readHeader(in, size);
    if (!first)
        return std::move(first).error();
    if (first->type == kFormatVersion) {
        char raw[8];
        if (first->bodySize() != 8 || !in.readExact(raw))
            return Error::format(a->archive_->name(), 0, QStringLiteral("bad FORMAT_VERSION item"));
        a->version_ = le64(raw);
        if (a->version_ != 1 && a->version_ != 2)
            return Error::make(ErrorKind::Unsupported, a->archive_->name(), QStringLiteral("unsupported pxar format version %1").arg(a->version_), 0);
        if (a->version_ == 2 && !a->payload_)
            return Error::make(ErrorKind::Format, a->archive_->name(),
                               QStringLiteral("split pxar archive (format version 2): payload file missing (expected a .ppxar beside the .mpxar)"));
    } else if (first->type != kEntry && first->type != kEntryV1) {
        return Error::format(a->archive_->name(), 0, QStringLiteral("not a pxar archive: starts with %1").arg(QLatin1String(typeName(first->type))));
    }
    auto rootDir = a->directoryAt(size, 0);
    if (!rootDir)
        return std::move(rootDir).error();
    if (rootDir->entryStart != 0)
        return Error::format(a->archive_->name(), rootDir->goodbyeStart, QStringLiteral("the root directory does not start at offset 0 (truncated archive?)"));
    // The root's own metadata: skip FORMAT_VERSION and PRELUDE first.
    WindowInput root(a->archive_, 0, 0, nullptr);
    auto h = readHeader(root, rootDir->goodbyeStart);
    while (h && (h->type == kFormatVersion || h->type == kPrelude)) {
        if (!root.skip(h->bodySize()))
            break;
        h = readHeader(root, rootDir->goodbyeStart);
    }
    if (!h)
        return std::move(h).error();
    a->root_.path = "/";
    auto end = readEntry(root, *h, a->root_, rootDir->goodbyeStart + kHeaderSize);
    if (!end)
        return std::move(end).error();
    if (a->root_.kind != Kind::Directory)
        return Error::format(a->archive_->name(), h->offset, QStringLiteral("the archive root is not a directory"));
    a->root_.entryStart = 0;
    a->root_.entryEnd = size;
    return a;
}

Result<Directory> Accessor::directoryAt(uint64_t end, uint64_t lowerBound) const
{
    const QString name = archive_->name();
    if (end < 24 || end > archive_->size())
        return Error::format(name, end, QStringLiteral("directory end lies outside the archive"));
    char tail[24];
    if (auto read = archive_->readExact(end - 24, tail); !read)
        return std::move(read).error();
    const GoodbyeRow t{le64(tail), le64(tail + 8), le64(tail + 16)};
    if (t.hash != kGoodbyeTailMarker)
        return Error::format(name, end - 24, QStringLiteral("goodbye tail marker missing"));
    if (t.size > end - lowerBound || t.size < 40 || (t.size - 16) % 24)
        return Error::format(name, end - 24, QStringLiteral("goodbye table size %1 invalid").arg(t.size));
    Directory d;
    d.end = end;
    d.goodbyeStart = end - t.size;
    if (t.offset > d.goodbyeStart - lowerBound)
        return Error::format(name, end - 24, QStringLiteral("goodbye tail offset %1 points before the directory").arg(t.offset));
    d.entryStart = d.goodbyeStart - t.offset;
    QByteArray table(qsizetype(t.size), Qt::Uninitialized);
    const TraceLayer layer("pxar goodbye table");
    if (auto read = archive_->readExact(d.goodbyeStart, std::span(table.data(), size_t(table.size()))); !read)
        return std::move(read).error();
    if (le64(table.constData()) != kGoodbye || le64(table.constData() + 8) != t.size)
        return Error::format(name, d.goodbyeStart, QStringLiteral("goodbye table header does not match its tail"));
    const uint64_t n = (t.size - 16) / 24 - 1;
    d.rows.reserve(size_t(n));
    for (uint64_t i = 0; i < n; ++i) {
        const char *p = table.constData() + 16 + i * 24;
        GoodbyeRow row{le64(p), le64(p + 8), le64(p + 16)};
        // Children start after the directory's ENTRY and before its goodbye table.
        if (row.offset > d.goodbyeStart - d.entryStart || row.offset == 0)
            return Error::format(name, d.goodbyeStart + 16 + i * 24, QStringLiteral("goodbye row %1 points outside its directory").arg(i));
        d.rows.push_back(row);
    }
    return d;
}

Result<Directory> Accessor::directory(const PxarEntry &dir) const
{
    if (dir.kind != Kind::Directory)
        return Error::make(ErrorKind::Usage, archive_->name(), QStringLiteral("'%1' is not a directory").arg(bytesToText(dir.path)));
    return directoryAt(dir.entryEnd, dir.filenameOffset.value_or(0));
}

Result<PxarEntry> Accessor::decodeAt(uint64_t filenameOffset, uint64_t end, const QByteArray &parentPath, uint64_t expectedHash,
                                     uint64_t windowOffset, const QByteArray *window) const
{
    // Split-archive files carry goodbye sizes as if their content were inline: do not trust
    // `end` beyond the archive; decode forward instead.
    const uint64_t limit = std::min(end, archive_->size());
    WindowInput in(archive_, filenameOffset, windowOffset, window);
    auto h = readHeader(in, limit);
    if (!h)
        return std::move(h).error();
    if (h->type != kFilename)
        return Error::format(archive_->name(), filenameOffset, QStringLiteral("goodbye row does not point at a FILENAME"));
    auto name = readFilename(in, *h);
    if (!name)
        return std::move(name).error();
    if (nameHash(*name) != expectedHash)
        return Error::format(archive_->name(), filenameOffset, QStringLiteral("name '%1' does not match its goodbye hash").arg(bytesToText(*name)));
    PxarEntry e;
    e.path = (parentPath == "/" ? QByteArray() : parentPath) + '/' + *name;
    e.filenameOffset = filenameOffset;
    e.entryEnd = end;
    auto inner = readHeader(in, limit);
    if (!inner)
        return std::move(inner).error();
    if (inner->type == kHardlink) {
        QByteArray body(qsizetype(inner->bodySize()), Qt::Uninitialized);
        if (inner->bodySize() < 9 || !in.readExact(std::span(body.data(), size_t(body.size()))) || body.back() != '\0')
            return Error::format(archive_->name(), inner->offset, QStringLiteral("bad HARDLINK item"));
        e.kind = Kind::Hardlink;
        e.hardlinkOffset = le64(body.constData());
        e.target = body.mid(8, body.size() - 9);
        e.entryStart = inner->offset;
        return e;
    }
    auto entryEnd = readEntry(in, *inner, e, limit);
    if (!entryEnd)
        return std::move(entryEnd).error();
    e.entryStart = inner->offset;
    if (e.kind == Kind::File) {
        const SourcePtr &holder = e.contentInPayloadFile ? payload_ : archive_;
        if (!holder)
            return Error::format(archive_->name(), inner->offset, QStringLiteral("payload reference but no payload file"));
        const uint64_t contentAt = e.contentInPayloadFile ? e.contentOffset + kHeaderSize : e.contentOffset;
        if (contentAt > holder->size() || holder->size() - contentAt < e.size)
            return Error::format(holder->name(), e.contentOffset, QStringLiteral("content of '%1' (%2 bytes) lies past the end of the file").arg(bytesToText(e.path)).arg(e.size));
        if (e.contentInPayloadFile) {
            char raw[16];
            const TraceLayer layer("pxar payload");
            if (auto read = payload_->readExact(e.contentOffset, raw); !read)
                return std::move(read).error();
            if (le64(raw) != kPayload || le64(raw + 8) != e.size + kHeaderSize)
                return Error::format(payload_->name(), e.contentOffset, QStringLiteral("payload reference does not point at a PAYLOAD of %1 bytes").arg(e.size));
        }
    }
    return e;
}

Result<PxarEntry> Accessor::child(const Directory &dir, const GoodbyeRow &row, const QByteArray &parentPath) const
{
    return decodeAt(dir.goodbyeStart - row.offset, dir.goodbyeStart - row.offset + row.size, parentPath, row.hash, 0, nullptr);
}

Result<PxarEntry> Accessor::childFromWindow(const Directory &dir, const GoodbyeRow &row, const QByteArray &parentPath,
                                            uint64_t windowOffset, const QByteArray &window) const
{
    return decodeAt(dir.goodbyeStart - row.offset, dir.goodbyeStart - row.offset + row.size, parentPath, row.hash, windowOffset, &window);
}

Result<std::vector<PxarEntry>> Accessor::list(const PxarEntry &dir) const
{
    auto d = directory(dir);
    if (!d)
        return std::move(d).error();
    std::vector<PxarEntry> children;
    children.reserve(d->rows.size());
    for (const GoodbyeRow &row : d->rows) {
        auto c = child(*d, row, dir.path);
        if (!c)
            return std::move(c).error();
        children.push_back(std::move(c).value());
    }
    return children;
}

Result<std::optional<PxarEntry>> Accessor::lookup(const QByteArray &path) const
{
    PxarEntry current = root_;
    for (const QByteArray &part : path.split('/')) {
        if (part.isEmpty() || part == ".")
            continue;
        if (part == "..")
            return Error::make(ErrorKind::Usage, archive_->name(), QStringLiteral("'..' in a pxar path"));
        if (current.kind != Kind::Directory)
            return std::optional<PxarEntry>();
        auto d = directory(current);
        if (!d)
            return std::move(d).error();
        const uint64_t h = nameHash(part);
        // Binary search over the heap-ordered table; on equal hashes both subtrees may hold
        // the name (collisions exist), so search them all.
        std::optional<PxarEntry> found;
        std::vector<size_t> stack{0};
        while (!stack.empty() && !found) {
            const size_t i = stack.back();
            stack.pop_back();
            if (i >= d->rows.size())
                continue;
            const GoodbyeRow &row = d->rows[i];
            if (h < row.hash) {
                stack.push_back(2 * i + 1);
            } else if (h > row.hash) {
                stack.push_back(2 * i + 2);
            } else {
                auto c = child(*d, row, current.path);
                if (!c)
                    return std::move(c).error();
                if (c->path.mid(c->path.lastIndexOf('/') + 1) == part)
                    found = std::move(c).value();
                stack.push_back(2 * i + 1);
                stack.push_back(2 * i + 2);
            }
        }
        if (!found)
            return std::optional<PxarEntry>();
        current = std::move(*found);
    }
    return std::optional<PxarEntry>(std::move(current));
}

Result<PxarEntry> Accessor::resolveHardlink(const PxarEntry &link) const
{
    if (link.kind != Kind::Hardlink || !link.filenameOffset)
        return Error::make(ErrorKind::Usage, archive_->name(), QStringLiteral("not a hardlink"));
    if (link.hardlinkOffset == 0 || link.hardlinkOffset > *link.filenameOffset)
        return Error::format(archive_->name(), link.entryStart, QStringLiteral("hardlink offset points outside the archive"));
    const uint64_t at = *link.filenameOffset - link.hardlinkOffset;
    WindowInput in(archive_, at, 0, nullptr);
    auto h = readHeader(in, archive_->size());
    if (!h || h->type != kFilename)
        return Error::format(archive_->name(), at, QStringLiteral("hardlink target is not a FILENAME item"));
    auto name = readFilename(in, *h);
    if (!name)
        return std::move(name).error();
    auto target = decodeAt(at, archive_->size(), QByteArray("/"), nameHash(*name), 0, nullptr);
    if (!target)
        return std::move(target).error();
    if (target->kind != Kind::File)
        return Error::format(archive_->name(), at, QStringLiteral("hardlink target is not a regular file"));
    target->path = link.path;
    return target;
}

Result<SourcePtr> Accessor::content(const PxarEntry &file) const
{
    if (file.kind == Kind::Hardlink) {
        auto target = resolveHardlink(file);
        if (!target)
            return std::move(target).error();
        return content(*target);
    }
    if (file.kind != Kind::File)
        return Error::make(ErrorKind::Usage, archive_->name(), QStringLiteral("'%1' has no content").arg(bytesToText(file.path)));
    const SourcePtr &holder = file.contentInPayloadFile ? payload_ : archive_;
    const uint64_t at = file.contentInPayloadFile ? file.contentOffset + kHeaderSize : file.contentOffset;
    return SourcePtr(std::make_shared<SliceSource>(holder, at, file.size, archive_->name() + QStringLiteral("!") + bytesToText(file.path)));
}

} // namespace asc::pxar
