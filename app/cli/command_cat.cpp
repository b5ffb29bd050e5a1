// SPDX-License-Identifier: MIT
// `cat SPEC`: the bytes of a file, an entry or a virtual disk to stdout, byte-exact.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "open/spec.h"

#include "io/copy_to_fd.h"

#include <unistd.h>

namespace asc::cli {

int runCat(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("cat"), QStringLiteral("Write the bytes of SPEC (a file, an archive entry, a disk image's virtual disk, a partition) to stdout."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("what to read, e.g. backup.tar!/etc/hosts"));
    p.parser().addOption({QStringLiteral("raw"), QStringLiteral("The file's own bytes, whatever it holds (a disk image file rather than its virtual disk; an image format ArchiveScope does not read is an error without it).")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = p.parser().positionalArguments().first();
    auto location = resolve(spec, !p.parser().isSet(QStringLiteral("raw")));
    if (!location)
        return fail(spec, location.error());
    if (location->isDirectory())
        return fail(spec, Error::make(ErrorKind::Usage, spec, QStringLiteral("is a directory")));
    auto copied = copyToFd(*location->source, STDOUT_FILENO, QStringLiteral("<stdout>"));
    if (!copied)
        return fail(spec, copied.error());
    return Success;
}

} // namespace asc::cli
