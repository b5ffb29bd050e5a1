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

std::span<const NamedCharset> legacyNameCharsets()
{
    static const NamedCharset charsets[] = {
        {"CP437", "DOS Latin US (CP437)"},
        {"CP850", "DOS Latin 1 (CP850)"},
        {"CP866", "DOS Cyrillic (CP866)"},
        {"CP1250", "Windows Central European (CP1250)"},
        {"CP1251", "Windows Cyrillic (CP1251)"},
        {"CP1252", "Windows Western (CP1252)"},
        {"KOI8-R", "Cyrillic (KOI8-R)"},
        {"ISO-8859-1", "Western (ISO-8859-1)"},
        {"ISO-8859-2", "Central European (ISO-8859-2)"},
        {"SHIFT_JIS", "Japanese (Shift JIS)"},
        {"CP932", "Japanese (CP932)"},
        {"EUC-JP", "Japanese (EUC-JP)"},
        {"GBK", "Chinese Simplified (GBK)"},
        {"BIG5", "Chinese Traditional (Big5)"},
        {"EUC-KR", "Korean (EUC-KR)"},
    };
    return charsets;
}

QList<QByteArray> nameConversionCharsets()
{
    QList<QByteArray> charsets = {"UTF-8", "UTF-16", "UTF-16LE", "UTF-16BE", "UCS-2", "UCS-2LE", "UCS-2BE", "ASCII"};
    for (const NamedCharset &c : legacyNameCharsets())
        charsets << QByteArray(c.charset);
    return charsets;
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
