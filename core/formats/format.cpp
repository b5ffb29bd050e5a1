// SPDX-License-Identifier: MIT
#include "format.h"

#include <QSet>
#include "formats/partitions/filesystem_magic.h"

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

BesideFiles besideFilesOf(std::span<const char> head, const QString &path)
{
    BesideFiles all;
    for (const Format &format : registeredFormats()) {
        if (!format.beside)
            continue;
        const BesideFiles one = format.beside(head, path);
        all.folder = all.folder || one.folder;
        if (all.companion.isEmpty())
            all.companion = one.companion;
    }
    return all;
}

bool nameSuggestsContainer(QByteArrayView name)
{
    // Made once: this runs for every entry of a tree the filter reads (a list built per call
    // was a third of a filter keystroke's time on 22,000 entries).
    static const std::vector<QByteArray> dottedSuffixes = [] {
        std::vector<QByteArray> all;
        for (const Format &format : registeredFormats()) {
            for (const QString &suffix : format.suffixes)
                all.push_back('.' + suffix.toLatin1());
        }
        return all;
    }();
    // The name's last suffix first: most names (".txt", ".h") end in none of ours, and walking
    // the whole list for each of a million names held the window 50 ms per slice.
    static const QSet<QByteArray> lastParts = [] {
        QSet<QByteArray> parts;
        for (const QByteArray &dotted : dottedSuffixes)
            parts.insert(dotted.mid(dotted.lastIndexOf('.') + 1));
        return parts;
    }();
    const qsizetype dot = name.lastIndexOf('.');
    if (dot < 0 || !lastParts.contains(name.sliced(dot + 1).toByteArray()))
        return false;
    for (const QByteArray &dotted : dottedSuffixes) {
        if (name.size() > dotted.size() && name.endsWith(dotted))
            return true;
    }
    return false;
}

QStringList containerNameGlobs()
{
    QStringList globs;
    for (const Format &format : registeredFormats()) {
        for (const QString &suffix : format.suffixes)
            globs << QStringLiteral("*.") + suffix;
    }
    globs.removeDuplicates();
    return globs;
}

// Magic near the start settles most files from one small read; a one-file lookup in a big
// archive should not pay for the wider probes.
static constexpr size_t kQuickProbeBytes = 4096;

Result<const Format *> probeFormat(const SourcePtr &source)
{
    if (source->opaque())
        return nullptr;
    for (const bool quick : {true, false}) {
        auto head = readHead(*source, quick ? kQuickProbeBytes : kProbeBytes);
        if (!head)
            return std::move(head).error();
        const ProbeInput input{source, std::span<const char>(head->constData(), size_t(head->size())), quick};
        const Format *best = nullptr;
        int bestScore = 0;
        for (const Format &format : registeredFormats()) {
            const int score = format.probe(input);
            if (score > bestScore) {
                best = &format;
                bestScore = score;
            }
            if (bestScore >= kConclusiveScore)
                return best;
        }
        if (!quick)
            return best;
    }
    return nullptr;
}

// Images nest (a qcow2 whose backing is raw is still one image); a chain deeper than this is hostile.
static constexpr int kMaxImageNesting = 8;

namespace {
struct Unwrapped {
    SourcePtr source;
    const Format *format; // what the innermost source probed as (never an image), or nullptr
    // The innermost image could not be read for want of its password (a LUKS volume): it is
    // still the source (it describes itself), and this is what opening it says.
    std::optional<Error> locked;
};
} // namespace

static Result<Unwrapped> unwrapAndProbe(SourcePtr source)
{
    for (int depth = 0; depth < kMaxImageNesting; ++depth) {
        auto format = probeFormat(source);
        if (!format && depth > 0 && format.error().kind == ErrorKind::Password)
            return Unwrapped{std::move(source), nullptr, format.error()};
        if (!format)
            return std::move(format).error();
        if (!*format || !(*format)->openImage)
            return Unwrapped{std::move(source), *format};
        auto disk = (*format)->openImage(source);
        if (!disk)
            return std::move(disk).error();
        source = std::move(disk).value();
    }
    return Error::format(source->name(), std::nullopt, QStringLiteral("disk images nested too deeply"));
}

Result<SourcePtr> unwrapImages(SourcePtr source)
{
    auto unwrapped = unwrapAndProbe(std::move(source));
    if (!unwrapped)
        return std::move(unwrapped).error();
    return std::move(unwrapped->source);
}

Result<ContainerPtr> openContainer(SourcePtr source)
{
    // One probe per layer: probing the innermost source again would read its head twice.
    auto unwrapped = unwrapAndProbe(std::move(source));
    if (!unwrapped)
        return std::move(unwrapped).error();
    if (unwrapped->locked)
        return *unwrapped->locked;
    if (unwrapped->source->opaque()) {
        const QString held = detectFilesystem(*unwrapped->source);
        if (filesystemNotRead(held))
            return Error::make(ErrorKind::Unsupported, unwrapped->source->name(),
                               QStringLiteral("holds %1, which ArchiveScope does not open yet (cat reads its bytes)").arg(held));
        return Error::format(unwrapped->source->name(), std::nullopt,
                             QStringLiteral("an extended partition: the logical partitions it holds are listed beside it (p5, p6, ...)"));
    }
    if (!unwrapped->format || !unwrapped->format->openContainer)
        return Error::format(unwrapped->source->name(), std::nullopt,
                             QStringLiteral("not a recognised archive or disk image"));
    return unwrapped->format->openContainer(std::move(unwrapped->source));
}

} // namespace asc
