// SPDX-License-Identifier: MIT
#include "sibling_file.h"

#include "disk_image.h"

#include <QFileInfo>

namespace asc {

Result<QString> resolveSibling(const SiblingRequest &request)
{
    const QString &stored = request.stored;
    const QString image = request.image.path();
    if (stored.contains(QLatin1Char(':')) && !stored.startsWith(QLatin1Char('/')))
        return Error::make(ErrorKind::Unsupported, image,
                           QStringLiteral("%1 '%2' uses a protocol or JSON name: not followed").arg(request.what, stored), request.offset);
    const QFileInfo self(image);
    const QString folder = self.canonicalPath();
    const bool absolute = QFileInfo(stored).isAbsolute();
    const QString candidate = absolute ? stored : self.absolutePath() + QLatin1Char('/') + stored;
    const QString canonical = QFileInfo(candidate).canonicalFilePath();
    if (canonical.isEmpty())
        return Error::make(ErrorKind::NotFound, image,
                           QStringLiteral("%1 '%2' not found (looked for %3)").arg(request.what, stored, candidate), request.offset);
    if (absolute || !canonical.startsWith(folder + QLatin1Char('/'))) {
        const BackingPolicy &policy = backingPolicy();
        if (!policy.allowOutside && !(policy.askOutside && policy.askOutside(image, canonical)))
            return Error::make(ErrorKind::Unsupported, image,
                               QStringLiteral("%1 '%2' (%3) is outside the image's folder: not followed unless allowed (--allow-backing)")
                                   .arg(request.what, stored, canonical),
                               request.offset);
    }
    return canonical;
}

} // namespace asc
