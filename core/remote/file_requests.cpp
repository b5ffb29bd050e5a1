// SPDX-License-Identifier: MIT
#include "file_requests.h"

#include "formats/format.h"

#include "open/split_set.h"

#include "formats/archive/archive_passwords.h"
#include "formats/archive/index_cache.h"
#include "formats/archive/name_charset.h"
#include "formats/image/disk_image.h"
#include "formats/luks/luks_unlock.h"
#include "io/atomic_file.h"
#include "io/byte_text.h"
#include "io/file_source.h"
#include "io/scratch_file.h"
#include "sandbox/tool_run.h"
#include "remote/worker_inbox.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <ctime>
#include <fcntl.h>
#include <iconv.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asc {

using wire::Kind;
using wire::Message;
using wire::Received;

// The canonical form of a path as bytes (names need not be UTF-8); empty when it does not exist.
static QByteArray canonical(const QByteArray &path)
{
    char *resolved = ::realpath(path.constData(), nullptr);
    if (!resolved)
        return {};
    QByteArray out(resolved);
    std::free(resolved);
    return out;
}

// Whether `path` is the io counters (/proc/N/io, /proc/N/task/T/io) of a child of this process:
// what a benchmark in the worker reads about itself.
static bool isChildsIoFile(const QByteArray &path)
{
    int pid = 0, tid = 0, end = 0;
    const bool process = std::sscanf(path.constData(), "/proc/%d/io%n", &pid, &end) == 1 && end == path.size();
    const bool thread = !process && std::sscanf(path.constData(), "/proc/%d/task/%d/io%n", &pid, &tid, &end) == 2 && end == path.size();
    if (!process && !thread)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    // "PID (name) STATE PPID ...": the name may hold anything but ends at the last ')'.
    const QByteArray line = stat.readAll();
    const QList<QByteArray> after = line.mid(line.lastIndexOf(')') + 2).split(' ');
    return after.size() > 1 && after[1].toLongLong() == ::getpid();
}

FileGrant grantOf(const QString &file)
{
    FileGrant grant;
    grant.file = canonical(nativePath(file));
    if (grant.file.isEmpty())
        return grant;
    // By names only, as the worker will look for them: every part it will find, also of a set
    // missing one (the worker then says which).
    (void)splitSetOf(file, [&](const QString &name) {
        const bool there = QFileInfo(name).isFile();
        if (there && name != file)
            grant.parts << canonical(nativePath(name));
        return there;
    });
    // What its format reads beside it, as the format declares from the file's first bytes and
    // name (Format::beside): read here, in the parent, and compared, never parsed.
    QFile head(QFile::decodeName(grant.file));
    struct stat st {};
    if (::stat(grant.file.constData(), &st) != 0 || !S_ISREG(st.st_mode) || !head.open(QIODevice::ReadOnly))
        return grant; // a device names nothing beside it: its folder (/dev) holds the machine's other disks
    const QByteArray first = head.read(qint64(kBesideHeadBytes));
    const BesideFiles beside = besideFilesOf(std::span<const char>(first.constData(), size_t(first.size())), file);
    if (beside.folder)
        grant.siblings = FileGrant::Siblings::Folder;
    if (!beside.companion.isEmpty())
        grant.payload = canonical(nativePath(beside.companion));
    return grant;
}

bool grantCovers(const FileGrant &grant, const QByteArray &asked)
{
    if (grant.file.isEmpty())
        return false;
    if (asked == grant.file || (!grant.payload.isEmpty() && asked == grant.payload) || grant.parts.contains(asked))
        return true;
    if (grant.siblings != FileGrant::Siblings::Folder)
        return false;
    // Siblings are resolved from the file's folder, down (formats/image/sibling_file.h). A file at
    // the root would grant the whole machine that way: there, only the files beside it.
    const QByteArray folder = grant.file.left(grant.file.lastIndexOf('/'));
    if (!asked.startsWith(folder + '/'))
        return false;
    return !folder.isEmpty() || asked.indexOf('/', 1) < 0;
}

