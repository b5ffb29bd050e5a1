// SPDX-License-Identifier: MIT
#include "open_job.h"

#include "formats/archive/name_charset.h"
#include "formats/format.h"
#include "vfs/problems.h"
#include "formats/image/disk_image.h"

#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

Result<QByteArray> readHead(const ByteSource &source, qsizetype bytes)
{
    QByteArray head(qsizetype(std::min<uint64_t>(uint64_t(bytes), source.size())), Qt::Uninitialized);
    auto got = source.readAt(0, std::span(head.data(), size_t(head.size())));
    if (!got)
        return std::move(got).error();
    head.truncate(qsizetype(*got));
    return head;
}

static Result<OpenedSpec> openSpec(const QString &spec)
{
    OpenedSpec opened;
    opened.spec = spec;
    auto location = resolve(spec);
    if (!location)
        return std::move(location).error();
    opened.location = std::move(location).value();
    if (opened.location.isDirectory()) {
        opened.container = opened.location.parent;
        opened.formatName = QStringLiteral("directory");
        return opened;
    }
    const ByteSource &source = *opened.location.source;
    opened.size = opened.location.raw->size();
    auto head = readHead(source);
    if (!head)
        return std::move(head).error();
    opened.head = std::move(head).value();
    if (auto image = std::dynamic_pointer_cast<const DiskImage>(opened.location.source)) {
        opened.imageInfo = image->info();
        if (auto extents = image->map(0, image->size()))
            opened.allocation = std::move(extents).value();
    }
    auto format = probeFormat(opened.location.source);
    if (format && *format) {
        auto container = openContainer(opened.location.source);
        if (container) {
            opened.container = std::move(container).value();
            opened.formatName = opened.container->formatName();
        } else {
            opened.problem = container.error().toString();
            opened.formatName = QStringLiteral("data");
        }
    } else {
        opened.formatName = QStringLiteral("data");
    }
    return opened;
}

QFuture<Result<OpenedSpec>> openSpecAsync(const QString &spec, const QByteArray &nameCharset)
{
    return QtConcurrent::run([spec, nameCharset]() -> Result<OpenedSpec> {
        const NameCharsetScope charset(nameCharset);
        std::vector<Error> problems;
        const ProblemScope collect([&problems](const Error &problem) { problems.push_back(problem); });
        // An exception escaping a task would skip the window's continuation and leave it
        // "Opening…" for ever: it becomes an error value like any other.
        try {
            auto opened = openSpec(spec);
            if (opened)
                opened->problems = std::move(problems);
            return opened;
        } catch (const std::exception &e) {
            return Error::make(ErrorKind::Format, spec, QStringLiteral("internal error: %1").arg(QString::fromLocal8Bit(e.what())));
        } catch (...) {
            return Error::make(ErrorKind::Format, spec, QStringLiteral("internal error"));
        }
    });
}

} // namespace asc::ui
