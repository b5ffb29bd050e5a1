// SPDX-License-Identifier: MIT
#include "name_charset.h"

#include <iconv.h>
#include <mutex>

namespace asc {

static thread_local const QByteArray *tCharset = nullptr;

static std::mutex &defaultMutex()
{
    static std::mutex m;
    return m;
}

static QByteArray &defaultCharset()
{
    static QByteArray c;
    return c;
}

QByteArray currentNameCharset()
{
    if (tCharset)
        return *tCharset;
    std::lock_guard lock(defaultMutex());
    return defaultCharset();
}

void setDefaultNameCharset(const QByteArray &charset)
{
    std::lock_guard lock(defaultMutex());
    defaultCharset() = charset;
}

NameCharsetScope::NameCharsetScope(QByteArray charset)
    : charset_(std::move(charset)),
      outer_(tCharset)
{
    tCharset = &charset_;
}

NameCharsetScope::~NameCharsetScope()
{
    tCharset = outer_;
}

bool isKnownCharset(const QByteArray &charset)
{
    iconv_t cd = iconv_open("UTF-8", charset.constData());
    if (cd == iconv_t(-1))
        return false;
    iconv_close(cd);
    return true;
}

} // namespace asc
