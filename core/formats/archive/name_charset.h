// SPDX-License-Identifier: MIT
#pragma once
// The charset legacy archive names are decoded from (libarchive's "hdrcharset": zip without the
// UTF-8 flag, tar, cpio, cab, ...). Empty: names as stored. The CLI sets the process default
// (--charset); a GUI window sets it for the jobs it runs (its "Name encoding" choice). An archive
// container keeps the charset it was opened with, for every later read of its entries.

#include <QByteArray>
#include <QList>
#include <span>

namespace asc {

QByteArray currentNameCharset();
void setDefaultNameCharset(const QByteArray &charset);

// This thread's charset while alive.
class NameCharsetScope {
public:
    explicit NameCharsetScope(QByteArray charset);
    ~NameCharsetScope();
    NameCharsetScope(const NameCharsetScope &) = delete;
    NameCharsetScope &operator=(const NameCharsetScope &) = delete;

private:
    QByteArray charset_;
    const QByteArray *outer_;
};

// The legacy charsets a user can pick for names (the window's View > Name Encoding), with a
// label, in menu order.
struct NamedCharset {
    const char *charset;
    const char *label;
};
std::span<const NamedCharset> legacyNameCharsets();

// Every charset names may be converted from or to in this process: the legacy ones, and those
// libarchive's readers use on their own (LHA's CP932, UTF-16 in 7z, Joliet, LHA level 2).
// A sandboxed worker opens their converters before its lockdown (iconv loads them as modules).
QList<QByteArray> nameConversionCharsets();

// Whether iconv knows the charset (names a usage error can point at).
bool isKnownCharset(const QByteArray &charset);

} // namespace asc
