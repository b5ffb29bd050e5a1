// SPDX-License-Identifier: MIT
#include "remove_tree.h"

#include "byte_text.h"

#include <ftw.h>
#include <cstdio>
#include <sys/stat.h>

namespace asc {

static int removeOne(const char *path, const struct stat *, int type, struct FTW *)
{
    if (type == FTW_DP)
        ::chmod(path, 0700); // a read-only folder from an archive keeps its entries otherwise
    return ::remove(path) == 0 ? 0 : 1;
}

static int openUp(const char *path, const struct stat *st, int type, struct FTW *)
{
    if (type == FTW_D && !(st->st_mode & S_IWUSR))
        ::chmod(path, 0700);
    return 0;
}

bool removeTree(const QString &path)
{
    const QByteArray native = nativePath(path);
    ::nftw(native.constData(), openUp, 32, FTW_PHYS);
    return ::nftw(native.constData(), removeOne, 32, FTW_DEPTH | FTW_PHYS) == 0;
}

} // namespace asc
