// SPDX-License-Identifier: MIT
#pragma once
// The worker's wire: frames over a socketpair (a 32-bit length, then a message), each message a
// kind byte and its fields in QDataStream form (the values and their codecs: facts.h). Plain
// values only (entries, errors, the inspection, bytes): nothing that points into the worker's
// memory crosses, only small numbers naming its containers and sources, and no JSON.
//
// Every message carries the number of the request it belongs to (the client numbers them), so two
// requests may run at once, one in each lane (laneOf): a listing or a walk streaming its answers,
// and beside it one short request (a read, an open, a find: the window's preview while the tree
// is still being listed). The worker serves each lane on its own thread; the client reads all
// answers in one place and hands each to the thread that asked. A Cancel names the request it
// stops. A walk streams without waiting for the client (one exchange per entry would make
// extraction a ping-pong between the processes): entries, and the content of those in the
// selection.

#include <QDataStream>
#include <QIODevice>
#include <optional>

namespace asc::wire {

enum class Kind : quint8 {
    // client -> worker
    Inspect = 1, // spec, head bytes, allocation -> Inspected
    List, // container -> Batch..., Done
    ListFolder, // container, folder entry -> Batch..., Done
    Find, // container, path -> Entry
    OpenEntry, // container, entry -> Source
    ReadAt, // source, offset, length -> Bytes
    OpenNested, // container, entry -> Container
    Walk, // container, selection -> (WalkEntry, its content as Bytes... then empty Bytes)..., Done
    Release, // ids no longer used (no answer)
    Cancel, // stop the running request (no answer of its own)
    Test, // tests only (archivescope-test-worker answers it): try a forbidden act -> Bytes (what happened)
    BackingAnswer, // the answer to AskBacking: followed or not
    FileAnswer, // the answer to OpenFile and CreateScratch: 0 and a descriptor passed with it, or an errno
    ExportAnswer, // the answer to WriteExport: written, or not and its Error
    Bench, // the bench's sweep (remote/bench_request.h) -> (BenchPoint | BenchProgress)..., Done
    UnlockAnswer, // the answer to UnlockVolume: true and the volume key, or false and its Error
    PasswordAnswer, // the answer to AskPassword: true and the password, or false (nobody answered)
    // worker -> client
    Inspected = 64,
    Container,
    Source,
    EntryAnswer,
    Bytes,
    Batch, // entries
    Problems, // reported on the way (before the answer they belong to)
    Done, // the end of a list or walk: failed, and then its Error
    Failure, // the request failed: an Error
    WalkEntry, // an entry, and whether its content follows
    Trace,
    AskBacking, // inside any request: may this image read that backing file? (image, backing)
    OpenFile, // inside any request: a read-only descriptor for this path, please (the worker cannot open)
    CreateScratch, // inside any request: a scratch file to write in this folder (the bench's copies)
    WriteExport, // inside any request: write these bytes atomically to this file the user named
    BenchPoint, // a finished point of a Bench (remote/bench_codec.h)
    BenchProgress, // before each run of a Bench: done, total, what
    UnlockVolume, // inside any request: open this LUKS metadata's key with these passwords (the worker cannot start the helper)
    RunTool, // inside any request: run this external decoder (sandbox/tool_run.h) -> FileAnswer with its framed output
    AskPassword, // inside any request: ask the user for a password for this SPEC (wrong: the last did not open it)
};

// Requests served one after another on the same worker thread; the two lanes run side by side.
enum class Lane : quint8 {
    Stream, // List, ListFolder, Walk, Bench: many answers, as long as the listing takes
    Single, // everything else: one answer
};
inline constexpr int kLanes = 2;
Lane laneOf(Kind kind);

// The request the calling thread asks (client) or serves (worker): what Message stamps on what
// it writes. 0 on other threads (a worker's decoding thread asking for a file).
quint32 currentRequest();
class RequestScope {
public:
    explicit RequestScope(quint32 request);
    ~RequestScope();
    RequestScope(const RequestScope &) = delete;
    RequestScope &operator=(const RequestScope &) = delete;

private:
    quint32 outer_;
};

// A message being written: its kind and request, then fields with <<.
class Message {
public:
    explicit Message(Kind kind, quint32 request = currentRequest());
    template <typename T>
    Message &operator<<(const T &value)
    {
        stream_ << value;
        return *this;
    }
    const QByteArray &bytes() const { return bytes_; }
    // Zeros what was written (a password, a key) once it is sent.
    void wipe();

private:
    QByteArray bytes_;
    QDataStream stream_;
};

// A message read: its kind, then fields with >>; ok() false once a field could not be read.
class Received {
public:
    explicit Received(const QByteArray &bytes);
    Kind kind() const { return kind_; }
    quint32 request() const { return request_; }
    template <typename T>
    Received &operator>>(T &value)
    {
        *stream_ >> value;
        return *this;
    }
    bool ok() const { return stream_->status() == QDataStream::Ok; }
    // A Bytes message's bytes without copying them (they live as long as this message); nullopt
    // for anything else or a broken one.
    std::optional<QByteArrayView> bytesView() const;

private:
    QByteArray frame_;
    std::unique_ptr<QDataStream> stream_; // reads its own copy of the bytes (movable)
    Kind kind_ = Kind(0);
    quint32 request_ = 0;
};

// `message` (a whole Message's bytes) stamped as belonging to `request` instead.
QByteArray stamped(QByteArray message, quint32 request);

// Largest frame either side accepts (a batch of entries, a read of up to 16 MiB and its header).
inline constexpr quint32 kMaxFrame = 64u << 20;

// Writes one frame; false when the peer is gone. With `passing` >= 0, that descriptor travels
// with the frame (SCM_RIGHTS).
bool sendFrame(int fd, const QByteArray &message, int passing = -1);
// Writes a Bytes message of `size` bytes at `data` without copying them into a message first.
bool sendBytes(int fd, const char *data, size_t size, quint32 request = currentRequest());
// Reads one frame; nullopt at the peer's end (or a frame too large: a broken peer). A descriptor
// that came with it lands in `passed` (else -1); without `passed` one is closed.
std::optional<QByteArray> receiveFrame(int fd, int *passed = nullptr);

// Frames sent together: a walk sends a few small frames per entry, and a system call for each
// cost the extraction of 50,000 small files half a second on each side. Small frames wait here
// until 256 KiB are pending (or flush()); large content goes out at once, where it lies.
class FrameBatch {
public:
    explicit FrameBatch(int fd, quint32 request = currentRequest())
        : fd_(fd),
          request_(request) {}
    bool add(const QByteArray &message);
    bool addBytes(const char *data, size_t size); // a Bytes message
    bool flush(); // false when the peer is gone

private:
    int fd_;
    quint32 request_;
    QByteArray pending_;
};

// Frames read ahead: one read takes all the small frames that have arrived. For a peer that
// passes no descriptors (the worker's answers).
class FrameReader {
public:
    explicit FrameReader(int fd)
        : fd_(fd) {}
    // Whether a whole frame has been read already (no need to wait for the socket).
    bool hasFrame() const;
    // The next frame, reading as needed; nullopt at the peer's end or a broken frame.
    std::optional<QByteArray> next();

private:
    int fd_;
    QByteArray buffer_;
    qsizetype start_ = 0; // where the unread bytes begin in buffer_
};

} // namespace asc::wire
