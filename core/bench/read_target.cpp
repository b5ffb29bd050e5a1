// SPDX-License-Identifier: MIT
#include "read_target.h"

#include "io/file_source.h"
#include "open/spec.h"

namespace asc {

Result<OpenedTarget> openReadTarget(const QString &spec)
{
    auto location = resolve(spec);
    if (!location)
        return std::move(location).error();
    if (location->isDirectory())
        return Error::make(ErrorKind::Usage, spec, QStringLiteral("is a directory: benchmark a file, an entry or a disk image"));
    OpenedTarget opened;
    opened.target.spec = spec;
    opened.target.source = location->source;
    const SpecParts parts = splitSpec(spec);
    opened.cachePath = parts.file;
    if (parts.inner.isEmpty() && dynamic_cast<const FileSource *>(location->source.get()))
        opened.target.filePath = parts.file;
    return opened;
}

} // namespace asc
