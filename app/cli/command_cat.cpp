// `cat SPEC`: the bytes of a file, an entry or a virtual disk to stdout, byte-exact.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "vfs/spec.h"

#include <memory>

namespace asc::cli {

// Large enough that a 1 GiB file streams in ~1000 reads; small enough to stay in L2-ish caches.
static constexpr size_t kCatBuffer = 1 << 20;

int runCat(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("cat"), QStringLiteral("Write the bytes of SPEC (a file, an archive entry, a disk image's virtual disk, a partition) to stdout."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("what to read, e.g. backup.tar!/etc/hosts"));
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = p.parser().positionalArguments().first();
    auto location = resolve(spec);
    if (!location)
        return fail(spec, location.error());
    if (location->isDirectory())
        return fail(spec, Error::make(ErrorKind::Usage, spec, QStringLiteral("is a directory")));
    const ByteSource &source = *location->source;
    std::unique_ptr<char[]> buffer(new char[kCatBuffer]);
    uint64_t offset = 0;
    for (;;) {
        auto got = source.readAt(offset, std::span(buffer.get(), kCatBuffer));
        if (!got)
            return fail(spec, got.error());
        if (*got == 0)
            break;
        auto written = writeStdout(buffer.get(), *got);
        if (!written)
            return fail(spec, written.error());
        if (!*written)
            return Success; // the reader closed the pipe: stop quietly
        offset += *got;
    }
    return Success;
}

} // namespace asc::cli
