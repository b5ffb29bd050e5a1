// SPDX-License-Identifier: MIT
#include "archive_format.h"

#include "index_cache.h"

#include "archive_container.h"
#include "compression_magic.h"
#include "seven_zip_tool.h"
#include "codecs/filter_chain.h"
#include "vfs/problems.h"

#include <archive.h>
#include <cstring>

namespace asc {

// tar pads an archive to 10 KiB records (20 blocks); an empty one is at most two of them.
static constexpr uint64_t kTarPadding = 20480;

// Whether the file, decoded by our filters, is longer than `limit` bytes: a compressed stream of
// zeros (a .gz of an empty disk) starts like an empty tar, but it is a file of zeros.
static bool decodesBeyond(const SourcePtr &source, uint64_t limit)
{
    auto decoded = openDecoded(source);
    if (!decoded || decoded->filters.isEmpty())
        return false;
    std::vector<char> scratch(64 << 10);
    uint64_t total = 0;
    while (total <= limit) {
        auto got = decoded->stream->read(scratch);
        if (!got || *got == 0)
            return false;
        total += *got;
    }
    return true;
}

static int probeArchive(const ProbeInput &input)
{
    if (input.head.empty() || input.quick)
        return 0;
    // A probe only asks; what the archive's entries have to say is reported when it is read.
    const ProblemScope quiet([](const Error &) {});
    // A compressed tar with an index of its current bytes is one: nothing to decode to know it.
    if (hasCompressionMagic(QByteArrayView(input.head.data(), qsizetype(input.head.size()))) && index_cache::load(*input.source))
        return 50;
    // libarchive's bidders read only the first bytes (and a zip's end record): cheap enough.
    auto reader = LibarchiveReader::open(input.source, LibarchiveReader::Mode::Archives);
    if (!reader)
        return 0;
    Entry first;
    auto any = (*reader)->next(first);
    const int base = (*reader)->formatCode() & ARCHIVE_FORMAT_BASE_MASK;
    // No format chose it: a bidder failed on the decoded text (libarchive's mtree bidder stops at
    // a line longer than it reads, "Line too long"). Whatever the text is, it is no archive: a
    // compressed stream is then one file.
    if (!any && base == 0)
        return 0;
    // Two zero blocks are a valid empty tar, and so is the start of every blank disk: an "empty
    // tar" larger than tar's own padding is not one. Other empty archives (zip, 7z, rar, cpio)
    // carry their own signature and are empty archives.
    if (any && !*any && base == ARCHIVE_FORMAT_TAR && (input.source->size() > kTarPadding || decodesBeyond(input.source, kTarPadding)))
        return 0;
    // A compressed stream that decodes to nothing is one empty file (the single-stream format),
    // not an empty archive.
    if (base == ARCHIVE_FORMAT_EMPTY && (*reader)->decompresses())
        return 0;
    // libarchive's mtree bidder takes almost any line of text for a manifest: only a file that
    // says it is one (the "#mtree" signature) or is named so counts.
    if (base == ARCHIVE_FORMAT_MTREE) {
        const QByteArrayView head(input.head.data(), qsizetype(input.head.size()));
        if (!head.startsWith("#mtree") && !input.source->name().endsWith(QLatin1String(".mtree"), Qt::CaseInsensitive))
            return 0;
    }
    return 50;
}

static int probeCompressed(const ProbeInput &input)
{
    if (input.head.empty() || input.quick)
        return 0;
    // A compression magic settles it: a damaged stream then fails to open with its decoder's
    // error and offset, not as an unknown format.
    if (hasCompressionMagic(QByteArrayView(input.head.data(), qsizetype(input.head.size()))))
        return 30;
    const ProblemScope quiet([](const Error &) {});
    auto reader = LibarchiveReader::open(input.source, LibarchiveReader::Mode::SingleCompressed);
    return reader && !(*reader)->filterNames().isEmpty() ? 30 : 0;
}

// An encrypted 7z goes to 7-Zip (formats/archive/seven_zip_tool.h); a plain one stays with libarchive.
static int probeEncrypted7z(const ProbeInput &input)
{
    static constexpr char kMagic[] = {'7', 'z', '\xbc', '\xaf', '\x27', '\x1c'};
    if (input.quick || input.head.size() < sizeof kMagic || std::memcmp(input.head.data(), kMagic, sizeof kMagic) != 0)
        return 0;
    return sevenZipNeedsTool(input.source) ? 70 : 0;
}

std::vector<Format> archiveFormats()
{
    std::vector<Format> formats;
    Format encrypted7z;
    encrypted7z.name = QStringLiteral("7z-encrypted");
    encrypted7z.description = QStringLiteral("7z with AES-256 encrypted content or names, read by 7-Zip's 7zz in a jail");
    encrypted7z.mimeTypes = {QStringLiteral("application/x-7z-compressed")};
    encrypted7z.suffixes = {QStringLiteral("7z")};
    encrypted7z.probe = probeEncrypted7z;
    encrypted7z.openContainer = [](SourcePtr source) { return SevenZipToolContainer::open(std::move(source)); };
    formats.push_back(std::move(encrypted7z));

    Format archive;
    archive.name = QStringLiteral("archive");
    archive.description = QStringLiteral("archives libarchive reads");
    archive.mimeTypes = {
        QStringLiteral("application/x-tar"),
        QStringLiteral("application/x-compressed-tar"),
        QStringLiteral("application/x-bzip-compressed-tar"),
        QStringLiteral("application/x-xz-compressed-tar"),
        QStringLiteral("application/x-zstd-compressed-tar"),
        QStringLiteral("application/x-lz4-compressed-tar"),
        QStringLiteral("application/x-lzip-compressed-tar"),
        QStringLiteral("application/zip"),
        QStringLiteral("application/x-7z-compressed"),
        QStringLiteral("application/x-cd-image"),
        QStringLiteral("application/x-cpio"),
        QStringLiteral("application/x-archive"),
        QStringLiteral("application/x-xar"),
        QStringLiteral("application/vnd.ms-cab-compressed"),
        QStringLiteral("application/vnd.rar"),
        QStringLiteral("application/x-rar"),
        QStringLiteral("application/x-lha"),
        QStringLiteral("application/x-lzh-compressed"),
        QStringLiteral("application/java-archive"),
        QStringLiteral("application/vnd.debian.binary-package"),
        QStringLiteral("application/x-rpm"),
    };
    archive.variants = {
        {QStringLiteral("tar"), QStringLiteral("tar archives: ustar, pax, GNU, v7, with gzip, bzip2, xz, lzma, zstd, lz4, lzip, compress filters")},
        {QStringLiteral("zip"), QStringLiteral("ZIP archives incl. zip64 (read through the central directory)")},
        {QStringLiteral("7z"), QStringLiteral("7-Zip archives")},
        {QStringLiteral("iso9660"), QStringLiteral("ISO 9660 CD/DVD images with Rock Ridge and Joliet")},
        {QStringLiteral("cpio"), QStringLiteral("cpio archives: newc, odc, binary")},
        {QStringLiteral("ar"), QStringLiteral("Unix ar archives (static libraries, .deb)")},
        {QStringLiteral("xar"), QStringLiteral("xar archives")},
        {QStringLiteral("cab"), QStringLiteral("Microsoft Cabinet archives")},
        {QStringLiteral("rar"), QStringLiteral("RAR v4 and v5 archives (read only)")},
        {QStringLiteral("lha"), QStringLiteral("LHA/LZH archives")},
        {QStringLiteral("warc"), QStringLiteral("Web ARChive files")},
    };
    archive.suffixes = {QStringLiteral("tar"), QStringLiteral("tgz"), QStringLiteral("taz"), QStringLiteral("tbz"), QStringLiteral("tbz2"), QStringLiteral("tb2"), QStringLiteral("txz"), QStringLiteral("tlz"), QStringLiteral("tzst"), QStringLiteral("tlz4"), QStringLiteral("zip"), QStringLiteral("jar"), QStringLiteral("war"), QStringLiteral("ear"), QStringLiteral("aar"), QStringLiteral("apk"), QStringLiteral("whl"), QStringLiteral("epub"), QStringLiteral("xpi"), QStringLiteral("nupkg"), QStringLiteral("cbz"), QStringLiteral("7z"), QStringLiteral("cb7"), QStringLiteral("iso"), QStringLiteral("cpio"), QStringLiteral("a"), QStringLiteral("deb"), QStringLiteral("udeb"), QStringLiteral("rpm"), QStringLiteral("xar"), QStringLiteral("cab"), QStringLiteral("rar"), QStringLiteral("cbr"), QStringLiteral("lha"), QStringLiteral("lzh"), QStringLiteral("warc")};
    archive.probe = probeArchive;
    archive.openContainer = [](SourcePtr source) { return ArchiveContainer::open(std::move(source), LibarchiveReader::Mode::Archives); };
    formats.push_back(std::move(archive));

    Format compressed;
    compressed.name = QStringLiteral("compressed");
    compressed.description = QStringLiteral("a single compressed file (gz, bz2, xz, zst, lz4, lzip, Z) as one entry");
    compressed.mimeTypes = {
        QStringLiteral("application/gzip"),
        QStringLiteral("application/x-bzip"),
        QStringLiteral("application/x-xz"),
        QStringLiteral("application/zstd"),
        QStringLiteral("application/x-lz4"),
        QStringLiteral("application/x-lzip"),
        QStringLiteral("application/x-compress"),
    };
    compressed.suffixes = {QStringLiteral("gz"), QStringLiteral("bz2"), QStringLiteral("xz"), QStringLiteral("zst"), QStringLiteral("lz4"), QStringLiteral("lz"), QStringLiteral("lzma"), QStringLiteral("Z")};
    compressed.probe = probeCompressed;
    compressed.openContainer = [](SourcePtr source) { return ArchiveContainer::open(std::move(source), LibarchiveReader::Mode::SingleCompressed); };
    formats.push_back(std::move(compressed));
    return formats;
}

} // namespace asc
