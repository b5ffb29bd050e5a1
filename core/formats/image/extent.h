// SPDX-License-Identifier: MIT
#pragma once
// Allocation of a virtual disk, like `qemu-img map --output=json`: runs of the disk with the same
// state at the same depth of the backing chain.

#include <QJsonArray>
#include <cstdint>
#include <optional>
#include <vector>

namespace asc {

struct DiskExtent {
    uint64_t start = 0;
    uint64_t length = 0;
    int depth = 0; // 0 = the image itself, 1 = its backing file, ...
    bool present = false; // some layer defines this range (else it reads as zeros by default)
    bool zero = false; // reads as zeros
    bool data = false; // stored data is read
    bool compressed = false;
    std::optional<uint64_t> offset; // host offset in the file of layer `depth`, for plain data
};

// Appends an extent, merging it into the previous one when everything matches and host offsets
// continue (qemu's rule).
void appendExtent(std::vector<DiskExtent> &extents, const DiskExtent &next);
QJsonArray extentsToJson(const std::vector<DiskExtent> &extents);

} // namespace asc
