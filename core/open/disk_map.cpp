// SPDX-License-Identifier: MIT
#include "disk_map.h"

#include "formats/image/disk_image.h"
#include "formats/qcow2/qcow2_image.h"
#include "open/spec.h"

namespace asc {

Result<std::vector<DiskExtent>> mapDisk(const QString &spec)
{
    auto location = resolve(spec);
    if (!location)
        return std::move(location).error();
    if (location->isDirectory())
        return Error::make(ErrorKind::Usage, spec, QStringLiteral("is a directory, not a disk"));
    std::shared_ptr<const DiskImage> image = std::dynamic_pointer_cast<const DiskImage>(location->source);
    if (!image)
        image = std::make_shared<RawImage>(location->source);
    return image->map(0, image->size());
}

} // namespace asc
