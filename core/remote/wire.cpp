// SPDX-License-Identifier: MIT
#include "wire.h"

#include "sandbox/fd_io.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include <QtEndian>
#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

namespace asc::wire {

namespace {

constexpr QDataStream::Version kVersion = QDataStream::Qt_6_4;

} // namespace

Lane laneOf(Kind kind)
{
    switch (kind) {
    case Kind::List:
    case Kind::ListFolder:
    case Kind::Walk:
    case Kind::Bench:
        return Lane::Stream;
    default:
        return Lane::Single;
    }
}

static thread_local quint32 tRequest = 0;

quint32 currentRequest()
{
    return tRequest;
}

RequestScope::RequestScope(quint32 request)
    : outer_(std::exchange(tRequest, request))
{
}

RequestScope::~RequestScope()
{
    tRequest = outer_;
}

// A message's head: its kind, then its request (big-endian, as QDataStream writes it).
constexpr qsizetype kHead = 1 + 4;

static void writeHead(char *at, Kind kind, quint32 request)
{
    at[0] = char(kind);
    qToBigEndian(request, at + 1);
}

Message::Message(Kind kind, quint32 request)
    : stream_(&bytes_, QIODevice::WriteOnly)
{
    stream_.setVersion(kVersion);
    stream_ << quint8(kind) << request;
}

void Message::wipe()
{
    if (!bytes_.isEmpty())
        ::explicit_bzero(bytes_.data(), size_t(bytes_.size()));
}

Received::Received(const QByteArray &bytes)
    : frame_(bytes),
      stream_(std::make_unique<QDataStream>(bytes))
{
    stream_->setVersion(kVersion);
    quint8 kind = 0;
    *stream_ >> kind >> request_;
    kind_ = Kind(kind);
}

QByteArray stamped(QByteArray message, quint32 request)
{
    if (message.size() >= kHead)
        qToBigEndian(request, message.data() + 1);
    return message;
}

// A QByteArray in QDataStream form: its length, big-endian, then the bytes.
std::optional<QByteArrayView> Received::bytesView() const
{
    if (kind_ != Kind::Bytes || frame_.size() < kHead + 4)
        return std::nullopt;
    const quint32 length = qFromBigEndian<quint32>(frame_.constData() + kHead);
    if (length == 0xffffffffu) // a null QByteArray
        return QByteArrayView();
    if (quint64(length) != quint64(frame_.size() - kHead - 4))
        return std::nullopt;
    return QByteArrayView(frame_.constData() + kHead + 4, qsizetype(length));
}

// As sandbox/fd_io's writeAll, but send(2) with MSG_NOSIGNAL: a gone peer is an answer, not SIGPIPE.
static bool sendAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

// Sends `head` and then `body` in one call (a walk sends a few small frames per entry), with
// `passing` (when >= 0) riding on the first byte so the receiver's first read of the frame gets
// it; then whatever the call did not take.
// One writer at a time per socket: a frame is written in pieces when the socket is full, and a
// worker's decoding or bench thread asking its parent for a file must not cut into a batch the
// serving thread is sending. Per socket, so that a full socket holds up no other.
static std::unique_lock<std::mutex> lockWrites(int fd)
{
    static std::mutex guard;
    static std::unordered_map<int, std::unique_ptr<std::mutex>> perSocket;
    std::mutex *mine;
    {
        const std::lock_guard lock(guard);
        auto &slot = perSocket[fd];
        if (!slot)
            slot = std::make_unique<std::mutex>();
        mine = slot.get(); // kept: a descriptor number may be reused, its lock with it
    }
    return std::unique_lock<std::mutex>(*mine);
}

static bool sendTwo(int fd, const char *head, size_t headSize, const char *body, size_t bodySize, int passing)
{
    const auto writing = lockWrites(fd);
    iovec parts[2] = {{const_cast<char *>(head), headSize}, {const_cast<char *>(body), bodySize}};
    msghdr header{};
    header.msg_iov = parts;
    header.msg_iovlen = 2;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (passing >= 0) {
        header.msg_control = control;
        header.msg_controllen = sizeof control;
        cmsghdr *rights = CMSG_FIRSTHDR(&header);
        rights->cmsg_level = SOL_SOCKET;
        rights->cmsg_type = SCM_RIGHTS;
        rights->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(rights), &passing, sizeof(int));
    }
    ssize_t sent;
    while ((sent = ::sendmsg(fd, &header, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    if (sent <= 0)
        return false;
    const size_t done = size_t(sent);
    if (done < headSize)
        return sendAll(fd, head + done, headSize - done) && sendAll(fd, body, bodySize);
    return sendAll(fd, body + (done - headSize), bodySize - (done - headSize));
}

bool sendFrame(int fd, const QByteArray &message, int passing)
{
    const quint32 length = quint32(message.size());
    return sendTwo(fd, reinterpret_cast<const char *>(&length), sizeof length, message.constData(), size_t(message.size()), passing);
}

// The frame's length, the message's head and the QDataStream length of the bytes: what comes
// before a Bytes message's bytes.
static void writeBytesHead(char *head, size_t size, quint32 request)
{
    const quint32 frameLength = quint32(kHead + 4 + size);
    std::memcpy(head, &frameLength, 4);
    writeHead(head + 4, Kind::Bytes, request);
    qToBigEndian(quint32(size), head + 4 + kHead);
}
constexpr size_t kBytesHead = 4 + kHead + 4;

bool sendBytes(int fd, const char *data, size_t size, quint32 request)
{
    char head[kBytesHead];
    writeBytesHead(head, size, request);
    return sendTwo(fd, head, sizeof head, data, size, -1);
}

std::optional<QByteArray> receiveFrame(int fd, int *passed)
{
    if (passed)
        *passed = -1;
    quint32 length = 0;
    // The length with recvmsg: a descriptor sent with the frame arrives with its first bytes.
    iovec part{&length, sizeof length};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    ssize_t got;
    while ((got = ::recvmsg(fd, &header, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (got <= 0)
        return std::nullopt;
    for (cmsghdr *c = CMSG_FIRSTHDR(&header); c; c = CMSG_NXTHDR(&header, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; ++i) {
            int received = -1;
            std::memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (passed && *passed < 0)
                *passed = received;
            else
                ::close(received); // not asked for, or more than one: not kept
        }
    }
    auto fail = [&]() -> std::optional<QByteArray> {
        if (passed && *passed >= 0)
            ::close(std::exchange(*passed, -1));
        return std::nullopt;
    };
    if (!readExactly(fd, reinterpret_cast<char *>(&length) + got, sizeof length - size_t(got)) || length == 0 || length > kMaxFrame)
        return fail();
    QByteArray message(qsizetype(length), Qt::Uninitialized);
    if (!readExactly(fd, message.data(), length))
        return fail();
    return message;
}

namespace {
constexpr qsizetype kBatchBytes = 256 << 10;
constexpr size_t kSentAtOnce = 64 << 10; // content pieces from this size skip the batch
} // namespace

bool FrameBatch::add(const QByteArray &message)
{
    const quint32 length = quint32(message.size());
    pending_.append(reinterpret_cast<const char *>(&length), sizeof length);
    pending_.append(message);
    return pending_.size() < kBatchBytes || flush();
}

bool FrameBatch::addBytes(const char *data, size_t size)
{
    if (size >= kSentAtOnce)
        return flush() && sendBytes(fd_, data, size, request_);
    char head[kBytesHead];
    writeBytesHead(head, size, request_);
    pending_.append(head, sizeof head);
    pending_.append(data, qsizetype(size));
    return pending_.size() < kBatchBytes || flush();
}

bool FrameBatch::flush()
{
    if (pending_.isEmpty())
        return true;
    bool sent;
    {
        const auto writing = lockWrites(fd_);
        sent = sendAll(fd_, pending_.constData(), size_t(pending_.size()));
    }
    pending_.clear(); // keeps its capacity for the next batch
    return sent;
}

bool FrameReader::hasFrame() const
{
    const qsizetype unread = buffer_.size() - start_;
    if (unread < 4)
        return false;
    quint32 length = 0;
    std::memcpy(&length, buffer_.constData() + start_, sizeof length);
    return unread - 4 >= qsizetype(length);
}

std::optional<QByteArray> FrameReader::next()
{
    // Reads whatever has arrived (at least one byte), up to a batch's worth.
    auto fill = [this]() {
        if (start_ > 0) {
            buffer_.remove(0, start_);
            start_ = 0;
        }
        const qsizetype had = buffer_.size();
        buffer_.resize(had + kBatchBytes);
        ssize_t got;
        while ((got = ::read(fd_, buffer_.data() + had, size_t(kBatchBytes))) < 0 && errno == EINTR) {
        }
        buffer_.resize(had + std::max<qsizetype>(0, got));
        return got > 0;
    };
    while (buffer_.size() - start_ < 4)
        if (!fill())
            return std::nullopt;
    quint32 length = 0;
    std::memcpy(&length, buffer_.constData() + start_, sizeof length);
    if (length == 0 || length > kMaxFrame)
        return std::nullopt;
    const qsizetype unread = buffer_.size() - start_ - 4;
    if (unread >= qsizetype(length)) {
        QByteArray message(buffer_.constData() + start_ + 4, qsizetype(length));
        start_ += 4 + qsizetype(length);
        return message;
    }
    // A frame larger than what has arrived: what is here, then the rest read into it directly.
    QByteArray message(qsizetype(length), Qt::Uninitialized);
    std::memcpy(message.data(), buffer_.constData() + start_ + 4, size_t(unread));
    buffer_.clear();
    start_ = 0;
    if (!readExactly(fd_, message.data() + unread, size_t(qsizetype(length) - unread)))
        return std::nullopt;
    return message;
}

} // namespace asc::wire
