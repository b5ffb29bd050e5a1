// SPDX-License-Identifier: MIT
#include "pxar_writer.h"

#include "io/byte_text.h"

#include "pxar_format.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QSaveFile>
#include <algorithm>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace asc::pxar {

namespace {

class Output {
public:
    explicit Output(const QString &path)
        : file_(path) {}
    Result<void> open()
    {
        if (!file_.open(QIODevice::WriteOnly))
            return Error::make(ErrorKind::System, file_.fileName(), file_.errorString());
        return {};
    }
    Result<void> write(const char *data, size_t size)
    {
        if (file_.write(data, qint64(size)) != qint64(size))
            return Error::make(ErrorKind::System, file_.fileName(), file_.errorString());
        position_ += size;
        return {};
    }
    Result<void> write(const QByteArray &bytes) { return write(bytes.constData(), size_t(bytes.size())); }
    Result<void> header(uint64_t type, uint64_t fullSize)
    {
        char raw[16];
        memcpy(raw, &type, 8);
        memcpy(raw + 8, &fullSize, 8);
        return write(raw, 16);
    }
    Result<void> item(uint64_t type, const QByteArray &body)
    {
        if (auto h = header(type, kHeaderSize + uint64_t(body.size())); !h)
            return h;
        return write(body);
    }
    Result<void> commit()
    {
        if (!file_.commit())
            return Error::make(ErrorKind::System, file_.fileName(), file_.errorString());
        return {};
    }
    uint64_t position() const { return position_; }

private:
    QSaveFile file_;
    uint64_t position_ = 0;
};

QByteArray u64(uint64_t v)
{
    return QByteArray(reinterpret_cast<const char *>(&v), 8);
}

QByteArray stat(const PxarEntry &m)
{
    QByteArray b;
    b += u64(m.mode);
    b += u64(m.flags);
    b += QByteArray(reinterpret_cast<const char *>(&m.uid), 4);
    b += QByteArray(reinterpret_cast<const char *>(&m.gid), 4);
    b += u64(uint64_t(m.mtimeSecs));
    b += QByteArray(reinterpret_cast<const char *>(&m.mtimeNanos), 4);
    b += QByteArray(4, '\0');
    return b;
}

struct Row {
    uint64_t hash;
    uint64_t filenameOffset;
    uint64_t size;
};

class Writer {
public:
    Writer(Output &archive, Output *payload)
        : archive_(archive),
          payload_(payload) {}

    Result<void> attributes(const PxarEntry &m)
    {
        for (const auto &[name, value] : m.xattrs)
            if (auto ok = archive_.item(kXattr, name + '\0' + value); !ok)
                return ok;
        auto pairs = [&](uint64_t type, std::vector<AclEntry> list) -> Result<void> {
            std::sort(list.begin(), list.end(), [](const AclEntry &a, const AclEntry &b) { return std::tie(a.id, a.permissions) < std::tie(b.id, b.permissions); });
            for (const AclEntry &a : list)
                if (auto ok = archive_.item(type, u64(a.id) + u64(a.permissions)); !ok)
                    return ok;
            return {};
        };
        if (auto ok = pairs(kAclUser, m.aclUsers); !ok)
            return ok;
        if (auto ok = pairs(kAclGroup, m.aclGroups); !ok)
            return ok;
        if (m.aclGroupObj)
            if (auto ok = archive_.item(kAclGroupObj, u64(*m.aclGroupObj)); !ok)
                return ok;
        if (m.aclDefault)
            if (auto ok = archive_.item(kAclDefault, u64((*m.aclDefault)[0]) + u64((*m.aclDefault)[1]) + u64((*m.aclDefault)[2]) + u64((*m.aclDefault)[3])); !ok)
                return ok;
        if (auto ok = pairs(kAclDefaultUser, m.aclDefaultUsers); !ok)
            return ok;
        if (auto ok = pairs(kAclDefaultGroup, m.aclDefaultGroups); !ok)
            return ok;
        if (!m.fcaps.isEmpty())
            if (auto ok = archive_.item(kFcaps, m.fcaps); !ok)
                return ok;
        if (m.projid)
            if (auto ok = archive_.item(kQuotaProjid, u64(*m.projid)); !ok)
                return ok;
        return {};
    }