int openForWorker(const QStringList &files, const QByteArray &path, const QStringList &approved)
{
    if (isChildsIoFile(path)) {
        const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
        return fd >= 0 ? fd : -errno;
    }
    const QByteArray asked = canonical(path);
    if (asked.isEmpty())
        return -ENOENT;
    bool allowed = backingPolicy().allowOutside;
    for (const QString &file : approved)
        allowed = allowed || asked == canonical(nativePath(file));
    for (qsizetype i = 0; i < files.size() && !allowed; ++i)
        allowed = grantCovers(grantOf(files[i]), asked);
    if (!allowed)
        return -EACCES;
    // Not blocking on a FIFO a hostile worker names: opened without waiting, then only regular
    // files and block devices are passed on (a directory says so: the error the worker shows).
    const int fd = ::open(asked.constData(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return -errno;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
        ::close(fd);
        return S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

namespace {

using Other = std::function<void(Kind)>;

// One exchange at a time: threads of a worker (a bench's reader, a decoder) may ask at once.
std::mutex asking;
// The serving worker's reader of its socket, when it has one (askParentThrough).
std::atomic<WorkerInbox *> inbox{nullptr};

// Sends `request` and waits for the answer of kind `answer` (its descriptor, if one was passed,
// in *passed); other frames meanwhile go to `other` (without an inbox: the CLI's worker, whose
// socket nothing else reads). Ends the process when the parent is gone.
Received askParent(int fd, const QByteArray &request, Kind answer, int *passed, const Other &other)
{
    if (WorkerInbox *reader = inbox.load(std::memory_order_acquire))
        return Received(reader->ask(request, answer, passed));
    const std::lock_guard<std::mutex> lock(asking);
    if (!wire::sendFrame(fd, request))
        ::_exit(0); // the parent is gone
    for (;;) {
        *passed = -1;
        auto frame = wire::receiveFrame(fd, passed);
        if (!frame)
            ::_exit(0);
        Received reply(*frame);
        if (reply.kind() == answer)
            return reply;
        if (*passed >= 0)
            ::close(*passed);
        if (other)
            other(reply.kind());
    }
}

// An answer that is an errno, and a descriptor with it when 0: the descriptor or -errno.
int descriptorFrom(Received &reply, int passed)
{
    qint32 errnum = EPROTO;
    reply >> errnum;
    if (reply.ok() && errnum == 0 && passed >= 0)
        return passed;
    if (passed >= 0)
        ::close(passed);
    return -(errnum > 0 ? errnum : EPROTO);
}

int requestScratchFile(int fd, const QString &dir, const Other &other)
{
    int passed = -1;
    Received reply = askParent(fd, (Message(Kind::CreateScratch) << dir).bytes(), Kind::FileAnswer, &passed, other);
    return descriptorFrom(reply, passed);
}

Result<void> requestExport(int fd, const QString &path, const QByteArray &bytes, const Other &other)
{
    int passed = -1;
    Received reply = askParent(fd, (Message(Kind::WriteExport) << path << bytes).bytes(), Kind::ExportAnswer, &passed, other);
    if (passed >= 0)
        ::close(passed);
    bool written = false;
    Error error;
    reply >> written;
    if (!written)
        reply >> error;
    if (!reply.ok())
        return Error::system(path, QStringLiteral("write through the parent"), EPROTO);
    if (!written)
        return error;
    return {};
}

// A LUKS volume's key, opened by the parent's helper (formats/luks/luks_unlock.h).
Result<QByteArray> requestVolumeKey(int fd, const QByteArray &metadata, const QList<QByteArray> &passwords, const QString &name, const Other &other)
{
    int passed = -1;
    Message request(Kind::UnlockVolume);
    request << metadata << passwords << name;
    Received reply = askParent(fd, request.bytes(), Kind::UnlockAnswer, &passed, other);
    request.wipe();
    if (passed >= 0)
        ::close(passed);
    bool opened = false;
    QByteArray key;
    Error error;
    reply >> opened;
    if (opened)
        reply >> key;
    else
        reply >> error;
    if (!reply.ok())
        return Error::system(name, QStringLiteral("open the LUKS key through the parent"), EPROTO);
    if (!opened)
        return error;
    return key;
}

// An external decoder's framed output, started by the parent (sandbox/tool_run.h).
Result<int> requestTool(int fd, const ToolRun &run, const Other &other)
{
    int passed = -1;
    Message request(Kind::RunTool);
    request << run.encode();
    Received reply = askParent(fd, request.bytes(), Kind::FileAnswer, &passed, other);
    request.wipe();
    qint32 errnum = EPROTO;
    reply >> errnum;
    if (reply.ok() && errnum == 0 && passed >= 0)
        return passed;
    if (passed >= 0)
        ::close(passed);
    Error error;
    reply >> error;
    if (!reply.ok())
        return Error::system(QFile::decodeName(run.archive), QStringLiteral("run 7-Zip through the parent"), errnum > 0 ? errnum : EPROTO);
    return error;
}

// The user's answer, asked by the parent (the CLI's terminal): the worker has none to ask on.
std::optional<QByteArray> requestPassword(int fd, const QString &what, bool wrong, const Other &other)
{
    int passed = -1;
    Received reply = askParent(fd, (Message(Kind::AskPassword) << what << wrong).bytes(), Kind::PasswordAnswer, &passed, other);
    if (passed >= 0)
        ::close(passed);
    bool given = false;
    QByteArray password;
    reply >> given;
    if (given)
        reply >> password;
    if (!reply.ok() || !given || password.isEmpty())
        return std::nullopt;
    return password;
}

// The same file as the user named it: compared as absolute, cleaned paths.
bool sameFile(const QString &a, const QString &b)
{
    return QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}

} // namespace

int requestFile(int fd, const QByteArray &path, const Other &other)
{
    int passed = -1;
    Received reply = askParent(fd, (Message(Kind::OpenFile) << path).bytes(), Kind::FileAnswer, &passed, other);
    return descriptorFrom(reply, passed);
}

void askParentThrough(WorkerInbox &reader, int fd)
{
    inbox.store(&reader, std::memory_order_release);
    askParentOn(fd);
}

void askParentOn(int fd, const Other &other)
{
    setFileOpener([fd, other](const QByteArray &path) { return requestFile(fd, path, other); });
    setScratchFileMaker([fd, other](const QString &dir) { return requestScratchFile(fd, dir, other); });
    setAtomicWriter([fd, other](const QString &path, const QByteArray &bytes) { return requestExport(fd, path, bytes, other); });
    setVolumeUnlocker([fd, other](const QByteArray &metadata, const QList<QByteArray> &passwords, const QString &name) {
        return requestVolumeKey(fd, metadata, passwords, name, other);
    });
    setToolStarter([fd, other](const ToolRun &run) { return requestTool(fd, run, other); });
    // A parent that can ask (the CLI on a terminal; a forked worker inherits its asker) is asked.
    if (canAskForPasswords())
        setPasswordAsker([fd, other](const QString &what, bool wrong) { return requestPassword(fd, what, wrong, other); });
}

bool isWorkerRequest(Kind kind)
{
    return kind == Kind::OpenFile || kind == Kind::CreateScratch || kind == Kind::WriteExport || kind == Kind::UnlockVolume || kind == Kind::RunTool || kind == Kind::AskPassword;
}

// Sends an answer that carries a secret (a volume key, a password), then wipes the message's
// bytes and the secret's.
static bool sendWiping(int fd, Message &answer, QByteArray *secret)
{
    const bool sent = wire::sendFrame(fd, answer.bytes());
    answer.wipe();
    if (secret)
        ::explicit_bzero(secret->data(), size_t(secret->size()));
    return sent;
}

bool answerWorkerRequest(int fd, Received &request, const WorkerGrants &grants)
{
    // Answered with a descriptor (or -errno) passed along.
    auto pass = [fd](const Message &answer, int opened) {
        const bool sent = wire::sendFrame(fd, answer.bytes(), opened);
        if (opened >= 0)
            ::close(opened);
        return sent;
    };
    switch (request.kind()) {
    case Kind::OpenFile: {
        QByteArray path;
        request >> path;
        int opened = request.ok() ? openForWorker(grants.files, path, grants.approved) : -EPROTO;
        if (opened == -EACCES && index_cache::enabled() && index_cache::isIndexPath(bytesToText(path))) {
            // An archive's index in the cache: read-only, and used now (the cache keeps the
            // most recently used).
            opened = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
            opened = opened >= 0 ? opened : -errno;
            if (opened >= 0)
                ::futimens(opened, nullptr);
        }
        return pass(Message(Kind::FileAnswer) << qint32(opened < 0 ? -opened : 0), opened);
    }
    case Kind::CreateScratch: {
        QString dir;
        request >> dir;
        const bool allowed = request.ok() && !grants.scratchDir.isEmpty() && sameFile(dir, grants.scratchDir);
        const int made = allowed ? makeScratchFile(grants.scratchDir) : -EACCES;
        return pass(Message(Kind::FileAnswer) << qint32(made < 0 ? -made : 0), made);
    }
    case Kind::WriteExport: {
        QString path;
        QByteArray bytes;
        request >> path >> bytes;
        bool named = false;
        for (const QString &exported : grants.exports)
            named = named || sameFile(path, exported);
        // An archive's index for the cache: stored only if it is one (the worker is not trusted
        // to write anything else there), then the cache is trimmed. Its whole content is checked
        // by whoever loads it, as any file of the cache is.
        const bool indexPath = !named && request.ok() && index_cache::enabled() && index_cache::isIndexPath(path);
        const Result<void> checked = indexPath ? checkIndexFile(bytes, path) : Result<void>();
        const bool index = indexPath && checked.ok();
        if (index)
            QDir().mkpath(index_cache::directory());
        Result<void> written = !request.ok()         ? Result<void>(Error::system(path, QStringLiteral("write"), EPROTO))
                               : indexPath && !index ? Result<void>(checked.error()) // says what is wrong with it
                               : !named && !index    ? Result<void>(Error::system(path, QStringLiteral("write"), EACCES))
                               : index               ? writeFileHere(path, bytes, Durability::Cache)
                                                     : writeFileAtomically(path, bytes);
        if (index && written)
            index_cache::trim();
        Message answer(Kind::ExportAnswer);
        answer << bool(written);
        if (!written)
            answer << written.error();
        return wire::sendFrame(fd, answer.bytes());
    }
    case Kind::UnlockVolume: {
        // The helper parses the metadata, locked down; nothing of it is read here.
        QByteArray metadata;
        QList<QByteArray> passwords;
        QString name;
        request >> metadata >> passwords >> name;
        Result<QByteArray> key = request.ok() ? unlockAsking(metadata, passwords, name)
                                              : Result<QByteArray>(Error::system(name, QStringLiteral("open a LUKS key"), EPROTO));
        wipePasswords(passwords);
        Message answer(Kind::UnlockAnswer);
        answer << bool(key);
        if (key)
            answer << *key;
        else
            answer << key.error();
        return sendWiping(fd, answer, key ? &*key : nullptr);
    }
    case Kind::AskPassword: {
        QString what;
        bool wrong = false;
        request >> what >> wrong;
        std::optional<QByteArray> password = request.ok() ? askForPassword(what, wrong) : std::nullopt;
        Message answer(Kind::PasswordAnswer);
        answer << bool(password);
        if (password)
            answer << *password;
        return sendWiping(fd, answer, password ? &*password : nullptr);
    }
    case Kind::RunTool: {
        // The worker names a tool, an operation, an archive and a member; the argv is built by
        // sandbox/tool_run from that, and the archive must be one the worker may read.
        QByteArray encoded;
        request >> encoded;
        std::optional<ToolRun> run = request.ok() ? ToolRun::decode(encoded) : std::nullopt;
        ::explicit_bzero(encoded.data(), size_t(encoded.size()));
        Result<int> started = Error::system(QStringLiteral("worker"), QStringLiteral("run a tool"), EPROTO);
        if (run) {
            const QByteArray asked = canonical(run->archive);
            QList<QByteArray> readable;
            for (const QString &file : grants.files) {
                const FileGrant grant = grantOf(file);
                if (!asked.isEmpty() && grantCovers(grant, asked))
                    readable = QList<QByteArray>{asked} + grant.parts;
            }
            if (readable.isEmpty() && !asked.isEmpty()) { // a file the policy lets it read otherwise
                const int allowed = openForWorker(grants.files, asked, grants.approved);
                if (allowed >= 0) {
                    ::close(allowed);
                    readable = {asked};
                }
            }
            run->archive = asked;
            started = readable.isEmpty() ? Result<int>(Error::system(QFile::decodeName(run->archive), QStringLiteral("run 7-Zip on"), EACCES))
                                         : startJailedTool(*run, readable);
            run->wipe();
        }
        Message answer(Kind::FileAnswer);
        answer << qint32(started ? 0 : EACCES);
        if (!started)
            answer << started.error();
        return pass(answer, started ? *started : -1);
    }
    default:
        return pass(Message(Kind::FileAnswer) << qint32(EPROTO), -1);
    }
}

bool answerWorkerRequest(int fd, const WorkerGrants &grants)
{
    auto frame = wire::receiveFrame(fd);
    if (!frame)
        return false;
    Received request(*frame);
    return answerWorkerRequest(fd, request, grants);
}

void prepareToOpenNothing(const QByteArray &nameCharset)
{
    // iconv's converters are shared objects loaded on first use; an open converter keeps its
    // module loaded, so these stay open on purpose.
    QList<QByteArray> charsets = nameConversionCharsets();
    if (!nameCharset.isEmpty())
        charsets << nameCharset;
    for (const QByteArray &charset : charsets) {
        (void)::iconv_open("UTF-8", charset.constData());
        (void)::iconv_open(charset.constData(), "UTF-8");
    }
    // The local time zone (zip and other DOS times are local): read now, kept by the C library.
    ::tzset();
}

} // namespace asc
