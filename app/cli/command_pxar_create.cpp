// SPDX-License-Identifier: MIT
// `pxar-create DIR -o OUT [--split]`: encode a directory as a pxar archive (v1), or as a v2 split
// pair OUT.mpxar + OUT.ppxar. For building test and benchmark archives of any shape and size.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "open/pxar_create.h"

namespace asc::cli {

int runPxarCreate(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("pxar-create"),
                     QStringLiteral("Write DIR as a pxar archive, laid out like the reference encoder (names sorted byte-wise;\n"
                                    "metadata: mode, owner, mtime with nanoseconds, user/trusted xattrs, hardlinks). With --split,\n"
                                    "OUT must end in .mpxar and the payload goes to the .ppxar beside it (format version 2)."));
    p.addPositional(QStringLiteral("DIR"), QStringLiteral("the directory to archive"));
    p.parser().addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("The archive to write."), QStringLiteral("OUT")});
    p.parser().addOption({QStringLiteral("split"), QStringLiteral("Write a v2 split archive (.mpxar + .ppxar).")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    if (!p.parser().isSet(QStringLiteral("output")))
        return usage(QStringLiteral("pxar-create: -o OUT is required"));
    const QString dir = p.parser().positionalArguments().first();
    const QString out = p.parser().value(QStringLiteral("output"));
    pxar::WriteOptions options;
    options.split = p.parser().isSet(QStringLiteral("split"));
    if (options.split && !out.endsWith(QLatin1String(".mpxar")))
        return usage(QStringLiteral("pxar-create: with --split the output must end in .mpxar"));
    auto tree = pxar::scanDirectory(dir);
    if (!tree)
        return fail(dir, tree.error());
    const QString payload = options.split ? out.chopped(6) + QStringLiteral(".ppxar") : QString();
    auto written = pxar::writeArchive(*tree, out, payload, options);
    if (!written)
        return fail(out, written.error());
    return Success;
}

} // namespace asc::cli
