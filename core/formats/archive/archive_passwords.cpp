// SPDX-License-Identifier: MIT
#include "archive_passwords.h"

#include <cstring>
#include <mutex>

namespace asc {

static thread_local const QList<QByteArray> *tPasswords = nullptr;

static std::mutex &defaultMutex()
{
    static std::mutex m;
    return m;
}

static QList<QByteArray> &defaultPasswords()
{
    static QList<QByteArray> passwords;
    return passwords;
}

QList<QByteArray> archivePasswords()
{
    if (tPasswords)
        return *tPasswords;
    std::lock_guard lock(defaultMutex());
    return defaultPasswords();
}

void setDefaultArchivePasswords(QList<QByteArray> passwords)
{
    std::lock_guard lock(defaultMutex());
    wipePasswords(defaultPasswords());
    defaultPasswords() = std::move(passwords);
}

void wipePasswords(QList<QByteArray> &passwords)
{
    for (QByteArray &password : passwords) {
        if (password.isDetached()) // shared bytes belong to another list too: that one wipes them
            ::explicit_bzero(password.data(), size_t(password.size()));
    }
    passwords.clear();
}

static PasswordAsker &passwordAsker()
{
    static PasswordAsker asker;
    return asker;
}

void setPasswordAsker(PasswordAsker asker)
{
    std::lock_guard lock(defaultMutex());
    passwordAsker() = std::move(asker);
}

bool canAskForPasswords()
{
    std::lock_guard lock(defaultMutex());
    return bool(passwordAsker());
}

std::optional<QByteArray> askForPassword(const QString &what, bool wrong)
{
    PasswordAsker asker;
    {
        std::lock_guard lock(defaultMutex());
        asker = passwordAsker();
    }
    // One question at a time: two threads asking at once would share one terminal.
    static std::mutex asking;
    std::lock_guard one(asking);
    return asker ? asker(what, wrong) : std::nullopt;
}

void rememberTypedPassword(const QByteArray &password)
{
    std::lock_guard lock(defaultMutex());
    if (!defaultPasswords().contains(password))
        defaultPasswords().append(QByteArray(password.constData(), password.size())); // its own bytes, wiped with the list
}

ArchivePasswordsScope::ArchivePasswordsScope(QList<QByteArray> passwords)
    : passwords_(std::move(passwords)),
      outer_(tPasswords)
{
    tPasswords = &passwords_;
}

ArchivePasswordsScope::~ArchivePasswordsScope()
{
    tPasswords = outer_;
    wipePasswords(passwords_);
}

} // namespace asc
