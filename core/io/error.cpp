// SPDX-License-Identifier: MIT
#include "error.h"

#include <cstring>

namespace asc {

QString Error::withoutFile() const
{
    QString text;
    if (offset)
        text += QStringLiteral("offset %1: ").arg(*offset);
    if (kind == ErrorKind::System) {
        text += operation.isEmpty() ? QString() : operation + QStringLiteral(": ");
        text += message.isEmpty() ? QString::fromLocal8Bit(std::strerror(errnum)) : message;
    } else {
        text += message;
    }
    return text;
}

QString Error::toString() const
{
    return file.isEmpty() ? withoutFile() : file + QStringLiteral(": ") + withoutFile();
}

Error Error::system(QString file, QString operation, int errnum, std::optional<uint64_t> offset)
{
    Error e;
    e.kind = ErrorKind::System;
    e.file = std::move(file);
    e.operation = std::move(operation);
    e.errnum = errnum;
    e.offset = offset;
    e.message = QString::fromLocal8Bit(std::strerror(errnum));
    return e;
}

Error Error::format(QString file, std::optional<uint64_t> offset, QString message)
{
    return make(ErrorKind::Format, std::move(file), std::move(message), offset);
}

Error Error::make(ErrorKind kind, QString file, QString message, std::optional<uint64_t> offset)
{
    Error e;
    e.kind = kind;
    e.file = std::move(file);
    e.message = std::move(message);
    e.offset = offset;
    return e;
}

Error Error::cancelled()
{
    return make(ErrorKind::Cancelled, {}, QStringLiteral("cancelled"));
}

} // namespace asc
