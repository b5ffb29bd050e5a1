// SPDX-License-Identifier: MIT
#include "seven_zip_tool.h"

#include "archive_passwords.h"
#include "libarchive_reader.h"
#include "io/byte_text.h"
#include "io/memory_source.h"
#include "sandbox/tool_run.h"
#include "sandbox/tool_stream.h"
#include "vfs/problems.h"

#include <QFile>
#include <QJsonArray>
#include <archive.h>
#include <zlib.h>

namespace asc {

namespace {

constexpr uint64_t kListingLimit = 64 << 20; // bytes of `7zz l -slt` text kept
constexpr uint64_t kWholeInMemory = 8 << 20; // files up to this are read once and kept
constexpr int kSymlinkTargets = 256; // targets read for the listing (each is a run of 7zz)

Result<std::unique_ptr<ToolStream>> runTool(ToolOperation operation, const QByteArray &path, const QByteArray &member,
                                            const QByteArray &password, const QString &what)
{
    ToolRun run;
    run.operation = operation;
    run.archive = path;
    run.member = member;
    run.password = password;
    auto fd = startTool(run);
    run.wipe();
    if (!fd)
        return std::move(fd).error();
    return std::make_unique<ToolStream>(*fd, what);
}

// The whole output of a run (at most `limit` bytes) and how it ended.
Result<QByteArray> readAll(ToolStream &stream, uint64_t limit, const QString &what)
{
    QByteArray out;
    char buffer[64 * 1024];
    for (;;) {
        auto got = stream.read(buffer);
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return out;
        if (uint64_t(out.size()) + *got > limit)
            return Error::make(ErrorKind::Limit, what, QStringLiteral("7-Zip's output passed %1 bytes").arg(limit));
        out.append(buffer, qsizetype(*got));
    }
}

bool saysWrongPassword(const ToolStream &stream)
{
    return stream.messages().contains("Wrong password") || stream.messages().contains("Can not open encrypted archive") || stream.messages().contains("Cannot open encrypted archive");
}

Error passwordError(const QString &what, bool given, const QString &needs)
{
    return Error::make(ErrorKind::Password, what,
                       given ? QStringLiteral("wrong password: none of the passwords given opens %1").arg(needs)
                             : QStringLiteral("%1 is encrypted: a password is needed (--password-file FILE or ARCHIVESCOPE_PASSWORD)").arg(needs));
}

// The checks one file's bytes pass as they go by: its listed size and CRC, and 7zz's own end.
struct Check {
    uint64_t expected = 0;
    std::optional<uint32_t> crc;
    uint64_t seen = 0;
    uLong running = ::crc32(0, nullptr, 0);

    void add(const char *p, size_t n)
    {
        running = ::crc32_z(running, reinterpret_cast<const Bytef *>(p), n);
        seen += n;
    }
    std::optional<Error> finish(const QString &what) const
    {
        if (seen != expected)
            return Error::make(ErrorKind::Format, what, QStringLiteral("7-Zip gave %1 bytes, its listing says %2").arg(seen).arg(expected));
        if (crc && uint32_t(running) != *crc)
            return Error::make(ErrorKind::Checksum, what,
                               QStringLiteral("CRC mismatch: the content's is %1, the archive says %2")
                                   .arg(uint32_t(running), 8, 16, QLatin1Char('0'))
                                   .arg(*crc, 8, 16, QLatin1Char('0')));
        return std::nullopt;
    }
};

// How a run that ended badly is said: a wrong password, or what 7zz printed last.
Error toolFailure(const ToolStream &stream, const QString &what, bool passwordGiven)
{
    if (saysWrongPassword(stream))
        return passwordError(what, passwordGiven, QStringLiteral("this entry"));
    return Error::make(ErrorKind::Format, what, QStringLiteral("7-Zip could not read it: %1").arg(stream.howItEnded()));
}

// A file bigger than kWholeInMemory, streamed from 7zz: reads go forward through one run, a read
// behind the position starts a new run. Its last bytes are handed out only once 7zz ended well
// and the size and CRC matched.
class StreamedEntry final : public ByteSource {
public:
    StreamedEntry(QByteArray path, QByteArray member, QByteArray password, const SevenZipItem &item, QString name)
        : path_(std::move(path)),
          member_(std::move(member)),
          password_(std::move(password)),
          size_(item.streamBytes),
          crc_(item.crc),
          name_(std::move(name))
    {
    }
    ~StreamedEntry() override
    {
        if (!password_.isEmpty())
            ::explicit_bzero(password_.data(), size_t(password_.size()));
    }

