// SPDX-License-Identifier: MIT
#pragma once
// The passwords encrypted archive entries are tried with (zip's ZipCrypto and WinZip AES, through
// libarchive's passphrase list), in turn. The CLI sets the process default (--password-file,
// ARCHIVESCOPE_PASSWORD); a request to the worker carries its client's and sets them for its
// thread. Kept in memory only, never in argv, logs, traces, the index or settings; a list that
// is replaced is wiped. Thread safe.

#include <QByteArray>
#include <QList>
#include <functional>
#include <optional>

namespace asc {

QList<QByteArray> archivePasswords();
void setDefaultArchivePasswords(QList<QByteArray> passwords);
// Zeros the bytes of every password in `passwords` (their last owner) and empties the list.
void wipePasswords(QList<QByteArray> &passwords);

// Asks the user for a password for `what` (a SPEC; `wrong`: the ones given did not open it), as
// the CLI does on its terminal; nullopt when declined or when nobody can be asked. Set once by a
// shell; without one, nothing is asked.
using PasswordAsker = std::function<std::optional<QByteArray>(const QString &what, bool wrong)>;
void setPasswordAsker(PasswordAsker asker);
bool canAskForPasswords();
std::optional<QByteArray> askForPassword(const QString &what, bool wrong);
// A password the user typed: tried after the given ones from now on, by every reader of this
// process (so one answer serves the archive's every entry). Memory only.
void rememberTypedPassword(const QByteArray &password);

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