    Result<void> content(const WriterNode &node)
    {
        const uint64_t size = node.contentPath.isEmpty() ? uint64_t(node.contentBytes.size()) : node.contentSize;
        Output &out = payload_ ? *payload_ : archive_;
        if (payload_) {
            if (auto ok = archive_.item(kPayloadRef, u64(payload_->position()) + u64(size)); !ok)
                return ok;
        }
        if (auto ok = out.header(kPayload, kHeaderSize + size); !ok)
            return ok;
        if (node.contentPath.isEmpty())
            return out.write(node.contentBytes);
        QFile file(node.contentPath);
        if (!file.open(QIODevice::ReadOnly))
            return Error::make(ErrorKind::System, node.contentPath, file.errorString());
        std::vector<char> buffer(1 << 20);
        uint64_t done = 0;
        while (done < size) {
            const qint64 n = file.read(buffer.data(), qint64(std::min<uint64_t>(buffer.size(), size - done)));
            if (n <= 0)
                return Error::make(ErrorKind::System, node.contentPath, QStringLiteral("file shrank while being archived"));
            if (auto ok = out.write(buffer.data(), size_t(n)); !ok)
                return ok;
            done += uint64_t(n);
        }
        return {};
    }

    // Writes an entry (after its FILENAME, or the root, whose entry "starts" at offset 0 even
    // when FORMAT_VERSION and PRELUDE come first).
    Result<void> entry(const WriterNode &node, const QByteArray &path)
    {
        const uint64_t entryStart = path == "/" ? 0 : archive_.position();
        if (node.meta.kind == Kind::Hardlink) {
            const uint64_t target = fileOffsets_.value(node.meta.target, 0);
            if (!target || !currentFilename_)
                return Error::make(ErrorKind::Usage, bytesToText(path), QStringLiteral("hardlink target '%1' not written before it").arg(QString::fromUtf8(node.meta.target)));
            return archive_.item(kHardlink, u64(currentFilename_ - target) + node.meta.target + '\0');
        }
        if (auto ok = archive_.item(kEntry, stat(node.meta)); !ok)
            return ok;
        if (auto ok = attributes(node.meta); !ok)
            return ok;
        switch (node.meta.kind) {
        case Kind::File:
            fileOffsets_.insert(path.mid(1), currentFilename_);
            return content(node);
        case Kind::Symlink:
            return archive_.item(kSymlink, node.meta.target + '\0');
        case Kind::CharDevice:
        case Kind::BlockDevice:
            return archive_.item(kDevice, u64(node.meta.deviceMajor) + u64(node.meta.deviceMinor));
        case Kind::Fifo:
        case Kind::Socket:
        case Kind::Hardlink:
            return {};
        case Kind::Directory:
            break;
        }
        std::vector<const WriterNode *> children;
        for (const WriterNode &c : node.children)
            children.push_back(&c);
        std::sort(children.begin(), children.end(), [](const WriterNode *a, const WriterNode *b) { return a->name < b->name; });
        std::vector<Row> rows;
        for (const WriterNode *c : children) {
            const uint64_t f = archive_.position();
            if (auto ok = archive_.item(kFilename, c->name + '\0'); !ok)
                return ok;
            currentFilename_ = f;
            const QByteArray childPath = (path == "/" ? QByteArray() : path) + '/' + c->name;
            if (auto ok = entry(*c, childPath); !ok)
                return ok;
            uint64_t size = archive_.position() - f;
            if (payload_ && c->meta.kind == Kind::File) // the reference's quirk (spec 11.4)
                size += c->contentPath.isEmpty() ? uint64_t(c->contentBytes.size()) : c->contentSize;
            rows.push_back({nameHash(c->name), f, size});
        }
        return goodbye(rows, entryStart);
    }

    Result<void> goodbye(std::vector<Row> rows, uint64_t entryStart)
    {
        std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.hash < b.hash; });
        const size_t n = rows.size();
        std::vector<Row> table(n);
        size_t counter = 0;
        std::function<void(size_t)> place = [&](size_t i) {
            if (i >= n)
                return;
            place(2 * i + 1);
            table[i] = rows[counter++];
            place(2 * i + 2);
        };
        place(0);
        const uint64_t g = archive_.position();
        const uint64_t fullSize = kHeaderSize + 24 * (n + 1);
        QByteArray body;
        for (const Row &r : table)
            body += u64(r.hash) + u64(g - r.filenameOffset) + u64(r.size);
        body += u64(kGoodbyeTailMarker) + u64(g - entryStart) + u64(fullSize);
        return archive_.item(kGoodbye, body);
    }

    uint64_t currentFilename_ = 0;

private:
    Output &archive_;
    Output *payload_;
    QHash<QByteArray, uint64_t> fileOffsets_; // archive path -> FILENAME offset, for hardlinks
};

} // namespace

