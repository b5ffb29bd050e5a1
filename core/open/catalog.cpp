// SPDX-License-Identifier: MIT
#include "catalog.h"

#include "formats/format.h"

namespace asc {

std::vector<FormatSummary> formatCatalog()
{
    std::vector<FormatSummary> catalog;
    for (const Format &format : registeredFormats())
        catalog.push_back({format.name, format.description, format.variants});
    return catalog;
}

QStringList openableMimeTypes()
{
    QStringList types;
    for (const Format &format : registeredFormats())
        for (const QString &type : format.mimeTypes)
            if (!types.contains(type))
                types << type;
    // Disk images whose formats arrive later still open as raw bytes and partition tables.
    for (const char *extra : {"application/x-proxmox-pxar", "application/x-raw-disk-image", "application/x-cd-image"})
        if (!types.contains(QLatin1String(extra)))
            types << QString::fromLatin1(extra);
    return types;
}

QStringList openableNameGlobs()
{
    return containerNameGlobs();
}

} // namespace asc
