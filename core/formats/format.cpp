#include "format.h"

#include "formats/archive/archive_format.h"
#include "formats/image/image_formats.h"

#include <vector>

namespace asc {

const std::vector<Format> &registeredFormats()
{
    static const std::vector<Format> formats = [] {
        std::vector<Format> all;
        for (auto &f : imageFormats())
            all.push_back(std::move(f));
        for (auto &f : archiveFormats())
            all.push_back(std::move(f));
        return all;
    }();
    return formats;
}

static Result<QByteArray> readHead(const ByteSource &source)
{
    QByteArray head(qsizetype(std::min<uint64_t>(kProbeBytes, source.size())), Qt::Uninitialized);
    auto got = source.readAt(0, std::span(head.data(), size_t(head.size())));
    if (!got)
        return std::move(got).error();
    head.truncate(qsizetype(*got));
    return head;
}

Result<const Format *> probeFormat(const SourcePtr &source)
{
    auto head = readHead(*source);
    if (!head)
        return std::move(head).error();
    const ProbeInput input{source, std::span<const char>(head->constData(), size_t(head->size()))};
    const Format *best = nullptr;
    int bestScore = 0;
    for (const Format &format : registeredFormats()) {
        const int score = format.probe(input);
        if (score > bestScore) {
            best = &format;
            bestScore = score;
        }
    }
    return best;
}

// Images nest (a qcow2 whose backing is raw is still one image); a chain deeper than this is hostile.
static constexpr int kMaxImageNesting = 8;

Result<SourcePtr> unwrapImages(SourcePtr source)
{
    for (int depth = 0; depth < kMaxImageNesting; ++depth) {
        auto format = probeFormat(source);
        if (!format)
            return std::move(format).error();
        if (!*format || !(*format)->openImage)
            return source;
        auto disk = (*format)->openImage(source);
        if (!disk)
            return std::move(disk).error();
        source = std::move(disk).value();
    }
    return Error::format(source->name(), std::nullopt, QStringLiteral("disk images nested too deeply"));
}

Result<ContainerPtr> openContainer(SourcePtr source)
{
    auto disk = unwrapImages(std::move(source));
    if (!disk)
        return std::move(disk).error();
    auto format = probeFormat(*disk);
    if (!format)
        return std::move(format).error();
    if (!*format || !(*format)->openContainer)
        return Error::format((*disk)->name(), std::nullopt,
                             QStringLiteral("not a recognised archive or disk image"));
    return (*format)->openContainer(std::move(disk).value());
}

} // namespace asc