    uint64_t size() const override { return size_; }
    QString name() const override { return name_; }

    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        const std::lock_guard lock(mutex_);
        if (offset >= size_ || buf.empty())
            return size_t(0);
        if (!stream_ || offset < check_.seen) {
            auto started = runTool(ToolOperation::ExtractOne, path_, member_, password_, name_);
            if (!started)
                return std::move(started).error();
            stream_ = std::move(*started);
            check_ = Check{size_, crc_};
        }
        std::vector<char> skip;
        while (check_.seen < offset) { // forward to `offset`, keeping the CRC going
            skip.resize(size_t(std::min<uint64_t>(offset - check_.seen, 256 * 1024)));
            auto got = next(skip);
            if (!got)
                return std::move(got).error();
        }
        const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
        size_t filled = 0;
        while (filled < want) {
            auto got = next(buf.subspan(filled, want - filled));
            if (!got)
                return std::move(got).error();
            filled += *got;
        }
        if (check_.seen == size_) { // the last bytes: only if all is well
            char probe[1];
            auto more = stream_->read(probe);
            std::unique_ptr<ToolStream> done = std::move(stream_);
            if (!more)
                return std::move(more).error();
            if (*more != 0)
                return Error::make(ErrorKind::Format, name_, QStringLiteral("7-Zip gave more bytes than its listing says (%1)").arg(size_));
            if (!done->succeeded())
                return toolFailure(*done, name_, !password_.isEmpty());
            if (auto bad = check_.finish(name_))
                return *bad;
        }
        return filled;
    }

private:
    // Up to out.size() of the next bytes: an error when 7zz ends first.
    Result<size_t> next(std::span<char> out) const
    {
        auto got = stream_->read(out);
        if (!got) {
            stream_.reset();
            return std::move(got).error();
        }
        if (*got == 0) {
            std::unique_ptr<ToolStream> done = std::move(stream_);
            if (!done->succeeded())
                return toolFailure(*done, name_, !password_.isEmpty());
            return Error::make(ErrorKind::Format, name_, QStringLiteral("7-Zip gave %1 bytes, its listing says %2").arg(check_.seen).arg(size_));
        }
        check_.add(out.data(), *got);
        return *got;
    }

    QByteArray path_, member_, password_;
    uint64_t size_;
    std::optional<uint32_t> crc_;
    QString name_;
    mutable std::mutex mutex_;
    mutable std::unique_ptr<ToolStream> stream_;
    mutable Check check_;
};

// The bytes of one item, read whole and checked.
Result<QByteArray> readItem(const QByteArray &path, const SevenZipItem &item, const QByteArray &password, const QString &what)
{
    auto stream = runTool(ToolOperation::ExtractOne, path, item.entry.path, password, what);
    if (!stream)
        return std::move(stream).error();
    auto bytes = readAll(**stream, item.streamBytes + 1, what);
    if (!bytes)
        return std::move(bytes).error();
    if (!(*stream)->succeeded())
        return toolFailure(**stream, what, !password.isEmpty());
    Check check{item.streamBytes, item.crc};
    check.add(bytes->constData(), size_t(bytes->size()));
    if (auto bad = check.finish(what))
        return *bad;
    return bytes;
}

} // namespace

