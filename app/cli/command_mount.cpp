// SPDX-License-Identifier: MIT
// `mount SPEC DIR [--foreground] [--no-recursive]`: SPEC read-only through FUSE 3 (the low-level
// API), as a tree of folders and files (open/mounted_tree.h); archives, images, partitions and
// filesystems inside as folders (CLI.md), archives kept as files with --no-recursive. Every byte is parsed in the
// sandboxed worker; this process only forwards: a lookup, a listing or a read is a request to
// it, and a worker that has died answers EIO, never a hang. `fusermount3 -u DIR` ends it. Without
// --foreground the mount runs in the background once it is in place (the command says whether
// it is, and exits).

#define FUSE_USE_VERSION 34

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "worker_options.h"

#include "open/reading_policy.h"
#include "open/mounted_tree.h"
#include "open/spec.h"
#include "remote/remote_container.h"
#include "sandbox/fd_io.h"

#include <QDateTime>
#include <QFileInfo>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <future>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace asc::cli {

namespace {

// An open file: its source, and what was read ahead of a sequential reader (one request to the
// worker per window, not per 128 KiB the kernel asks for).
struct OpenFile {
    SourcePtr source;
    std::mutex mutex; // guards the rest
    QByteArray window;
    uint64_t windowStart = 0;
    uint64_t lastEnd = UINT64_MAX; // where the previous read ended: the next one there is sequential
    // The window after this one, fetched while the kernel drains this one (the worker decodes
    // while the reader copies).
    std::future<Result<QByteArray>> next;
    uint64_t nextStart = UINT64_MAX;
    ~OpenFile()
    {
        if (next.valid())
            next.wait();
    }
};

// `length` bytes of `source` from `at` (fewer at its end).
Result<QByteArray> fetch(const SourcePtr &source, uint64_t at, uint64_t length)
{
    QByteArray bytes(qsizetype(length), Qt::Uninitialized);
    size_t filled = 0;
    while (filled < length) { // readAt may answer less than asked before the end
        auto got = source->readAt(at + filled, std::span<char>(bytes.data() + filled, size_t(length - filled)));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            break;
        filled += *got;
    }
    bytes.truncate(qsizetype(filled));
    return bytes;
}

struct Mounted {
    MountedTree tree;
    bool foreground = false;
    std::mutex mutex; // guards files, next
    std::map<uint64_t, std::shared_ptr<OpenFile>> files; // open files by handle
    uint64_t next = 1;
};

constexpr uint64_t kReadAhead = 8 << 20; // what a sequential reader gets fetched at once

Mounted &mounted(fuse_req_t req)
{
    return *static_cast<Mounted *>(fuse_req_userdata(req));
}

int32_t nodeOf(fuse_ino_t ino)
{
    return int32_t(ino) - 1; // FUSE's root is inode 1, the tree's is node 0
}

// The errno a failure is answered with; said on stderr in the foreground (NotFound is routine).
int errnoOf(Mounted &m, const Error &error)
{
    if (m.foreground && error.kind != ErrorKind::NotFound)
        reportProblemLine(error);
    switch (error.kind) {
    case ErrorKind::NotFound:
        return ENOENT;
    case ErrorKind::Usage:
        return error.message.contains(QLatin1String("folder")) ? ENOTDIR : EINVAL;
    case ErrorKind::Password:
        return EACCES;
    case ErrorKind::System:
        return error.errnum > 0 ? error.errnum : EIO;
    default:
        return EIO;
    }
}

constexpr double kTimeout = 3600; // the content never changes under the mount

void doLookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
    Mounted &m = mounted(req);
    auto child = m.tree.lookup(nodeOf(parent), QByteArrayView(name));
    if (!child)
        return (void)fuse_reply_err(req, errnoOf(m, child.error()));
    auto st = m.tree.attributes(*child);
    if (!st)
        return (void)fuse_reply_err(req, errnoOf(m, st.error()));
    fuse_entry_param entry{};
    entry.ino = fuse_ino_t(*child) + 1;
    entry.attr = *st;
    entry.attr_timeout = kTimeout;
    entry.entry_timeout = kTimeout;
    fuse_reply_entry(req, &entry);
}

void doGetattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info *)
{
    Mounted &m = mounted(req);
    if (!m.tree.valid(nodeOf(ino)))
        return (void)fuse_reply_err(req, ENOENT);
    auto st = m.tree.attributes(nodeOf(ino));
    if (!st)
        return (void)fuse_reply_err(req, errnoOf(m, st.error()));
    fuse_reply_attr(req, &*st, kTimeout);
}

void doReadlink(fuse_req_t req, fuse_ino_t ino)
{
    Mounted &m = mounted(req);
    auto target = m.tree.linkTarget(nodeOf(ino));
    if (!target)
        return (void)fuse_reply_err(req, errnoOf(m, target.error()));
    fuse_reply_readlink(req, target->constData());
}

// A page of a folder's entries from `offset`: "." and "..", then the children; an entry's offset
// is the index of the next one. readdir gives each child's type (what `find` needs not to stat
// it), readdirplus its attributes too (what `ls -l` stats next).
void listFolder(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, bool plus)
{
    Mounted &m = mounted(req);
    auto children = m.tree.children(nodeOf(ino));
    if (!children)
        return (void)fuse_reply_err(req, errnoOf(m, children.error()));
    std::vector<char> buffer(size);
    size_t used = 0;
    const size_t total = children->size() + 2;
    for (size_t i = size_t(offset); i < total; ++i) {
        fuse_entry_param entry{};
        QByteArray name;
        if (i < 2) {
            name = i == 0 ? "." : "..";
            entry.attr.st_ino = ino;
            entry.attr.st_mode = S_IFDIR; // not looked up: the kernel keeps no entry for these
        } else {
            const int32_t child = (*children)[i - 2].first;
            name = (*children)[i - 2].second;
            entry.attr.st_ino = ino_t(child) + 1;
            if (plus) {
                auto st = m.tree.attributes(child);
                if (!st)
                    return (void)fuse_reply_err(req, errnoOf(m, st.error()));
                entry.ino = fuse_ino_t(child) + 1;
                entry.attr = *st;
                entry.attr_timeout = kTimeout;
                entry.entry_timeout = kTimeout;
            } else {
                entry.attr.st_mode = m.tree.knownType(child);
            }
        }
        const size_t needed = plus ? fuse_add_direntry_plus(req, buffer.data() + used, size - used, name.constData(), &entry, off_t(i + 1))
                                   : fuse_add_direntry(req, buffer.data() + used, size - used, name.constData(), &entry.attr, off_t(i + 1));
        if (needed > size - used)
            break;
        used += needed;
    }
    fuse_reply_buf(req, buffer.data(), used);
}

void doReaddir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info *)
{
    listFolder(req, ino, size, offset, false);
}

void doReaddirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, fuse_file_info *)
{
    listFolder(req, ino, size, offset, true);
}

void doOpen(fuse_req_t req, fuse_ino_t ino, fuse_file_info *fi)
{
    Mounted &m = mounted(req);
    if ((fi->flags & O_ACCMODE) != O_RDONLY)
        return (void)fuse_reply_err(req, EROFS);
    auto source = m.tree.open(nodeOf(ino));
    if (!source)
        return (void)fuse_reply_err(req, errnoOf(m, source.error()));
    {
        const std::lock_guard lock(m.mutex);
        fi->fh = m.next++;
        auto file = std::make_shared<OpenFile>();
        file->source = std::move(*source);
        m.files[fi->fh] = std::move(file);
    }
    fi->keep_cache = 1; // the bytes never change
    fuse_reply_open(req, fi);
}

