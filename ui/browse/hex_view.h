// SPDX-License-Identifier: MIT
#pragma once
// A read-only hex dump (offset, 16 bytes in hex, ASCII) of a block of bytes.

#include <QPlainTextEdit>

namespace asc::ui {

class HexView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit HexView(QWidget *parent = nullptr);
    // Shows `bytes`, whose first byte is at `baseOffset` in its source.
    void setBytes(const QByteArray &bytes, quint64 baseOffset = 0);
    const QByteArray &bytes() const { return bytes_; }

private:
    QByteArray bytes_;
};

// The text HexView shows, for tests and for copying.
QString hexDump(const QByteArray &bytes, quint64 baseOffset);

} // namespace asc::ui