Result<void> writeArchive(const WriterNode &root, const QString &archivePath, const QString &payloadPath, const WriteOptions &options)
{
    Output archive(archivePath);
    if (auto ok = archive.open(); !ok)
        return ok;
    std::unique_ptr<Output> payload;
    if (options.split) {
        payload = std::make_unique<Output>(payloadPath);
        if (auto ok = payload->open(); !ok)
            return ok;
        if (auto ok = archive.item(kFormatVersion, u64(2)); !ok)
            return ok;
        if (!options.prelude.isEmpty())
            if (auto ok = archive.item(kPrelude, options.prelude); !ok)
                return ok;
        if (auto ok = payload->header(kPayloadStartMarker, kHeaderSize); !ok)
            return ok;
    }
    Writer writer(archive, payload.get());
    if (auto ok = writer.entry(root, "/"); !ok)
        return ok;
    if (payload) {
        if (auto ok = payload->header(kPayloadTailMarker, kHeaderSize); !ok)
            return ok;
        if (auto ok = payload->commit(); !ok)
            return ok;
    }
    return archive.commit();
}

Result<WriterNode> scanDirectory(const QString &path)
{
    QHash<QPair<dev_t, ino_t>, QByteArray> seenInodes;
    std::function<Result<WriterNode>(const QString &, const QByteArray &, const QByteArray &)> scan =
        [&](const QString &fsPath, const QByteArray &name, const QByteArray &archivePath) -> Result<WriterNode> {
        struct stat st {};
        const QByteArray native = fsPath.toLocal8Bit();
        if (::lstat(native.constData(), &st) != 0)
            return Error::system(fsPath, QStringLiteral("lstat"), errno);
        WriterNode node;
        node.name = name;
        PxarEntry &m = node.meta;
        m.mode = st.st_mode;
        m.uid = st.st_uid;
        m.gid = st.st_gid;
        m.mtimeSecs = st.st_mtim.tv_sec;
        m.mtimeNanos = uint32_t(st.st_mtim.tv_nsec);
        // User-visible extended attributes, sorted by name like the fixtures.
        char names[65536];
        const ssize_t length = ::llistxattr(native.constData(), names, sizeof names);
        std::vector<QByteArray> keys;
        for (ssize_t at = 0; at > -1 && at < length; at += ssize_t(strlen(names + at)) + 1) {
            const QByteArray key(names + at);
            if (key.startsWith("user.") || key.startsWith("trusted."))
                keys.push_back(key);
        }
        std::sort(keys.begin(), keys.end());
        for (const QByteArray &key : keys) {
            QByteArray value(65536, '\0');
            const ssize_t n = ::lgetxattr(native.constData(), key.constData(), value.data(), size_t(value.size()));
            if (n >= 0)
                m.xattrs.push_back({key, value.left(n)});
        }
        switch (st.st_mode & S_IFMT) {
        case S_IFDIR: {
            m.kind = Kind::Directory;
            // Scanned in the order the writer writes (byte-wise names), so a hardlink's first
            // name is the one written first.
            QDir dir(fsPath);
            std::vector<QByteArray> childNames;
            for (const QString &child : dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Unsorted))
                childNames.push_back(QFile::encodeName(child));
            std::sort(childNames.begin(), childNames.end());
            for (const QByteArray &childName : childNames) {
                const QString child = QFile::decodeName(childName);
                auto c = scan(fsPath + QLatin1Char('/') + child, childName, archivePath.isEmpty() ? childName : archivePath + '/' + childName);
                if (!c)
                    return c;
                node.children.push_back(std::move(c).value());
            }
            break;
        }
        case S_IFREG: {
            const auto key = qMakePair(st.st_dev, st.st_ino);
            if (st.st_nlink > 1 && seenInodes.contains(key)) {
                m.kind = Kind::Hardlink;
                m.target = seenInodes.value(key);
                break;
            }
            if (st.st_nlink > 1)
                seenInodes.insert(key, archivePath);
            m.kind = Kind::File;
            node.contentPath = fsPath;
            node.contentSize = uint64_t(st.st_size);
            break;
        }
        case S_IFLNK: {
            m.kind = Kind::Symlink;
            QByteArray target(4097, '\0');
            const ssize_t n = ::readlink(native.constData(), target.data(), size_t(target.size()));
            if (n < 0)
                return Error::system(fsPath, QStringLiteral("readlink"), errno);
            m.target = target.left(n);
            break;
        }
        case S_IFCHR:
        case S_IFBLK:
            m.kind = S_ISCHR(st.st_mode) ? Kind::CharDevice : Kind::BlockDevice;
            m.deviceMajor = major(st.st_rdev);
            m.deviceMinor = minor(st.st_rdev);
            break;
        case S_IFIFO: m.kind = Kind::Fifo; break;
        case S_IFSOCK: m.kind = Kind::Socket; break;
        default:
            return Error::make(ErrorKind::Unsupported, fsPath, QStringLiteral("unknown file type"));
        }
        return node;
    };
    return scan(path, QByteArray(), QByteArray());
}

} // namespace asc::pxar
