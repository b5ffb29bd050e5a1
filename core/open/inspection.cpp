// SPDX-License-Identifier: MIT
#include "inspection.h"

#include "io/concat_source.h"

#include <QJsonArray>

#include "formats/format.h"
#include "formats/image/disk_image.h"
#include "vfs/problems.h"

namespace asc {

QJsonObject Inspection::toJson() const
{
    QJsonObject info;
    info[QStringLiteral("spec")] = spec;
    if (directory) {
        info[QStringLiteral("type")] = QStringLiteral("dir");
        info[QStringLiteral("container")] = formatInfo;
        return info;
    }
    info[QStringLiteral("size")] = double(size);
    for (auto it = imageInfo.begin(); it != imageInfo.end(); ++it)
        info[it.key()] = it.value();
    if (!imageInfo.isEmpty()) {
        if (!formatInfo.isEmpty())
            info[QStringLiteral("content")] = formatInfo;
        return info;
    }
    for (auto it = formatInfo.begin(); it != formatInfo.end(); ++it)
        info[it.key()] = it.value();
    if (formatInfo.isEmpty())
        info[QStringLiteral("format")] = QStringLiteral("raw");
    return info;
}

static Result<void> inspectInto(Inspected &out, const QString &spec, const InspectOptions &options)
{
    Inspection &facts = out.inspection;
    facts.spec = spec;
    auto location = resolve(spec);
    if (!location)
        return std::move(location).error();
    out.location = std::move(location).value();
    if (out.location.isDirectory()) {
        facts.directory = true;
        facts.formatName = QStringLiteral("directory");
        out.container = out.location.parent;
        facts.formatInfo = out.container->info();
        return {};
    }
    const SourcePtr &source = out.location.source;
    facts.size = out.location.raw->size();
    if (auto image = std::dynamic_pointer_cast<const DiskImage>(source)) {
        facts.imageInfo = image->info();
        if (options.allocation) {
            if (auto extents = image->map(0, image->size()))
                facts.allocation = std::move(extents).value();
        }
    }
    // An encrypted volume without its password is still described (its header is read), and
    // what it holds is the error.
    const auto locked = [&facts](const Error &error) {
        if (error.kind != ErrorKind::Password)
            return false;
        facts.formatName = QStringLiteral("data");
        facts.openError = error;
        return true;
    };
    if (options.headBytes > 0) {
        auto head = readHead(*source, options.headBytes);
        if (!head)
            return locked(head.error()) ? Result<void>() : Result<void>(std::move(head).error());
        facts.head = std::move(head).value();
    }
    // One probe: the format it names opens the container (resolve unwrapped images already).
    auto format = probeFormat(source);
    if (!format)
        return locked(format.error()) ? Result<void>() : Result<void>(std::move(format).error());
    facts.formatName = QStringLiteral("data");
    if (!*format || !(*format)->openContainer)
        return {};
    auto container = (*format)->openContainer(source);
    if (!container) {
        facts.openError = container.error();
        return {};
    }
    out.container = std::move(container).value();
    facts.formatName = out.container->formatName();
    facts.formatInfo = out.container->info();
    // A split set read as one: its parts, in order (the details list them).
    if (auto set = std::dynamic_pointer_cast<const ConcatSource>(out.location.raw)) {
        QJsonArray parts;
        for (const SourcePtr &part : set->parts())
            parts.append(part->name());
        facts.formatInfo[QStringLiteral("parts")] = parts;
    }
    return {};
}

Result<Inspected> inspect(const QString &spec, const InspectOptions &options)
{
    Inspected out;
    std::vector<Error> problems;
    const ProblemScope collect([&problems](const Error &problem) { problems.push_back(problem); });
    if (auto done = inspectInto(out, spec, options); !done)
        return std::move(done).error();
    out.inspection.problems = std::move(problems);
    return out;
}

} // namespace asc
