// SPDX-License-Identifier: MIT
#include "file_requests.h"

#include "formats/archive/archive_passwords.h"
#include "formats/archive/name_charset.h"
#include "formats/image/disk_image.h"
#include "formats/luks/luks_unlock.h"
#include "io/atomic_file.h"
#include "io/file_source.h"
#include "io/scratch_file.h"
#include "sandbox/tool_run.h"
#include "remote/worker_inbox.h"

#include <QFile>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <ctime>
#include <fcntl.h>
#include <iconv.h>
#include <unistd.h>

namespace asc {

using wire::Kind;
using wire::Message;
using wire::Received;

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

// The same for an answer that carries no descriptor (one that came anyway is closed).
Received askParentForValue(int fd, const QByteArray &request, Kind answer, const Other &other)
{
    int passed = -1;
    Received reply = askParent(fd, request, answer, &passed, other);
    if (passed >= 0)
        ::close(passed);
    return reply;
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
    Received reply = askParentForValue(fd, (Message(Kind::WriteExport) << path << bytes).bytes(), Kind::ExportAnswer, other);
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
    Message request(Kind::UnlockVolume);
    request << metadata << passwords << name;
    Received reply = askParentForValue(fd, request.bytes(), Kind::UnlockAnswer, other);
    request.wipe();
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
    Received reply = askParentForValue(fd, (Message(Kind::AskPassword) << what << wrong).bytes(), Kind::PasswordAnswer, other);
    bool given = false;
    QByteArray password;
    reply >> given;
    if (given)
        reply >> password;
    if (!reply.ok() || !given || password.isEmpty())
        return std::nullopt;
    return password;
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
