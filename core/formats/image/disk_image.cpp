// SPDX-License-Identifier: MIT
#include "disk_image.h"

namespace asc {

BackingPolicy &backingPolicy()
{
    static BackingPolicy policy;
    return policy;
}

} // namespace asc