bool sevenZipNeedsTool(const SourcePtr &source, bool *namesEncrypted, bool namesOnly)
{
    const ProblemScope quiet([](const Error &) {});
    auto reader = LibarchiveReader::open(source, LibarchiveReader::Mode::Archives);
    if (!reader)
        return false;
    Entry first;
    auto any = (*reader)->next(first);
    if ((*reader)->formatCode() != ARCHIVE_FORMAT_7ZIP)
        return false;
    // libarchive 3.6.2: "The archive header is encrypted, but currently not supported".
    const bool names = !any && any.error().message.contains(QLatin1String("encrypted"));
    if (namesEncrypted)
        *namesEncrypted = names;
    if (names || namesOnly)
        return names;
    // The entries' headers come from the archive's header, read whole when it opened: no content
    // is decoded to look at them all.
    for (int seen = 0; any && *any && seen < 1000000; ++seen) {
        if (first.encrypted || (*reader)->hasEncryptedEntries())
            return true;
        any = (*reader)->next(first);
    }
    return false;
}

SevenZipToolContainer::SevenZipToolContainer(SourcePtr source, QByteArray path)
    : source_(std::move(source)),
      path_(std::move(path))
{
}

Result<ContainerPtr> SevenZipToolContainer::open(SourcePtr source)
{
    const auto extent = source->fileExtent(0);
    if (!extent || extent->fileOffset != 0 || extent->file.isEmpty())
        return Error::make(ErrorKind::Unsupported, source->name(),
                           QStringLiteral("an encrypted 7z inside another archive or image is not read: 7-Zip reads it from a file (extract it first)"));
    std::shared_ptr<SevenZipToolContainer> container(new SevenZipToolContainer(source, QFile::encodeName(extent->file)));
    (void)sevenZipNeedsTool(source, &container->namesEncrypted_, true); // the probe looked at the entries
    if (auto loaded = container->load(); !loaded)
        return std::move(loaded).error();
    return ContainerPtr(std::move(container));
}

// Tries the given passwords in turn, then (a terminal to ask on) up to three the user types:
// `attempt` says whether one opens (true), does not (false), or fails otherwise (an error).
// The one that opened, or the password error naming `what`.
static Result<QByteArray> firstThatOpens(const QString &what, const QString &needs, const std::function<Result<bool>(const QByteArray &)> &attempt)
{
    const QList<QByteArray> given = archivePasswords();
    for (const QByteArray &password : given) {
        auto opened = attempt(password);
        if (!opened)
            return std::move(opened).error();
        if (*opened)
            return password;
    }
    bool wrong = !given.isEmpty();
    for (int asked = 0; asked < 3 && canAskForPasswords(); ++asked) {
        std::optional<QByteArray> typed = askForPassword(what, wrong);
        if (!typed)
            break;
        auto opened = attempt(*typed);
        if (!opened)
            return std::move(opened).error();
        if (*opened)
            return *typed;
        ::explicit_bzero(typed->data(), size_t(typed->size()));
        wrong = true;
    }
    return passwordError(what, wrong, needs);
}

