// SPDX-License-Identifier: MIT
#include "extraction.h"

#include "io/byte_text.h"
#include "io/copy_to_fd.h"

#include <QFile>
#include <QRandomGenerator>
#include <QHash>
#include <QSet>
#include <unordered_map>
#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace asc {

namespace {

constexpr size_t kChunk = 1 << 20;

class Fd {
public:
    explicit Fd(int fd = -1)
        : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(Fd &&other) noexcept
        : fd_(std::exchange(other.fd_, -1)) {}
    Fd &operator=(Fd &&other) noexcept
    {
        reset();
        fd_ = std::exchange(other.fd_, -1);
        return *this;
    }
    void reset()
    {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }
    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }

private:
    int fd_;
};

// Modes are applied less the umask, as bsdtar does without -p. Read from /proc: umask(2) can
// only be read by changing it, which races with other threads creating files.
mode_t processUmask()
{
    static const mode_t mask = [] {
        QFile status(QStringLiteral("/proc/self/status"));
        if (status.open(QIODevice::ReadOnly)) {
            for (const QByteArray &line : status.readAll().split('\n')) {
                if (line.startsWith("Umask:"))
                    return mode_t(line.mid(6).trimmed().toUInt(nullptr, 8));
            }
        }
        return mode_t(022);
    }();
    return mask;
}

QString errnoText(int err)
{
    return QString::fromLocal8Bit(strerror(err));
}

// The refusal for a name already taken, whether seen before writing or by the rename.
QString existsText()
{
    return QStringLiteral("exists (use --overwrite to replace it)");
}

// An open directory shared by the entries extracted into it (and by their pending renames).
using DirFd = std::shared_ptr<const Fd>;

// A file written under a temporary name, waiting for the batch's sync before its rename.
struct PendingFile {
    DirFd parent;
    QByteArray temp;
    QByteArray name;
    QByteArray path; // the member's path (what reports name)
    QByteArray written; // the path it goes to (differs for "keep both")
    uint64_t bytes = 0;
    bool replace = false; // the name may be taken: overwrite it
};

// Files are made durable in batches (one syncfs, then the renames), as dpkg does: a journal
// commit per file made extracting many small files to a disk several times slower than 7-Zip.
constexpr size_t kBatchFiles = 128;
constexpr uint64_t kBatchBytes = 256ULL << 20;

struct PendingDirectory {
    QByteArray path;
    uint32_t mode;
    int64_t mtime;
    uint32_t mtimeNsec;
    bool hasMtime;
};

class Extractor {
public:
    Extractor(Container &container, const QString &directory, const ExtractOptions &options,
              const CancelFlag &cancel, const std::function<void(uint64_t)> &progress)
        : container_(container),
          directory_(directory),
          options_(options),
          cancel_(cancel),
          progress_(progress)
    {
    }

