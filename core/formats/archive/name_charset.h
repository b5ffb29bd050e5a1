// SPDX-License-Identifier: MIT
#pragma once
// The charset legacy archive names are decoded from (libarchive's "hdrcharset": zip without the
// UTF-8 flag, tar, cpio, cab, ...). Empty: names as stored. The CLI sets the process default
// (--charset); a GUI window sets it for the jobs it runs (its "Name encoding" choice). An archive
// container keeps the charset it was opened with, for every later read of its entries.

#include <QByteArray>

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

// Whether iconv knows the charset (names a usage error can point at).
bool isKnownCharset(const QByteArray &charset);

} // namespace asc