void doRead(fuse_req_t req, fuse_ino_t, size_t size, off_t offset, fuse_file_info *fi)
{
    Mounted &m = mounted(req);
    std::shared_ptr<OpenFile> file;
    {
        const std::lock_guard lock(m.mutex);
        const auto it = m.files.find(fi->fh);
        if (it != m.files.end())
            file = it->second;
    }
    if (!file)
        return (void)fuse_reply_err(req, EBADF);
    const std::lock_guard lock(file->mutex);
    const uint64_t at = uint64_t(offset);
    const uint64_t total = file->source->size();
    const uint64_t want = at >= total ? 0 : std::min<uint64_t>(size, total - at);
    const bool inWindow = at >= file->windowStart && at + want <= file->windowStart + uint64_t(file->window.size());
    if (!inWindow && want > 0) {
        // A sequential reader gets a window ahead of it (the one fetched meanwhile, when it is
        // there); a random one what it asked for.
        const bool sequential = at == file->lastEnd;
        Result<QByteArray> bytes = QByteArray();
        if (file->next.valid() && file->nextStart == at) {
            bytes = file->next.get();
        } else {
            if (file->next.valid())
                file->next.wait(); // a prefetch nobody wants: let it end
            file->next = {};
            bytes = fetch(file->source, at, std::min<uint64_t>(sequential ? std::max<uint64_t>(want, kReadAhead) : want, total - at));
        }
        if (!bytes) {
            file->window.clear();
            return (void)fuse_reply_err(req, errnoOf(m, bytes.error()));
        }
        file->window = std::move(*bytes);
        file->windowStart = at;
        const uint64_t after = at + uint64_t(file->window.size());
        if (sequential && after < total && uint64_t(file->window.size()) >= kReadAhead) {
            file->nextStart = after;
            file->next = std::async(std::launch::async, [source = file->source, after, total] {
                return fetch(source, after, std::min<uint64_t>(kReadAhead, total - after));
            });
        }
    }
    const uint64_t from = at - file->windowStart;
    const size_t n = size_t(std::min<uint64_t>(want, uint64_t(file->window.size()) > from ? uint64_t(file->window.size()) - from : 0));
    file->lastEnd = at + n;
    fuse_reply_buf(req, file->window.constData() + from, n);
}

void doRelease(fuse_req_t req, fuse_ino_t, fuse_file_info *fi)
{
    Mounted &m = mounted(req);
    {
        const std::lock_guard lock(m.mutex);
        m.files.erase(fi->fh);
    }
    fuse_reply_err(req, 0);
}

void doStatfs(fuse_req_t req, fuse_ino_t)
{
    struct statvfs st {};
    st.f_bsize = 64 * 1024;
    st.f_namemax = 255;
    fuse_reply_statfs(req, &st);
}

} // namespace

