// SPDX-License-Identifier: MIT
#pragma once
// Bytes held in memory (tests, decoded small entries).

#include "byte_source.h"

#include <QByteArray>

namespace asc {

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(QByteArray bytes, QString name = QStringLiteral("<memory>"));

    uint64_t size() const override { return uint64_t(bytes_.size()); }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return name_; }

    const QByteArray &bytes() const { return bytes_; }

private:
    QByteArray bytes_;
    QString name_;
};

} // namespace asc
