// SPDX-License-Identifier: MIT
#pragma once
// What goes to archivescope-luks-unlock on its stdin and comes back on its stdout. Request: the
// volume's metadata (its headers and key slot areas), then the passwords to try. Answer: 'K' and
// the volume key, 'W' (no password opens a key slot), or 'E' and what went wrong.

#include "io/result.h"

#include <QByteArray>
#include <QList>
#include <QtEndian>
#include <cstring>

namespace asc::luks_unlock {

inline constexpr int kCpuSeconds = 120; // the helper's own limit: a PBKDF costlier than this is refused
inline constexpr uint64_t kMemoryBytes = 5ull << 30; // Argon2 asks for up to 4 GiB
inline constexpr uint64_t kMaxMetadata = 64ull << 20;
inline constexpr uint32_t kMaxPasswords = 256;
inline constexpr uint32_t kMaxPasswordBytes = 1 << 16;

inline void appendU32(QByteArray &out, uint32_t v)
{
    char b[4];
    qToLittleEndian(v, b);
    out.append(b, 4);
}

inline QByteArray encodeRequest(const QByteArray &metadata, const QList<QByteArray> &passwords)
{
    QByteArray out;
    out.reserve(metadata.size() + 64);
    out.append("ASLU", 4);
    appendU32(out, uint32_t(metadata.size()));
    out.append(metadata);
    appendU32(out, uint32_t(passwords.size()));
    for (const QByteArray &p : passwords) {
        appendU32(out, uint32_t(p.size()));
        out.append(p);
    }
    return out;
}

struct Request {
    QByteArray metadata;
    QList<QByteArray> passwords;
};

// Reads a request from `read(buffer, n)` (which fills n bytes or fails); false when malformed.
template <typename ReadExactly>
bool readRequest(ReadExactly read, Request &request)
{
    char head[8];
    if (!read(head, 8) || std::memcmp(head, "ASLU", 4) != 0)
        return false;
    const uint32_t size = qFromLittleEndian<uint32_t>(head + 4);
    if (size > kMaxMetadata)
        return false;
    request.metadata.resize(qsizetype(size));
    char n[4];
    if (!read(request.metadata.data(), size) || !read(n, 4))
        return false;
    const uint32_t count = qFromLittleEndian<uint32_t>(n);
    if (count > kMaxPasswords)
        return false;
    for (uint32_t i = 0; i < count; ++i) {
        if (!read(n, 4))
            return false;
        const uint32_t length = qFromLittleEndian<uint32_t>(n);
        if (length > kMaxPasswordBytes)
            return false;
        QByteArray password(qsizetype(length), '\0');
        if (!read(password.data(), length))
            return false;
        request.passwords.append(password);
    }
    return true;
}

inline Result<QByteArray> decodeAnswer(const QByteArray &answer, const QString &name)
{
    if (answer.startsWith('K') && answer.size() > 5) {
        const uint32_t length = qFromLittleEndian<uint32_t>(answer.constData() + 1);
        if (length > 0 && length <= 512 && answer.size() == qsizetype(5 + length))
            return answer.mid(5);
    }
    if (answer == "W")
        return Error::make(ErrorKind::Password, name, QStringLiteral("wrong password: none of the passwords given opens a key slot of the LUKS volume"));
    if (answer.startsWith('E'))
        return Error::make(ErrorKind::Format, name, QStringLiteral("opening the LUKS key slots failed: %1").arg(QString::fromUtf8(answer.mid(1, 1000))));
    return Error::make(ErrorKind::System, name, QStringLiteral("opening the LUKS key slots failed: archivescope-luks-unlock gave no answer"));
}

} // namespace asc::luks_unlock
