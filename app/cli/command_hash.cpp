// SPDX-License-Identifier: MIT
// `hash SPEC [--algo A] [--json]`: `HASH  path` for every regular file below SPEC, as sha256sum
// prints it, so `sha256sum -c` checks an extraction of SPEC. One pass over the container (a
// tar.gz is decoded once); a hardlink is a regular file once extracted and prints its target's hash.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "entry_format.h"
#include "io/byte_text.h"
#include "open/spec.h"
#include "vfs/path_text.h"
#include "open/deep_walk.h"
#include "walk_target.h"

#include <QCryptographicHash>
#include <QHash>
#include <functional>
#include <memory>
#include <zlib.h>

namespace asc::cli {

namespace {

// One running digest; crc32 is zlib's (as `crc32` and 7-Zip print it), the rest Qt's.
class Digest {
public:
    static std::unique_ptr<Digest> make(const QString &algo)
    {
        static const QHash<QString, QCryptographicHash::Algorithm> known = {
            {QStringLiteral("md5"), QCryptographicHash::Md5}, {QStringLiteral("sha1"), QCryptographicHash::Sha1}, {QStringLiteral("sha256"), QCryptographicHash::Sha256}, {QStringLiteral("sha512"), QCryptographicHash::Sha512}, {QStringLiteral("blake2b"), QCryptographicHash::Blake2b_512}};
        if (algo == QLatin1String("crc32"))
            return std::unique_ptr<Digest>(new Digest(std::nullopt));
        auto it = known.constFind(algo);
        if (it == known.constEnd())
            return {};
        return std::unique_ptr<Digest>(new Digest(*it));
    }
    void add(const char *data, size_t size)
    {
        if (hash_) {
            hash_->addData(QByteArrayView(data, qsizetype(size)));
            return;
        }
        while (size > 0) {
            const uInt piece = uInt(std::min<size_t>(size, 1u << 30));
            crc_ = ::crc32(crc_, reinterpret_cast<const Bytef *>(data), piece);
            data += piece;
            size -= piece;
        }
    }
    QByteArray hex()
    {
        if (hash_) {
            QByteArray result = hash_->result().toHex();
            hash_->reset();
            return result;
        }
        const QByteArray result = QByteArray::number(qulonglong(crc_), 16).rightJustified(8, '0');
        crc_ = ::crc32(0, nullptr, 0);
        return result;
    }

private:
    explicit Digest(std::optional<QCryptographicHash::Algorithm> algo)
    {
        if (algo)
            hash_.emplace(*algo);
        crc_ = ::crc32(0, nullptr, 0);
    }
    std::optional<QCryptographicHash> hash_;
    uLong crc_ = 0;
};

constexpr size_t kChunk = 1 << 20;

// sha256sum's line: a name with a backslash or a newline is escaped and the line starts with '\'.
QByteArray checksumLine(const QByteArray &hex, const QByteArray &path)
{
    if (!path.contains('\\') && !path.contains('\n'))
        return hex + "  " + path + '\n';
    QByteArray escaped = path;
    escaped.replace("\\", "\\\\").replace("\n", "\\n");
    return '\\' + hex + "  " + escaped + '\n';
}

QByteArray jsonLine(const QString &algo, const QByteArray &hex, const QByteArray &path, uint64_t size)
{
    QByteArray out = "{\"path\":";
    const bool valid = isValidUtf8(path);
    appendJsonString(out, valid ? path : pathText(path).toUtf8());
    if (!valid)
        out += ",\"path_hex\":\"" + path.toHex() + '"';
    out += ",\"algo\":\"" + algo.toLatin1() + "\",\"hash\":\"" + hex + "\",\"size\":" + QByteArray::number(qulonglong(size)) + "}\n";
    return out;
}

} // namespace

int runHash(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("hash"),
                     QStringLiteral("Print 'HASH  path' for every regular file below SPEC, recursively, as sha256sum prints it\n"
                                    "(so `sha256sum -c` checks an extraction of SPEC). A hardlink prints its target's hash.\n"
                                    "An entry that cannot be read is reported on stderr and the others go on (exit 1)."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("an archive, a disk image, a directory inside one, or one file"));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("algo"), QStringLiteral("crc32, md5, sha1, sha256 (default), sha512 or blake2b (BLAKE2b-512, as b2sum)."),
                      QStringLiteral("ALGO"), QStringLiteral("sha256")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON Lines: {\"path\", \"algo\", \"hash\", \"size\"} per file.")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = parser.positionalArguments().first();
    const QString algo = parser.value(QStringLiteral("algo")).toLower();
    std::unique_ptr<Digest> digest = Digest::make(algo);
    if (!digest)
        return usage(QStringLiteral("hash: unknown --algo '%1' (crc32, md5, sha1, sha256, sha512, blake2b)").arg(algo));
    const bool json = parser.isSet(QStringLiteral("json"));

    auto location = resolve(spec);
    if (!location)
        return fail(spec, location.error());
    std::unique_ptr<char[]> buffer(new char[kChunk]);
    bool pipeClosed = false;
    std::optional<Error> writeError;
    auto emit = [&](const QByteArray &hex, const QByteArray &path, uint64_t size) {
        const QByteArray line = json ? jsonLine(algo, hex, path, size) : checksumLine(hex, path);
        auto written = writeStdout(line.constData(), size_t(line.size()));
        if (!written)
            writeError = written.error();
        else if (!*written)
            pipeClosed = true;
        return written && *written;
    };

    auto target = walkTargetOf(*location, spec);
    if (!target)
        return fail(spec, target.error());
    if (target->singleFile) {
        // One file that holds no archive: its own bytes, under its name.
        const SourcePtr &source = location->source;
        uint64_t offset = 0;
        while (offset < source->size()) {
            auto got = source->readAt(offset, std::span(buffer.get(), std::min<uint64_t>(kChunk, source->size() - offset)));
            if (!got)
                return fail(spec, got.error());
            if (*got == 0)
                return fail(spec, Error::format(source->name(), offset, QStringLiteral("ends before its size")));
            digest->add(buffer.get(), *got);
            offset += *got;
        }
        emit(digest->hex(), location->entry->name(), offset);
        return writeError ? fail(spec, *writeError) : Success;
    }
    QHash<QByteArray, QByteArray> hashOf; // for hardlinks: "container:path" -> hash
    QHash<QByteArray, uint64_t> sizeOf;
    bool failedEntry = false;
    // The container's files, then those of the volumes it holds (partitions, logical volumes),
    // under the SPEC that reaches them ("p2!/rhel/root!/etc/fstab").
    WalkFilesOptions options;
    options.cannotOpen = [&](const Error &error) {
        failedEntry = true;
        reportProblemLine(error);
    };
    const auto visit = [&](const ContainerPtr &container, const Entry &entry, const QByteArray &path, const Container::ContentReader &read) -> Result<bool> {
        const bool carriesData = entry.type == EntryType::File || (entry.type == EntryType::Hardlink && entry.size > 0 && entry.size != kUnknown);
        if (entry.type == EntryType::Hardlink && !carriesData) {
            // Its target, in the same container.
            const QByteArray here = QByteArray::number(quintptr(container.get())) + ':';
            auto target = hashOf.constFind(here + entry.target);
            if (target == hashOf.constEnd()) {
                reportProblemLine(Error::format(container->source()->name() + QStringLiteral("!/") + bytesToText(entry.path), std::nullopt,
                                                QStringLiteral("hardlink to '%1', which holds no data here").arg(bytesToText(entry.target))));
                return true;
            }
            hashOf.insert(here + entry.path, *target);
            sizeOf.insert(here + entry.path, sizeOf.value(here + entry.target));
            return emit(*target, path, sizeOf.value(here + entry.target));
        }
        if (!carriesData)
            return true;
        uint64_t size = 0;
        for (;;) {
            auto got = read(std::span(buffer.get(), kChunk));
            if (!got) {
                digest->hex(); // reset
                failedEntry = true;
                reportProblemLine(got.error());
                // A damaged or encrypted entry: the others can still be read; a broken stream cannot go on.
                return got.error().onlyThisEntry();
            }
            if (*got == 0)
                break;
            digest->add(buffer.get(), *got);
            size += *got;
        }
        const QByteArray hex = digest->hex();
        const QByteArray here = QByteArray::number(quintptr(container.get())) + ':';
        hashOf.insert(here + entry.path, hex);
        sizeOf.insert(here + entry.path, size);
        return emit(hex, path, size);
    };
    auto walked = walkFiles(target->container, target->selection, visit, options);
    if (writeError)
        return fail(spec, *writeError);
    if (pipeClosed)
        return Success;
    if (!walked && !failedEntry)
        return fail(spec, walked.error());
    return failedEntry || !walked ? Failure : Success;
}

} // namespace asc::cli
