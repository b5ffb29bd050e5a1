// SPDX-License-Identifier: MIT
#include "byte_text.h"

namespace asc {

int utf8SequenceLength(const unsigned char *p, qsizetype left)
{
    const unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    int len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c == 0xE0) {
        len = 3;
        lo = 0xA0;
    } else if (c == 0xED) {
        len = 3;
        hi = 0x9F;
    } else if (c >= 0xE1 && c <= 0xEF)
        len = 3;
    else if (c == 0xF0) {
        len = 4;
        lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3)
        len = 4;
    else if (c == 0xF4) {
        len = 4;
        hi = 0x8F;
    } else
        return 0;
    if (left < len)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < len; ++i)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return len;
}

bool isValidUtf8(const QByteArray &bytes)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    for (qsizetype i = 0; i < bytes.size();) {
        const int n = utf8SequenceLength(p + i, bytes.size() - i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

QString bytesToText(const QByteArray &bytes)
{
    if (isValidUtf8(bytes))
        return QString::fromUtf8(bytes);
    QString text;
    text.reserve(bytes.size());
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    for (qsizetype i = 0; i < bytes.size();) {
        const int n = utf8SequenceLength(p + i, bytes.size() - i);
        if (n == 0) {
            text += QChar(char16_t(0xDC00 | p[i]));
            ++i;
        } else {
            text += QString::fromUtf8(bytes.constData() + i, n);
            i += n;
        }
    }
    return text;
}

QByteArray textToBytes(const QString &text)
{
    bool escaped = false;
    for (QChar c : text) {
        if (c.unicode() >= 0xDC80 && c.unicode() <= 0xDCFF) {
            escaped = true;
            break;
        }
    }
    if (!escaped)
        return text.toUtf8();
    QByteArray out;
    out.reserve(text.size());
    qsizetype runStart = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t u = text[i].unicode();
        // A lone low surrogate in 0xDC80..0xDCFF is an escaped byte; a proper pair never starts low.
        const bool pairedLow = i > 0 && text[i - 1].isHighSurrogate();
        if (u >= 0xDC80 && u <= 0xDCFF && !pairedLow) {
            out += QStringView(text).mid(runStart, i - runStart).toUtf8();
            out += char(u & 0xFF);
            runStart = i + 1;
        }
    }
    out += QStringView(text).mid(runStart).toUtf8();
    return out;
}

QByteArray escapeForTerminal(const QByteArray &bytes)
{
    static const char hex[] = "0123456789abcdef";
    QByteArray out;
    out.reserve(bytes.size());
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    for (qsizetype i = 0; i < bytes.size();) {
        const unsigned char c = p[i];
        const int n = utf8SequenceLength(p + i, bytes.size() - i);
        if (n == 1 && c == '\\') {
            out += "\\\\";
        } else if (n == 0 || c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
            i += 1;
            continue;
        } else if (n == 2 && c == 0xC2 && p[i + 1] < 0xA0) {
            // C1 control characters (U+0080..U+009F) move terminals around too.
            for (int k = 0; k < 2; ++k) {
                out += "\\x";
                out += hex[p[i + k] >> 4];
                out += hex[p[i + k] & 15];
            }
        } else {
            out.append(bytes.constData() + i, n);
        }
        i += n;
    }
    return out;
}

} // namespace asc