int runMount(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("mount"), QStringLiteral("Mount SPEC read-only at DIR (FUSE): its entries as files and folders, parsed in the sandboxed worker. `fusermount3 -u DIR` unmounts."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("what to mount: an archive, a disk image, a partition, a folder inside one"));
    p.addPositional(QStringLiteral("DIR"), QStringLiteral("an empty folder to mount it on"));
    p.parser().addOption({QStringLiteral("foreground"), QStringLiteral("Stay in the foreground until unmounted (errors on stderr).")});
    p.parser().addOption({QStringLiteral("no-recursive"), QStringLiteral("Archives found inside stay files (by default they show as folders of what they hold, as partitions and volumes always do).")});
    p.parser().addOption({QStringLiteral("recursive"), QStringLiteral("Archives, images and filesystems inside as folders (the default).")});
    if (auto stop = p.parse(args, 2))
        return *stop;
    const QString spec = p.parser().positionalArguments().at(0);
    const QString dir = p.parser().positionalArguments().at(1);
    const bool foreground = p.parser().isSet(QStringLiteral("foreground"));
    if (!QFileInfo(dir).isDir())
        return fail(dir, Error::make(ErrorKind::Usage, dir, QStringLiteral("is not a folder")));
    if (!workerOptions().sandbox)
        return usage(QStringLiteral("mount: always parses in the worker (--no-sandbox is not for mounts)"));

    // In the background: a child does everything and says how it went on a pipe, before any
    // thread of ours exists (the worker's reader is one).
    int said[2] = {-1, -1};
    if (!foreground) {
        if (::pipe2(said, O_CLOEXEC) != 0)
            return fail(dir, Error::system(dir, QStringLiteral("pipe"), errno));
        const pid_t child = ::fork();
        if (child < 0)
            return fail(dir, Error::system(dir, QStringLiteral("fork"), errno));
        if (child > 0) {
            ::close(said[1]);
            QByteArray answer;
            char chunk[512];
            for (ssize_t n; (n = ::read(said[0], chunk, sizeof chunk)) != 0;) {
                if (n < 0 && errno == EINTR)
                    continue;
                if (n < 0)
                    break;
                answer.append(chunk, n);
            }
            if (answer == "mounted")
                return Success;
            std::fputs(answer.isEmpty() ? "archivescope-cli: mount: the mounting process ended without a word\n" : answer.constData(), stderr);
            return Failure;
        }
        ::close(said[0]);
        ::setsid();
    }
    // What goes wrong before the mount is in place is said by the parent (or here in the foreground).
    auto failed = [&](const QString &what, const Error &error) -> int {
        if (foreground)
            return fail(what, error);
        const QByteArray line = "archivescope-cli: " + error.toString().toUtf8() + '\n';
        writeAll(said[1], line.constData(), size_t(line.size()));
        return Failure;
    };

    const WorkerOptions &sandbox = workerOptions();
    WorkerSettings settings;
    settings.limits = sandbox.limits.lockdown;
    settings.nameCharset = currentNameCharset();
    auto worker = WorkerChannel::start(splitSpec(spec).file, settings);
    if (!worker)
        return failed(spec, worker.error());
    auto inspected = inspectIn(*worker, spec);
    if (!inspected)
        return failed(spec, inspected.error());
    ContainerPtr root = inspected->container;
    if (!root && inspected->location.isDirectory())
        return failed(spec, Error::make(ErrorKind::Unsupported, spec, QStringLiteral("a folder inside an archive is mounted through its archive: mount the archive")));
    if (!root)
        return failed(spec, inspected->inspection.openError ? *inspected->inspection.openError
                                                            : Error::make(ErrorKind::Usage, spec, QStringLiteral("is a file, not something with entries to mount")));

    const int64_t fileMtime = QFileInfo(splitSpec(spec).file).lastModified().toSecsSinceEpoch();
    Mounted state{MountedTree(root, spec, !p.parser().isSet(QStringLiteral("no-recursive")), fileMtime), foreground, {}, {}, 1};
    fuse_lowlevel_ops ops{};
    ops.lookup = doLookup;
    ops.getattr = doGetattr;
    ops.readlink = doReadlink;
    ops.readdir = doReaddir;
    ops.readdirplus = doReaddirplus;
    ops.open = doOpen;
    ops.read = doRead;
    ops.release = doRelease;
    ops.statfs = doStatfs;
    fuse_args fuseArgs = FUSE_ARGS_INIT(0, nullptr);
    const QByteArray fsname = "fsname=archivescope:" + QFileInfo(splitSpec(spec).file).fileName().toUtf8().replace(',', '_');
    for (const char *arg : {"archivescope-cli", "-o", "ro,subtype=archivescope"})
        fuse_opt_add_arg(&fuseArgs, arg);
    fuse_opt_add_arg(&fuseArgs, "-o");
    fuse_opt_add_arg(&fuseArgs, fsname.constData());
    fuse_session *session = fuse_session_new(&fuseArgs, &ops, sizeof ops, &state);
    fuse_opt_free_args(&fuseArgs);
    if (!session)
        return failed(dir, Error::make(ErrorKind::Unsupported, dir, QStringLiteral("libfuse could not start a session")));
    if (fuse_session_mount(session, QFile::encodeName(dir).constData()) != 0) {
        fuse_session_destroy(session);
        return failed(dir, Error::make(ErrorKind::Unsupported, dir,
                                       QStringLiteral("cannot mount here (is /dev/fuse there, fusermount3 installed, the folder empty?)")));
    }
    fuse_set_signal_handlers(session);
    if (!foreground) {
        writeAll(said[1], "mounted", 7);
        ::close(said[1]);
        const int null = ::open("/dev/null", O_RDWR);
        for (int fd : {0, 1, 2})
            ::dup2(null, fd);
        if (null > 2)
            ::close(null);
    }
    const int loop = fuse_session_loop(session);
    fuse_session_unmount(session);
    fuse_remove_signal_handlers(session);
    fuse_session_destroy(session);
    return loop == 0 ? Success : Failure;
}

} // namespace asc::cli
