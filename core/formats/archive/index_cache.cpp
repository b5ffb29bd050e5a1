// SPDX-License-Identifier: MIT
#include "index_cache.h"

#include "io/atomic_file.h"
#include "io/byte_text.h"
#include "io/file_source.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cstdio>
#include <atomic>
#include <mutex>
#include <QHash>
#include <fcntl.h>
#include <sys/stat.h>

namespace asc::index_cache {

namespace {
// ARCHIVESCOPE_NO_INDEX=1 is --no-index for a whole session (the README's screenshots of a
// first pass).
std::atomic<bool> on{qEnvironmentVariable("ARCHIVESCOPE_NO_INDEX") != QLatin1String("1")};
constexpr uint64_t kEdge = 65536; // bytes hashed at each end of the file
constexpr uint64_t kMaxIndexBytes = uint64_t(256) << 20;
} // namespace

void setEnabled(bool enabled)
{
    on = enabled;
}

bool enabled()
{
    return on;
}

QString directory()
{
    const QString forced = qEnvironmentVariable("ARCHIVESCOPE_INDEX_DIR");
    if (!forced.isEmpty())
        return QDir::cleanPath(forced);
    QString cache = qEnvironmentVariable("XDG_CACHE_HOME");
    if (cache.isEmpty() || !QDir::isAbsolutePath(cache))
        cache = QDir::homePath() + QStringLiteral("/.cache");
    return QDir::cleanPath(cache + QStringLiteral("/archivescope/index"));
}

std::optional<QByteArray> identityOf(const ByteSource &source)
{
    const auto extent = source.fileExtent(0);
    struct stat st {};
    if (!extent || extent->length < source.size() || ::fstat(extent->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        extent->fileOffset + source.size() > uint64_t(st.st_size))
        return std::nullopt;
    QByteArray fileKey = QByteArray::number(quint64(st.st_dev)) + ':' + QByteArray::number(quint64(st.st_ino)) + ':' +
                         QByteArray::number(quint64(st.st_size)) + ':' + QByteArray::number(qint64(st.st_mtim.tv_sec)) + '.' +
                         QByteArray::number(qint64(st.st_mtim.tv_nsec));
    // A member stored as it is inside an uncompressed archive (a tar.gz in a tar, a .deb's
    // data.tar.xz) is that file's bytes from an offset: its own index, keyed by where it lies.
    if (extent->fileOffset != 0 || source.size() != uint64_t(st.st_size))
        fileKey += ":at:" + QByteArray::number(quint64(extent->fileOffset)) + '+' + QByteArray::number(quint64(source.size()));
    // The probe and the open of one file ask in turn: its ends are hashed once.
    static std::mutex mutex;
    static QHash<QByteArray, QByteArray> known;
    {
        const std::lock_guard lock(mutex);
        if (auto it = known.constFind(fileKey); it != known.constEnd())
            return *it;
    }
    QCryptographicHash edges(QCryptographicHash::Sha256);
    QByteArray buffer(qsizetype(std::min(kEdge, source.size())), Qt::Uninitialized);
    for (const uint64_t at : {uint64_t(0), source.size() - uint64_t(buffer.size())}) {
        auto got = source.readAt(at, std::span(buffer.data(), size_t(buffer.size())));
        if (!got || *got != size_t(buffer.size()))
            return std::nullopt;
        edges.addData(buffer);
    }
    const QByteArray identity = fileKey + ':' + edges.result().toHex();
    const std::lock_guard lock(mutex);
    if (known.size() > 64)
        known.clear();
    known.insert(fileKey, identity);
    return identity;
}

QString pathFor(const QByteArray &identity)
{
    return directory() + QLatin1Char('/') + QString::fromLatin1(QCryptographicHash::hash(identity, QCryptographicHash::Sha256).toHex()) + QStringLiteral(".idx");
}

bool isIndexPath(const QString &path)
{
    static const QRegularExpression name(QStringLiteral("^[0-9a-f]{64}\\.idx$"));
    const QFileInfo info(path);
    return QDir::cleanPath(info.absolutePath()) == directory() && name.match(info.fileName()).hasMatch();
}

namespace {
// The indexes loaded last (the probe, then the open, of one file): decoded once.
std::mutex loadedMutex;
std::vector<std::shared_ptr<const ArchiveIndex>> loaded;
} // namespace

std::shared_ptr<const ArchiveIndex> load(const ByteSource &source)
{
    if (!enabled())
        return nullptr;
    const auto identity = identityOf(source);
    if (!identity)
        return nullptr;
    {
        const std::lock_guard lock(loadedMutex);
        for (const auto &index : loaded) {
            if (index->identity == *identity)
                return index;
        }
    }
    const QString path = pathFor(*identity);
    auto file = FileSource::open(path);
    if (!file)
        return nullptr; // none yet (or not ours to read)
    if ((*file)->size() > kMaxIndexBytes) {
        notice(QStringLiteral("%1: index ignored: larger than %2 bytes").arg(path).arg(kMaxIndexBytes));
        return nullptr;
    }
    QByteArray bytes(qsizetype((*file)->size()), Qt::Uninitialized);
    auto got = (*file)->readAt(0, std::span(bytes.data(), size_t(bytes.size())));
    if (!got || *got != size_t(bytes.size()))
        return nullptr;
    auto index = decodeIndex(bytes, path);
    if (!index) {
        notice(QStringLiteral("%1: index ignored, the archive is read in full: %2").arg(path, index.error().message));
        return nullptr;
    }
    if (index->identity != *identity)
        return nullptr;
    ::utimensat(AT_FDCWD, nativePath(path).constData(), nullptr, 0); // used now (fails quietly in a worker: its parent touched it)
    auto shared = std::make_shared<const ArchiveIndex>(std::move(index).value());
    remember(shared);
    return shared;
}

void remember(std::shared_ptr<const ArchiveIndex> index)
{
    const std::lock_guard lock(loadedMutex);
    if (loaded.size() >= 2)
        loaded.erase(loaded.begin());
    loaded.push_back(std::move(index));
}

Result<QString> save(const ArchiveIndex &index)
{
    if (!enabled())
        return QString();
    const QString path = pathFor(index.identity);
    // In a worker its parent makes the folder and writes (checking that it is an index).
    QDir().mkpath(directory());
    auto written = writerIsParent() ? writeFileAtomically(path, encodeIndex(index)) : writeFileHere(path, encodeIndex(index), Durability::Cache);
    if (!written)
        return std::move(written).error();
    trim();
    return path;
}

void trim(uint64_t limit)
{
    QDir dir(directory());
    QFileInfoList files = dir.entryInfoList({QStringLiteral("*.idx")}, QDir::Files, QDir::Time | QDir::Reversed); // oldest first
    uint64_t total = 0;
    for (const QFileInfo &f : files)
        total += uint64_t(f.size());
    for (const QFileInfo &f : files) {
        if (total <= limit)
            break;
        if (QFile::remove(f.filePath()))
            total -= uint64_t(f.size());
    }
}

void notice(const QString &text)
{
    std::fprintf(stderr, "archivescope: note: %s\n", text.toLocal8Bit().constData());
}

Result<bool> drop(const ByteSource &source)
{
    const auto identity = identityOf(source);
    if (!identity)
        return Error::make(ErrorKind::Usage, source.name(), QStringLiteral("has no index: only a file of its own is indexed"));
    const QString path = pathFor(*identity);
    if (!QFileInfo::exists(path))
        return false;
    if (!QFile::remove(path))
        return Error::make(ErrorKind::System, path, QStringLiteral("cannot remove the index"));
    return true;
}

} // namespace asc::index_cache
