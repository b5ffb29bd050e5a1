// SPDX-License-Identifier: MIT
#include "file_requests.h"

#include "formats/image/disk_image.h"
#include "io/byte_text.h"

#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <iconv.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asc {

using wire::Kind;

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

int openForWorker(const QStringList &files, const QByteArray &path, const QStringList &approved)
{
    const QByteArray asked = canonical(path);
    if (asked.isEmpty())
        return -ENOENT;
    bool allowed = backingPolicy().allowOutside;
    for (const QString &file : approved)
        allowed = allowed || asked == canonical(nativePath(file));
    for (qsizetype i = 0; i < files.size() && !allowed; ++i) {
        const QByteArray own = canonical(nativePath(files[i]));
        const QByteArray folder = own.left(own.lastIndexOf('/'));
        allowed = !own.isEmpty() && (asked == own || asked.startsWith(folder + '/'));
    }
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

int requestFile(int fd, const QByteArray &path, const std::function<void(Kind)> &other)
{
    if (!wire::sendFrame(fd, (wire::Message(Kind::OpenFile) << path).bytes()))
        ::_exit(0); // the parent is gone
    for (;;) {
        int passed = -1;
        auto frame = wire::receiveFrame(fd, &passed);
        if (!frame)
            ::_exit(0);
        wire::Received reply(*frame);
        if (reply.kind() != Kind::FileAnswer) {
            if (passed >= 0)
                ::close(passed);
            if (other)
                other(reply.kind());
            continue;
        }
        qint32 errnum = EPROTO;
        reply >> errnum;
        if (reply.ok() && errnum == 0 && passed >= 0)
            return passed;
        if (passed >= 0)
            ::close(passed);
        return -(errnum > 0 ? errnum : EPROTO);
    }
}

bool answerFileRequest(int fd, wire::Received &request, const QStringList &files, const QStringList &approved)
{
    QByteArray path;
    request >> path;
    const int opened = request.kind() == Kind::OpenFile && request.ok() ? openForWorker(files, path, approved) : -EPROTO;
    const bool sent = wire::sendFrame(fd, (wire::Message(Kind::FileAnswer) << qint32(opened < 0 ? -opened : 0)).bytes(), opened);
    if (opened >= 0)
        ::close(opened);
    return sent;
}

bool answerFileRequest(int fd, const QStringList &files)
{
    auto frame = wire::receiveFrame(fd);
    if (!frame)
        return false;
    wire::Received request(*frame);
    return answerFileRequest(fd, request, files);
}

void prepareToOpenNothing(const QByteArray &nameCharset)
{
    // iconv's converters are shared objects loaded on first use; an open converter keeps its
    // module loaded, so these stay open on purpose.
    QList<QByteArray> charsets = {"UTF-8", "UTF-16LE", "UTF-16BE", "CP437", "CP1252", "ISO-8859-1"};
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
