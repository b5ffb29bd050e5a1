// SPDX-License-Identifier: MIT
#pragma once
// The passwords encrypted archive entries are tried with (zip's ZipCrypto and WinZip AES, through
// libarchive's passphrase list), in turn. The CLI sets the process default (--password-file,
// ARCHIVESCOPE_PASSWORD); a request to the worker carries its client's and sets them for its
// thread. Kept in memory only, never in argv, logs, traces, the index or settings; a list that
// is replaced is wiped. Thread safe.

#include <QByteArray>
#include <QList>

namespace asc {

QList<QByteArray> archivePasswords();
void setDefaultArchivePasswords(QList<QByteArray> passwords);
// Zeros the bytes of every password in `passwords` (their last owner) and empties the list.
void wipePasswords(QList<QByteArray> &passwords);

// This thread's passwords while alive (a worker request's).
class ArchivePasswordsScope {
public:
    explicit ArchivePasswordsScope(QList<QByteArray> passwords);
    ~ArchivePasswordsScope();
    ArchivePasswordsScope(const ArchivePasswordsScope &) = delete;
    ArchivePasswordsScope &operator=(const ArchivePasswordsScope &) = delete;

private:
    QList<QByteArray> passwords_;
    const QList<QByteArray> *outer_;
};

} // namespace asc