Result<void> SevenZipToolContainer::load()
{
    const QString what = source_->name();
    // One listing run; false when the password does not open the names.
    auto listWith = [&](const QByteArray &password) -> Result<bool> {
        auto stream = runTool(ToolOperation::List, path_, {}, password, what);
        if (!stream)
            return std::move(stream).error();
        auto text = readAll(**stream, kListingLimit, what);
        if (!text)
            return std::move(text).error();
        if (!(*stream)->succeeded()) {
            if (saysWrongPassword(**stream) && namesEncrypted_)
                return false;
            return Error::make(ErrorKind::Format, what, QStringLiteral("7-Zip could not list it: %1").arg((*stream)->howItEnded()));
        }
        auto listing = parseSevenZipListing(*text, what);
        if (!listing)
            return std::move(listing).error();
        listing_ = std::move(*listing);
        return true;
    };
    if (namesEncrypted_) {
        auto opened = firstThatOpens(what, QStringLiteral("its list of names"), listWith);
        if (!opened)
            return std::move(opened).error();
        password_ = *opened; // the names' password opens the content too
    } else {
        auto listed = listWith(QByteArray());
        if (!listed)
            return std::move(listed).error();
        if (!listing_.anyEncrypted)
            password_ = QByteArray();
    }

    // Symlink targets are their content: read for the listing when no question is needed for it.
    int targets = 0;
    for (SevenZipItem &item : listing_.items) {
        if (item.entry.type != EntryType::Symlink || item.streamBytes == 0 || item.streamBytes > 4096 || targets >= kSymlinkTargets)
            continue;
        if (item.entry.encrypted && !password_ && archivePasswords().isEmpty())
            continue; // not worth a question (a walk reads the targets on its way)
        ++targets;
        auto password = item.entry.encrypted ? contentPassword(entryName(item.entry)) : Result<QByteArray>(QByteArray());
        auto target = password ? readItem(path_, item, *password, entryName(item.entry)) : Result<QByteArray>(password.error());
        if (target)
            item.entry.target = *target;
        else
            reportProblem(target.error());
    }
    return {};
}

QString SevenZipToolContainer::entryName(const Entry &entry) const
{
    return source_->name() + QStringLiteral("!/") + bytesToText(entry.path);
}

Result<QByteArray> SevenZipToolContainer::contentPassword(const QString &what)
{
    const std::lock_guard lock(mutex_);
    if (password_)
        return *password_;
    // The smallest encrypted file with a CRC says whether a password is the one.
    const SevenZipItem *smallest = nullptr;
    for (const SevenZipItem &item : listing_.items)
        if (item.entry.encrypted && item.crc && item.streamBytes > 0 && (!smallest || item.streamBytes < smallest->streamBytes))
            smallest = &item;
    auto opens = [&](const QByteArray &password) -> Result<bool> {
        if (!smallest)
            return true; // nothing to check it on: no encrypted file has content
        auto bytes = readItem(path_, *smallest, password, entryName(smallest->entry));
        if (bytes)
            return true;
        if (bytes.error().kind == ErrorKind::Password || bytes.error().kind == ErrorKind::Checksum)
            return false;
        return std::move(bytes).error();
    };
    auto opened = firstThatOpens(what, QStringLiteral("this entry"), opens);
    if (!opened)
        return std::move(opened).error();
    password_ = *opened;
    return *password_;
}

Result<void> SevenZipToolContainer::list(const EntrySink &sink)
{
    for (const SevenZipItem &item : listing_.items)
        if (!sink(item.entry))
            return {};
    return {};
}

Result<SourcePtr> SevenZipToolContainer::open(const Entry &entry)
{
    const QString name = entryName(entry);
    const SevenZipItem *item = entry.ordinal < listing_.items.size() && listing_.items[entry.ordinal].entry.path == entry.path
                                   ? &listing_.items[entry.ordinal]
                                   : nullptr;
    for (size_t i = listing_.items.size(); !item && i > 0; --i) // the last of a repeated name
        if (listing_.items[i - 1].entry.path == entry.path)
            item = &listing_.items[i - 1];
    if (!item)
        return Error::make(ErrorKind::NotFound, name, QStringLiteral("no such entry"));
    if (item->entry.type != EntryType::File)
        return Error::make(ErrorKind::Usage, name, QStringLiteral("is a %1, not a file").arg(entryTypeName(item->entry.type)));
    QByteArray password;
    if (item->entry.encrypted) {
        auto known = contentPassword(name);
        if (!known)
            return std::move(known).error();
        password = *known;
    }
    if (item->streamBytes == 0)
        return SourcePtr(std::make_shared<MemorySource>(QByteArray(), name));
    if (item->streamBytes <= kWholeInMemory) {
        auto bytes = readItem(path_, *item, password, name);
        if (!bytes)
            return std::move(bytes).error();
        return SourcePtr(std::make_shared<MemorySource>(std::move(*bytes), name));
    }
    return SourcePtr(std::make_shared<StreamedEntry>(path_, item->entry.path, password, *item, name));
}

