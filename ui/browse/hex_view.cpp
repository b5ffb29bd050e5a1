// SPDX-License-Identifier: MIT
#include "hex_view.h"

#include <QFontDatabase>

namespace asc::ui {

QString hexDump(const QByteArray &bytes, quint64 baseOffset)
{
    static const char hex[] = "0123456789abcdef";
    QByteArray text;
    text.reserve(bytes.size() / 16 * 80 + 80);
    for (qsizetype line = 0; line < bytes.size(); line += 16) {
        text += QByteArray::number(qulonglong(baseOffset + quint64(line)), 16).rightJustified(8, '0');
        text += "  ";
        for (int i = 0; i < 16; ++i) {
            if (line + i < bytes.size()) {
                const auto c = static_cast<unsigned char>(bytes[line + i]);
                text += hex[c >> 4];
                text += hex[c & 15];
                text += ' ';
            } else {
                text += "   ";
            }
            if (i == 7)
                text += ' ';
        }
        text += " |";
        for (int i = 0; i < 16 && line + i < bytes.size(); ++i) {
            const char c = bytes[line + i];
            text += (c >= 0x20 && c < 0x7f) ? c : '.';
        }
        text += "|\n";
    }
    return QString::fromLatin1(text);
}

HexView::HexView(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("No data"));
}

void HexView::setBytes(const QByteArray &bytes, quint64 baseOffset)
{
    bytes_ = bytes;
    setPlainText(hexDump(bytes, baseOffset));
}

} // namespace asc::ui
