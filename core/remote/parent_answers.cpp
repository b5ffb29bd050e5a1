// SPDX-License-Identifier: MIT
#include "parent_answers.h"

#include "formats/archive/archive_passwords.h"
#include "formats/archive/index_cache.h"
#include "formats/luks/luks_unlock.h"
#include "io/atomic_file.h"
#include "io/byte_text.h"
#include "io/scratch_file.h"
#include "sandbox/tool_run.h"

#include <QDir>
#include <QFile>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asc {

using wire::Kind;
using wire::Message;
using wire::Received;

namespace {

// Answered with a descriptor (or -errno) passed along.
bool passDescriptor(int fd, const Message &answer, int opened)
{
    const bool sent = wire::sendFrame(fd, answer.bytes(), opened);
    if (opened >= 0)
        ::close(opened);
    return sent;
}

// Sends an answer that carries a secret (a volume key, a password), then wipes the message's
// bytes and the secret's.
bool sendWiping(int fd, Message &answer, QByteArray *secret)
{
    const bool sent = wire::sendFrame(fd, answer.bytes());
    answer.wipe();
    if (secret)
        ::explicit_bzero(secret->data(), size_t(secret->size()));
    return sent;
}

bool answerOpenFile(int fd, Received &request, const WorkerGrants &grants)
{
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
    return passDescriptor(fd, Message(Kind::FileAnswer) << qint32(opened < 0 ? -opened : 0), opened);
}

bool answerCreateScratch(int fd, Received &request, const WorkerGrants &grants)
{
    QString dir;
    request >> dir;
    const bool allowed = request.ok() && !grants.scratchDir.isEmpty() && sameFile(dir, grants.scratchDir);
    const int made = allowed ? makeScratchFile(grants.scratchDir) : -EACCES;
    return passDescriptor(fd, Message(Kind::FileAnswer) << qint32(made < 0 ? -made : 0), made);
}

bool answerWriteExport(int fd, Received &request, const WorkerGrants &grants)
{
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

bool answerUnlockVolume(int fd, Received &request, const WorkerGrants &)
{
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

bool answerAskPassword(int fd, Received &request, const WorkerGrants &)
{
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

bool answerRunTool(int fd, Received &request, const WorkerGrants &grants)
{
    // The worker names a tool, an operation, an archive and a member; the argv is built by
    // sandbox/tool_run from that, and the archive must be one the worker may read.
    QByteArray encoded;
    request >> encoded;
    std::optional<ToolRun> run = request.ok() ? ToolRun::decode(encoded) : std::nullopt;
    ::explicit_bzero(encoded.data(), size_t(encoded.size()));
    Result<int> started = Error::system(QStringLiteral("worker"), QStringLiteral("run a tool"), EPROTO);
    if (run) {
        const QByteArray asked = canonicalPath(run->archive);
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
    return passDescriptor(fd, answer, started ? *started : -1);
}

using Answer = bool (*)(int fd, Received &request, const WorkerGrants &grants);

// Every question a worker may ask its parent, and its answer: a new question is one row here and
// its function above (and the asking side in file_requests.cpp).
constexpr std::pair<Kind, Answer> kQuestions[] = {
    {Kind::OpenFile, answerOpenFile},
    {Kind::CreateScratch, answerCreateScratch},
    {Kind::WriteExport, answerWriteExport},
    {Kind::UnlockVolume, answerUnlockVolume},
    {Kind::AskPassword, answerAskPassword},
    {Kind::RunTool, answerRunTool},
};

Answer answerOf(Kind kind)
{
    for (const auto &[question, answer] : kQuestions)
        if (question == kind)
            return answer;
    return nullptr;
}

} // namespace

bool isWorkerRequest(Kind kind)
{
    return answerOf(kind) != nullptr;
}

bool answerWorkerRequest(int fd, Received &request, const WorkerGrants &grants)
{
    if (const Answer answer = answerOf(request.kind()))
        return answer(fd, request, grants);
    return passDescriptor(fd, Message(Kind::FileAnswer) << qint32(EPROTO), -1);
}

bool answerWorkerRequest(int fd, const WorkerGrants &grants)
{
    auto frame = wire::receiveFrame(fd);
    if (!frame)
        return false;
    Received request(*frame);
    return answerWorkerRequest(fd, request, grants);
}

} // namespace asc