Result<void> SevenZipToolContainer::walk(const ContentSink &sink)
{
    QByteArray password;
    if (listing_.anyEncrypted) {
        auto known = contentPassword(source_->name());
        if (!known)
            return std::move(known).error();
        password = *known;
    }
    // One run writes every item's bytes in listing order: a solid block is decoded once.
    auto started = runTool(ToolOperation::ExtractAll, path_, {}, password, source_->name());
    if (!started)
        return std::move(started).error();
    ToolStream &stream = **started;
    std::vector<char> skip(64 * 1024);
    for (const SevenZipItem &item : listing_.items) {
        const QString name = entryName(item.entry);
        Check check{item.streamBytes, item.crc};
        std::optional<Error> failed;
        // Up to the item's end; its CRC and 7zz's own end are checked before its last bytes go.
        auto take = [&](std::span<char> out) -> Result<size_t> {
            if (failed)
                return *failed;
            const uint64_t left = item.streamBytes - check.seen;
            if (left == 0)
                return size_t(0);
            out = out.first(size_t(std::min<uint64_t>(out.size(), left)));
            size_t filled = 0;
            while (filled < out.size()) {
                auto got = stream.read(out.subspan(filled));
                if (!got)
                    return *(failed = got.error());
                if (*got == 0)
                    return *(failed = stream.succeeded() ? check.finish(name).value_or(Error()) : toolFailure(stream, name, !password.isEmpty()));
                check.add(out.data() + filled, *got);
                filled += *got;
            }
            if (check.seen == item.streamBytes)
                if (auto bad = check.finish(name))
                    return *(failed = *bad);
            return filled;
        };
        const ContentReader content = [&](std::span<char> out) -> Result<size_t> {
            if (item.entry.type != EntryType::File)
                return size_t(0);
            return take(out);
        };
        Entry entry = item.entry;
        if (entry.type == EntryType::Symlink && item.streamBytes <= 4096) { // its target is its content
            std::vector<char> target(size_t(item.streamBytes));
            size_t filled = 0;
            while (filled < target.size()) {
                auto got = take(std::span<char>(target).subspan(filled));
                if (!got)
                    return std::move(got).error();
                filled += *got;
            }
            entry.target = QByteArray(target.data(), qsizetype(target.size()));
        }
        auto keepGoing = sink(entry, content);
        if (!keepGoing)
            return std::move(keepGoing).error();
        if (!*keepGoing)
            return {};
        while (!failed && check.seen < item.streamBytes) // what the sink left unread
            if (auto got = take(skip); !got)
                break;
        if (failed && check.seen < item.streamBytes)
            return *failed; // the stream is no longer at the next item
    }
    char probe[1];
    auto more = stream.read(probe);
    if (!more)
        return std::move(more).error();
    if (*more != 0 || !stream.succeeded())
        return Error::make(ErrorKind::Format, source_->name(), QStringLiteral("7-Zip did not end as its listing says: %1").arg(stream.howItEnded()));
    return {};
}

QJsonObject SevenZipToolContainer::info() const
{
    QJsonObject info;
    info[QStringLiteral("format")] = QStringLiteral("7z");
    info[QStringLiteral("read_by")] = QStringLiteral("7-Zip's 7zz, jailed (encrypted 7z)");
    info[QStringLiteral("names_encrypted")] = namesEncrypted_;
    info[QStringLiteral("size")] = double(source_->size());
    for (const QString &key : {QStringLiteral("Method"), QStringLiteral("Solid"), QStringLiteral("Blocks"), QStringLiteral("Physical Size"),
                               QStringLiteral("Headers Size")})
        if (listing_.archive.contains(key))
            info[key.toLower().replace(QLatin1Char(' '), QLatin1Char('_'))] = listing_.archive.value(key);
    return info;
}

} // namespace asc