    Result<void> openRoot()
    {
        const QByteArray native = nativePath(directory_);
        if (::mkdir(native.constData(), 0755) != 0 && errno != EEXIST)
            return Error::system(directory_, QStringLiteral("create directory"), errno);
        root_ = Fd(::open(native.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!root_)
            return Error::system(directory_, QStringLiteral("open directory"), errno);
        if (::faccessat(root_.get(), ".", W_OK, AT_EACCESS) != 0)
            return Error::system(directory_, QStringLiteral("write into directory"), errno);
        return {};
    }

    // Opens the directory holding `path`'s last component, creating missing directories when
    // `create`. Refuses to pass through anything that is not a real directory. The last one
    // opened is kept: archives list siblings together, and a directory once opened this way
    // stays the same directory (extraction never replaces a directory).
    Result<DirFd> openParent(const QList<QByteArray> &parts, bool create)
    {
        QByteArray key;
        for (qsizetype i = 0; i + 1 < parts.size(); ++i)
            key += parts[i] + '/';
        if (lastParent_ && key == lastParentKey_)
            return lastParent_;
        Fd current(::dup(root_.get()));
        for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
            const QByteArray &part = parts[i];
            int fd = ::openat(current.get(), part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0 && errno == ENOENT && create) {
                if (::mkdirat(current.get(), part.constData(), 0755) != 0 && errno != EEXIST)
                    return Error::system(directory_, QStringLiteral("create directory '%1'").arg(QString::fromUtf8(part)), errno);
                fd = ::openat(current.get(), part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            }
            if (fd < 0) {
                const int err = errno;
                if (err == ELOOP || err == ENOTDIR)
                    return Error::make(ErrorKind::Format, directory_,
                                       QStringLiteral("'%1' is a symlink or not a directory: refusing to write through it")
                                           .arg(QString::fromUtf8(parts.mid(0, i + 1).join('/'))));
                return Error::system(directory_, QStringLiteral("open directory '%1'").arg(QString::fromUtf8(part)), err);
            }
            current = Fd(fd);
        }
        lastParent_ = std::make_shared<const Fd>(std::move(current));
        lastParentKey_ = key;
        return lastParent_;
    }

    void refuse(const QByteArray &path, const QString &reason)
    {
        report_.refused.push_back({path, reason});
    }

    // What to do with a name already taken. Returns false when the member must not be written;
    // else the name to write (`name`, or a free one for "keep both") and whether to replace.
    struct Room {
        bool write = true;
        bool replace = false;
        QByteArray name;
    };
    // One rule for every conflict: a name there before the extraction and a name an earlier
    // member of this extraction took are asked about (or settled by the policy) alike. Only a
    // later copy of the same member path replaces its earlier copy, as tar does.
    Room makeRoom(int parent, const QByteArray &name, const QByteArray &member, const QByteArray &written, bool replacingWithFile)
    {
        Room room{true, false, name};
        auto same = targetOf_.constFind(member);
        if (same != targetOf_.constEnd()) {
            room.name = same->mid(same->lastIndexOf('/') + 1);
            room.replace = true;
            if (!replacingWithFile)
                ::unlinkat(parent, room.name.constData(), 0);
            return room;
        }
        QByteArray earlier;
        auto occupant = occupied_.constFind(written);
        if (occupant != occupied_.constEnd()) {
            earlier = *occupant;
        } else {
            struct stat st {};
            if (::fstatat(parent, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
                return room;
            if (S_ISDIR(st.st_mode)) {
                refuse(member, QStringLiteral("a directory of that name exists"));
                return {false, false, {}};
            }
        }
        switch (decide(ExtractConflict{member, written, earlier})) {
        case ExistingPolicy::Overwrite:
        case ExistingPolicy::Ask:
            if (earlier.isEmpty()) // an earlier member's file is counted as replaced when this one lands
                ++report_.replaced;
            if (!replacingWithFile) // files replace atomically by rename; links need the name free
                ::unlinkat(parent, name.constData(), 0);
            room.replace = true;
            return room;
        case ExistingPolicy::Skip:
            ++report_.skipped;
            return {false, false, {}};
        case ExistingPolicy::KeepBoth:
            room.name = freeName(parent, name, written.left(written.size() - name.size()));
            if (room.name.isEmpty()) {
                refuse(member, QStringLiteral("no free name to keep both"));
                return {false, false, {}};
            }
            ++report_.renamed;
            return room;
        case ExistingPolicy::Refuse:
            break;
        }
        refuse(member, earlier.isEmpty() ? existsText()
                                         : QStringLiteral("'%1' of this extraction has the same name (keep both, skip or overwrite to choose)")
                                               .arg(bytesToText(earlier)));
        return {false, false, {}};
    }

    ExistingPolicy decide(const ExtractConflict &conflict)
    {
        ExistingPolicy policy = options_.existing;
        if (policy != ExistingPolicy::Ask)
            return policy;
        if (answerForAll_)
            return *answerForAll_;
        if (!options_.ask)
            return ExistingPolicy::Refuse;
        bool all = false;
        policy = options_.ask(conflict, &all);
        if (all)
            answerForAll_ = policy;
        return policy;
    }

    // "name (2).ext", "name (3).ext", ... the first that is free on disk and not taken by this
    // extraction (a file waiting for its rename included). `prefix` is the folder's path ("a/b/").
    QByteArray freeName(int parent, const QByteArray &name, const QByteArray &prefix)
    {
        const qsizetype dot = name.lastIndexOf('.');
        const QByteArray stem = dot > 0 ? name.left(dot) : name;
        const QByteArray ext = dot > 0 ? name.mid(dot) : QByteArray();
        for (int n = 2; n < 100000; ++n) {
            const QByteArray candidate = stem + " (" + QByteArray::number(n) + ")" + ext;
            struct stat st {};
            if (!occupied_.contains(prefix + candidate) && ::fstatat(parent, candidate.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0)
                return candidate;
        }
        return {};
    }

    Result<bool> extractFile(const Entry &entry, const Container::ContentReader &read, const DirFd &directory, const QByteArray &written)
    {
        const int parent = directory->get();
        const QByteArray name = written.mid(written.lastIndexOf('/') + 1);
        const Room room = makeRoom(parent, name, entry.path, written, true);
        if (!room.write)
            return true;
        QByteArray temp;
        Fd out;
        for (int attempt = 0; attempt < 16 && !out; ++attempt) {
            temp = ".archivescope-tmp-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
            out = Fd(::openat(parent, temp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        }
        if (!out) {
            refuse(entry.path, QStringLiteral("cannot create a file: %1").arg(errnoText(errno)));
            return true;
        }
        auto discard = [&] { ::unlinkat(parent, temp.constData(), 0); };
        uint64_t fileBytes = 0;
        std::unique_ptr<char[]> buffer(new char[kChunk]);
        const uint64_t containerBytes = std::max<uint64_t>(1, container_.source()->size());
        for (;;) {
            if (cancel_.isCancelled()) {
                discard();
                report_.stopped = Error::cancelled();
                return false;
            }
            auto got = read(std::span(buffer.get(), kChunk));
            if (!got) {
                discard();
                refuse(entry.path, got.error().withoutFile());
                if (got.error().onlyThisEntry())
                    return true; // an encrypted or damaged entry: the others can still be read
                // A broken stream cannot go on to the next entry reliably.
                report_.stopped = got.error();
                return false;
            }
            if (*got == 0)
                break;
            const uint64_t total = writtenBytes_ + *got;
            if (options_.maxBytes && total > options_.maxBytes) {
                discard();
                report_.stopped = Error::make(ErrorKind::Limit, directory_,
                                              QStringLiteral("stopped at '%1': extraction would write more than %2 bytes; raise the limit with --max-bytes SIZE (0 = no limit)")
                                                  .arg(bytesToText(entry.path))
                                                  .arg(options_.maxBytes));
                return false;
            }
            if (options_.maxRatio > 0 && total > options_.ratioGrace && double(total) / double(containerBytes) > options_.maxRatio) {
                discard();
                report_.stopped = Error::make(ErrorKind::Limit, directory_,
                                              QStringLiteral("stopped at '%1': output exceeds %2 times the archive's size (%3 bytes), which looks like a decompression bomb; "
                                                             "raise the limit with --max-ratio N (0 = no limit)")
                                                  .arg(bytesToText(entry.path))
                                                  .arg(options_.maxRatio)
                                                  .arg(containerBytes));
                return false;
            }
            // Zero blocks stay holes: sparse members (and long runs of zeros) take no space.
            auto wrote = writeSparse(out.get(), buffer.get(), *got, fileBytes, directory_);
            if (!wrote) {
                discard();
                report_.stopped = Error::system(directory_, QStringLiteral("write '%1'").arg(bytesToText(entry.path)), wrote.error().errnum);
                return false;
            }
            writtenBytes_ = total;
            fileBytes += *got;
            if (progress_)
                progress_(writtenBytes_);
        }
        if (::ftruncate(out.get(), off_t(fileBytes)) != 0) { // a trailing hole
            const int err = errno;
            discard();
            report_.stopped = Error::system(directory_, QStringLiteral("write '%1'").arg(bytesToText(entry.path)), err);
            return false;
        }
        ::fchmod(out.get(), entry.mode & 0777 & ~processUmask()); // setuid, setgid and sticky never survive
        if (entry.hasMtime) {
            const timespec times[2] = {{entry.mtime, long(entry.mtimeNsec)}, {entry.mtime, long(entry.mtimeNsec)}};
            ::futimens(out.get(), times);
        }
        out.reset();
        const QByteArray target = written.left(written.size() - name.size()) + room.name;
        pending_.push_back({directory, temp, room.name, entry.path, target, fileBytes, room.replace});
        targetOf_.insert(entry.path, target);
        occupied_.insert(target, entry.path);
        pendingBytes_ += fileBytes;
        if (pending_.size() >= kBatchFiles || pendingBytes_ >= kBatchBytes)
            commitPending();
        return true;
    }

    // Makes the written files durable with one sync of the target's filesystem, then renames
    // each into place: a name never shows a file whose content could still be lost.
    void commitPending()
    {
        if (pending_.empty())
            return;
        const bool synced = ::syncfs(root_.get()) == 0;
        const int syncErr = errno;
        for (PendingFile &file : pending_) {
            const unsigned flags = file.replace ? 0 : RENAME_NOREPLACE;
            const int parent = file.parent->get();
            if (!synced) {
                ::unlinkat(parent, file.temp.constData(), 0);
                refuse(file.path, QStringLiteral("sync failed: %1").arg(errnoText(syncErr)));
                continue;
            }
            if (::renameat2(parent, file.temp.constData(), parent, file.name.constData(), flags) != 0) {
                const int err = errno;
                ::unlinkat(parent, file.temp.constData(), 0);
                refuse(file.path, err == EEXIST ? existsText()
                                                : QStringLiteral("cannot rename into place: %1").arg(errnoText(err)));
                continue;
            }
            // A later member of a name replaces the earlier one: the name counts once.
            auto earlier = inPlace_.find(file.written);
            if (earlier != inPlace_.end()) {
                report_.bytes -= earlier->second;
                --report_.files;
                ++report_.replaced;
            }
            inPlace_[file.written] = file.bytes;
            report_.bytes += file.bytes;
            ++report_.files;
        }
        pending_.clear();
        pendingBytes_ = 0;
    }

    // cpio: the last member of a hardlink group carries the data. Write it under this name, then
    // make the earlier (empty) members links to it, as the archive meant: the target and every
    // name already linked to the target's empty file.
    Result<bool> extractLinkWithData(const Entry &entry, const Container::ContentReader &read, const DirFd &directory, const QByteArray &written)
    {
        const uint64_t filesBefore = report_.files;
        auto extracted = extractFile(entry, read, directory, written);
        commitPending(); // the links below need the file under its name
        if (!extracted || !*extracted || report_.files == filesBefore)
            return extracted;
        --report_.files;
        ++report_.links;
        const QByteArray dataPath = targetOf_.value(entry.path, written); // "keep both" may have renamed it
        const QByteArray targetPath = writtenOf(entry.target);
        if (!safeMemberPath(targetPath))
            return true;
        const QList<QByteArray> dataParts = dataPath.split('/');
        auto dataParent = openParent(dataParts, false);
        const QList<QByteArray> targetParts = targetPath.split('/');
        auto targetParent = openParent(targetParts, false);
        struct stat empty {};
        if (!dataParent || !targetParent || ::fstatat((*targetParent)->get(), targetParts.last().constData(), &empty, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(empty.st_mode) || empty.st_size != 0)
            return true;
        const DirFd dataDirectory = *dataParent;
        QList<QByteArray> group = linkedTo_.take(targetPath);
        group.prepend(targetPath);
        for (const QByteArray &member : group) {
            const QList<QByteArray> parts = member.split('/');
            auto parent = openParent(parts, false);
            struct stat st {};
            // Only names still holding the group's empty file (not replaced since) are relinked.
            if (!parent || ::fstatat((*parent)->get(), parts.last().constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                st.st_dev != empty.st_dev || st.st_ino != empty.st_ino)
                continue;
            const QByteArray temp = ".archivescope-tmp-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
            if (::linkat(dataDirectory->get(), dataParts.last().constData(), (*parent)->get(), temp.constData(), 0) == 0 &&
                ::renameat((*parent)->get(), temp.constData(), (*parent)->get(), parts.last().constData()) != 0)
                ::unlinkat((*parent)->get(), temp.constData(), 0);
        }
        return true;
    }

    // Where this extraction wrote a member; a member it did not write is looked for under its
    // own path, except without folders, where a bare name could be any other file.
    QByteArray writtenOf(const QByteArray &member) const
    {
        auto it = targetOf_.constFind(member);
        if (it != targetOf_.constEnd())
            return *it;
        return options_.flatten ? QByteArray() : member;
    }

    static bool safeMemberPath(const QByteArray &path)
    {
        if (path.isEmpty())
            return false;
        for (const QByteArray &part : path.split('/'))
            if (part.isEmpty() || part == "." || part == "..")
                return false;
        return true;
    }

    // `written` is where the member goes below the directory: its own path, or its bare name
    // when extracting without folders.
    Result<bool> extractEntry(const Entry &entry, const Container::ContentReader &read, const QByteArray &written)
    {
        if (entry.unsafePath) {
            refuse(entry.path, QStringLiteral("a '..' component or a link to an absolute path: refusing to leave the target directory"));
            return true;
        }
        if (written.isEmpty())
            return true;
        const QList<QByteArray> parts = written.split('/');
        for (const QByteArray &part : parts) {
            if (part.isEmpty() || part == "." || part == "..") {
                refuse(entry.path, QStringLiteral("malformed path"));
                return true;
            }
        }
        auto parent = openParent(parts, true);
        if (!parent) {
            refuse(entry.path, parent.error().withoutFile());
            return true;
        }
        const QByteArray &name = parts.last();
        const QByteArray folder = written.left(written.size() - name.size()); // "a/b/"
        const DirFd directory = *parent;
        const int dirfd = directory->get();
        // Links and special files look at names already extracted: pending files take theirs first.
        if (entry.type != EntryType::File && entry.type != EntryType::Dir && entry.type != EntryType::Partition)
            commitPending();
        switch (entry.type) {
        case EntryType::Dir: {
            if (::mkdirat(dirfd, name.constData(), 0700) != 0 && errno != EEXIST) {
                refuse(entry.path, QStringLiteral("cannot create directory: %1").arg(errnoText(errno)));
                return true;
            }
            struct stat st {};
            if (::fstatat(dirfd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) {
                refuse(entry.path, QStringLiteral("a non-directory of that name exists"));
                return true;
            }
            // Modes and times of directories are applied at the end, so a read-only
            // directory does not stop its own contents from being written.
            directories_.push_back({written, entry.mode, entry.mtime, entry.mtimeNsec, entry.hasMtime});
            ++report_.directories;
            return true;
        }
        case EntryType::File:
        case EntryType::Partition:
            return extractFile(entry, read, directory, written);
        case EntryType::Symlink: {
            const Room room = makeRoom(dirfd, name, entry.path, written, false);
            if (!room.write)
                return true;
            if (room.replace)
                ::unlinkat(dirfd, room.name.constData(), 0);
            if (::symlinkat(entry.target.constData(), dirfd, room.name.constData()) != 0) {
                refuse(entry.path, QStringLiteral("cannot create symlink: %1").arg(errnoText(errno)));
                return true;
            }
            countLink(entry.path, folder + room.name);
            symlinks_.push_back({entry.path, folder + room.name, entry.target});
            return true;
        }
        case EntryType::Hardlink: {
            if (entry.size > 0 && entry.size != kUnknown)
                return extractLinkWithData(entry, read, directory, written);
            const QByteArray targetPath = writtenOf(entry.target);
            if (options_.flatten && targetPath.isEmpty() && !entry.target.isEmpty()) {
                refuse(entry.path, QStringLiteral("hardlink target '%1' was not extracted").arg(bytesToText(entry.target)));
                return true;
            }
            if (!safeMemberPath(targetPath)) {
                refuse(entry.path, QStringLiteral("hardlink target '%1' points outside the target directory").arg(bytesToText(entry.target)));
                return true;
            }
            const QList<QByteArray> targetParts = targetPath.split('/');
            auto targetParent = openParent(targetParts, false);
            struct stat st {};
            if (!targetParent || ::fstatat((*targetParent)->get(), targetParts.last().constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                !S_ISREG(st.st_mode)) {
                refuse(entry.path, QStringLiteral("hardlink target '%1' was not extracted").arg(bytesToText(entry.target)));
                return true;
            }
            const Room room = makeRoom(dirfd, name, entry.path, written, false);
            if (!room.write)
                return true;
            if (room.replace)
                ::unlinkat(dirfd, room.name.constData(), 0);
            if (::linkat((*targetParent)->get(), targetParts.last().constData(), dirfd, room.name.constData(), 0) != 0) {
                refuse(entry.path, QStringLiteral("cannot create hardlink: %1").arg(errnoText(errno)));
                return true;
            }
            const QByteArray linkPath = folder + room.name;
            countLink(entry.path, linkPath);
            if (st.st_size == 0)
                linkedTo_[targetPath].append(linkPath); // the group's data may come later (cpio)
            return true;
        }
        case EntryType::CharDev:
        case EntryType::BlockDev:
        case EntryType::Fifo:
        case EntryType::Socket:
            refuse(entry.path, QStringLiteral("%1: special files are not extracted").arg(entryTypeName(entry.type)));
            return true;
        }
        return true;
    }

    // A symlink this extraction made that points at nothing inside the directory (its target was
    // not in the selection, or flattening moved it) is reported: the user sees which links dangle.
    void reportDanglingLinks()
    {
        for (const MadeLink &link : symlinks_) {
            QList<QByteArray> resolved = link.written.split('/');
            resolved.removeLast();
            bool outside = false;
            for (const QByteArray &part : link.target.split('/')) {
                if (part.isEmpty() || part == ".")
                    continue;
                if (part == "..") {
                    if (resolved.isEmpty()) {
                        outside = true;
                        break;
                    }
                    resolved.removeLast();
                } else {
                    resolved.append(part);
                }
            }
            struct stat st {};
            if (!outside && !resolved.isEmpty() && ::fstatat(root_.get(), resolved.join('/').constData(), &st, 0) == 0)
                continue;
            struct stat self {};
            if (::fstatat(root_.get(), link.written.constData(), &self, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(self.st_mode))
                continue; // replaced since
            report_.danglingLinks.push_back({link.member, outside ? QStringLiteral("points at '%1', outside the folder extracted into").arg(bytesToText(link.target))
                                                                  : QStringLiteral("points at '%1', which was not extracted").arg(bytesToText(link.target))});
        }
    }

    void finishDirectories()
    {
        // Deepest first, so setting a parent's mode comes after its children were touched.
        for (auto it = directories_.rbegin(); it != directories_.rend(); ++it) {
            const QList<QByteArray> parts = it->path.split('/');
            auto parent = openParent(parts, false);
            if (!parent)
                continue;
            // Best effort, as tar: a folder whose mode cannot be set keeps the one it was made with.
            [[maybe_unused]] const int modeSet =
                ::fchmodat((*parent)->get(), parts.last().constData(), ((it->mode & 0777) | 0700) & ~processUmask(), AT_SYMLINK_NOFOLLOW);
            if (it->hasMtime) {
                const timespec times[2] = {{it->mtime, long(it->mtimeNsec)}, {it->mtime, long(it->mtimeNsec)}};
                ::utimensat((*parent)->get(), parts.last().constData(), times, AT_SYMLINK_NOFOLLOW);
            }
        }
    }

    ExtractReport &report() { return report_; }

    // A link replacing a file or link of this extraction counts once.
    void countLink(const QByteArray &member, const QByteArray &path)
    {
        auto earlier = inPlace_.find(path);
        if (earlier != inPlace_.end()) {
            report_.bytes -= earlier->second;
            --report_.files;
            ++report_.replaced;
            inPlace_.erase(earlier);
        } else if (links_.contains(path)) {
            --report_.links;
            ++report_.replaced;
        }
        links_.insert(path);
        targetOf_.insert(member, path);
        occupied_.insert(path, member);
        ++report_.links;
    }

private:
    Container &container_;
    QString directory_;
    ExtractOptions options_;
    const CancelFlag &cancel_;
    const std::function<void(uint64_t)> &progress_;
    Fd root_;
    ExtractReport report_;
    std::vector<PendingDirectory> directories_;
    std::vector<PendingFile> pending_;
    uint64_t pendingBytes_ = 0;
    uint64_t writtenBytes_ = 0; // bytes written so far (limits, progress)
    QHash<QByteArray, QList<QByteArray>> linkedTo_; // empty hardlink target -> names linked to it
    QHash<QByteArray, QByteArray> targetOf_; // member path -> the path this extraction wrote it to
    QSet<QByteArray> links_; // paths this extraction made links
    QHash<QByteArray, QByteArray> occupied_; // path written (or waiting for its rename) -> its member
    struct MadeLink {
        QByteArray member;
        QByteArray written;
        QByteArray target;
    };
    std::vector<MadeLink> symlinks_;
    std::unordered_map<QByteArray, uint64_t> inPlace_; // files in place: path -> their bytes
    std::optional<ExistingPolicy> answerForAll_;
    DirFd lastParent_; // the directory openParent opened last, and its path ("a/b/")
    QByteArray lastParentKey_;
};

} // namespace

Result<ExtractReport> extractEntries(Container &container, const QByteArray &selection, const QString &directory,
                                     const ExtractOptions &options, const CancelFlag &cancel,
                                     const std::function<void(uint64_t)> &progress)
{
    Extractor extractor(container, directory, options, cancel, progress);
    if (auto opened = extractor.openRoot(); !opened)
        return std::move(opened).error();
    const QByteArray prefix = selection.isEmpty() ? QByteArray() : selection + '/';
    auto walked = container.walkSelection(selection, [&](const Entry &entry, const Container::ContentReader &read) -> Result<bool> {
        if (!selection.isEmpty() && entry.path != selection && !entry.path.startsWith(prefix))
            return true;
        if (options.flatten) {
            if (entry.type == EntryType::Dir)
                return true;
            return extractor.extractEntry(entry, read, entry.path.mid(entry.path.lastIndexOf('/') + 1));
        }
        return extractor.extractEntry(entry, read, entry.path);
    });
    extractor.commitPending(); // also after a cancel or a broken stream: those files are whole
    extractor.finishDirectories();
    extractor.reportDanglingLinks();
    if (!walked && !extractor.report().stopped)
        extractor.report().stopped = walked.error();
    return std::move(extractor.report());
}

} // namespace asc

namespace asc {

QString describeReport(const ExtractReport &report)
{
    auto count = [](uint64_t n, const char *one, const char *many) {
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    QString text = QStringLiteral("extracted %1, %2, %3 (%4)")
                       .arg(count(report.files, "file", "files"), count(report.directories, "directory", "directories"),
                            count(report.links, "link", "links"), count(report.bytes, "byte", "bytes"));
    QStringList more;
    if (!report.refused.empty())
        more << QStringLiteral("%1 refused").arg(report.refused.size());
    if (report.skipped)
        more << QStringLiteral("%1 skipped").arg(report.skipped);
    if (report.replaced)
        more << QStringLiteral("%1 replaced").arg(report.replaced);
    if (report.renamed)
        more << QStringLiteral("%1 kept under a new name").arg(report.renamed);
    if (!report.danglingLinks.empty())
        more << QStringLiteral("%1 pointing at nothing extracted").arg(count(report.danglingLinks.size(), "symlink", "symlinks"));
    if (!more.isEmpty())
        text += QStringLiteral("; ") + more.join(QStringLiteral(", "));
    return text;
}

} // namespace asc
