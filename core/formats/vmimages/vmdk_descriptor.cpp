// SPDX-License-Identifier: MIT
#include "vmdk_descriptor.h"

#include "io/file_source.h"
#include "formats/image/sibling_file.h"
#include "io/slice_source.h"
#include "vm_images.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <cstring>

namespace asc {

namespace {

struct Extent {
    QString kind; // FLAT, SPARSE, ZERO
    QString file;
    uint64_t start = 0; // in the virtual disk
    uint64_t length = 0;
    SourcePtr source; // null for ZERO
};

class DescriptorImage final : public DiskImage {
public:
    DescriptorImage(SourcePtr descriptor, std::vector<Extent> extents, uint64_t size, QString createType)
        : descriptor_(std::move(descriptor)),
          extents_(std::move(extents)),
          size_(size),
          createType_(std::move(createType)) {}
    uint64_t size() const override { return size_; }
    QString name() const override { return descriptor_->name(); }
    QString formatName() const override { return QStringLiteral("vmdk"); }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (offset >= size_)
            return size_t(0);
        const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
        size_t done = 0;
        while (done < want) {
            const Extent &e = extentAt(offset + done);
            const uint64_t in = offset + done - e.start;
            const size_t n = size_t(std::min<uint64_t>(e.length - in, want - done));
            if (!e.source) {
                std::memset(buf.data() + done, 0, n);
            } else {
                auto got = e.source->readAt(in, std::span(buf.data() + done, n));
                if (!got)
                    return std::move(got).error();
                std::memset(buf.data() + done + *got, 0, n - *got); // an extent file shorter than declared
            }
            done += n;
        }
        return done;
    }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override
    {
        if (offset >= size_)
            return std::nullopt;
        const Extent &e = extentAt(offset);
        if (!e.source)
            return std::nullopt;
        auto extent = e.source->fileExtent(offset - e.start);
        if (extent)
            extent->length = std::min(extent->length, e.length - (offset - e.start));
        return extent;
    }
    QJsonObject info() const override
    {
        QJsonArray list;
        for (const Extent &e : extents_)
            list.append(QJsonObject{{QStringLiteral("type"), e.kind}, {QStringLiteral("file"), e.file}, {QStringLiteral("start"), double(e.start)}, {QStringLiteral("length"), double(e.length)}});
        return {{QStringLiteral("format"), QStringLiteral("vmdk")}, {QStringLiteral("create_type"), createType_}, {QStringLiteral("virtual_size"), double(size_)}, {QStringLiteral("extents"), list}};
    }
    Result<std::vector<DiskExtent>> map(uint64_t start, uint64_t length) const override
    {
        std::vector<DiskExtent> out;
        for (const Extent &e : extents_) {
            const uint64_t from = std::max(start, e.start), to = std::min(start + length, e.start + e.length);
            if (from >= to)
                continue;
            if (auto image = std::dynamic_pointer_cast<const DiskImage>(e.source)) {
                auto inner = image->map(from - e.start, to - from);
                if (!inner)
                    return std::move(inner).error();
                for (DiskExtent x : *inner) {
                    x.start += e.start;
                    appendExtent(out, x);
                }
                continue;
            }
            DiskExtent x;
            x.start = from;
            x.length = to - from;
            x.present = true;
            x.data = e.source != nullptr;
            x.zero = !x.data;
            appendExtent(out, x);
        }
        return out;
    }

private:
    const Extent &extentAt(uint64_t offset) const
    {
        for (const Extent &e : extents_)
            if (offset < e.start + e.length)
                return e;
        return extents_.back();
    }
    SourcePtr descriptor_;
    std::vector<Extent> extents_;
    uint64_t size_;
    QString createType_;
};

} // namespace

bool looksLikeVmdkDescriptor(std::span<const char> head)
{
    static const char magic[] = "# Disk DescriptorFile";
    return head.size() >= sizeof magic - 1 && std::memcmp(head.data(), magic, sizeof magic - 1) == 0;
}

Result<std::shared_ptr<DiskImage>> openVmdkDescriptor(SourcePtr descriptor)
{
    const QString name = descriptor->name();
    if (descriptor->size() > (1 << 20))
        return Error::format(name, 0, QStringLiteral("VMDK descriptor larger than 1 MiB"));
    const auto *file = dynamic_cast<const FileSource *>(descriptor.get());
    if (!file)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("the extents of a VMDK descriptor inside a container are not followed"));
    QByteArray text(qsizetype(descriptor->size()), Qt::Uninitialized);
    if (auto read = descriptor->readExact(0, std::span(text.data(), size_t(text.size()))); !read)
        return std::move(read).error();
    static const QRegularExpression line(QStringLiteral("^(RW|RDONLY|NOACCESS)\\s+(\\d+)\\s+(FLAT|SPARSE|ZERO|VMFS|VMFSSPARSE)(?:\\s+\"([^\"]+)\"(?:\\s+(\\d+))?)?"));
    static const QRegularExpression type(QStringLiteral("^createType=\"([^\"]*)\""));
    std::vector<Extent> extents;
    uint64_t size = 0;
    QString createType;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString l = QString::fromUtf8(lines[i]).trimmed();
        if (auto t = type.match(l); t.hasMatch())
            createType = t.captured(1);
        auto m = line.match(l);
        if (!m.hasMatch())
            continue;
        Extent e;
        e.kind = m.captured(3);
        e.length = m.captured(2).toULongLong() * 512;
        e.start = size;
        if (e.length > (1ULL << 44) || size + e.length < size)
            return Error::format(name, std::nullopt, QStringLiteral("extent on line %1 is absurdly large").arg(i + 1));
        if (e.kind != QLatin1String("ZERO")) {
            e.file = m.captured(4);
            auto resolved = resolveSibling({*file, e.file, QStringLiteral("extent file"), std::nullopt});
            if (!resolved)
                return std::move(resolved).error();
            const QString canonical = std::move(resolved).value();
            auto opened = FileSource::open(canonical);
            if (!opened)
                return std::move(opened).error();
            SourcePtr source = std::move(opened).value();
            if (e.kind == QLatin1String("FLAT") || e.kind == QLatin1String("VMFS")) {
                const uint64_t offset = m.captured(5).toULongLong() * 512;
                e.source = std::make_shared<SliceSource>(source, offset, e.length, canonical);
            } else {
                auto sparse = openVmdk(source);
                if (!sparse)
                    return std::move(sparse).error();
                e.source = std::move(sparse).value();
            }
        }
        size += e.length;
        extents.push_back(std::move(e));
        if (extents.size() > 4096)
            return Error::format(name, std::nullopt, QStringLiteral("too many extents"));
    }
    if (extents.empty())
        return Error::format(name, 0, QStringLiteral("VMDK descriptor lists no extents"));
    return std::shared_ptr<DiskImage>(std::make_shared<DescriptorImage>(descriptor, std::move(extents), size, createType));
}

} // namespace asc
