// SPDX-License-Identifier: MIT
#include "path_text.h"

namespace asc {

QString pathText(const QByteArray &bytes)
{
    if (isValidUtf8(bytes))
        return QString::fromUtf8(bytes);
    QString text;
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    for (qsizetype i = 0; i < bytes.size();) {
        const int n = utf8SequenceLength(p + i, bytes.size() - i);
        if (n == 0) {
            text += QChar(0xFFFD);
            ++i;
        } else {
            text += QString::fromUtf8(bytes.constData() + i, n);
            i += n;
        }
    }
    return text;
}

} // namespace asc
