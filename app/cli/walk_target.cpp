// SPDX-License-Identifier: MIT
#include "walk_target.h"

namespace asc::cli {

Result<WalkTarget> walkTargetOf(const Location &location, const QString &spec)
{
    if (location.isDirectory())
        return WalkTarget{location.parent, location.directory, parentSpec(spec), false};
    auto opened = containerAt(location);
    if (opened)
        return WalkTarget{std::move(opened).value(), {}, spec, false};
    if (location.parent && location.entry)
        return WalkTarget{location.parent, location.entry->path, parentSpec(spec), true};
    return std::move(opened).error();
}

} // namespace asc::cli
