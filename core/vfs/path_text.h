// SPDX-License-Identifier: MIT
#pragma once
// Paths are raw bytes; text shows them as UTF-8 with each invalid byte as U+FFFD (CLI.md).

#include "io/byte_text.h"

#include <QByteArray>
#include <QString>

namespace asc {

// Valid UTF-8 sequences kept, every byte outside one replaced by U+FFFD.
QString pathText(const QByteArray &bytes);

} // namespace asc
