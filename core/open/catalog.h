// SPDX-License-Identifier: MIT
#pragma once
// What this build can open, as plain values: for `formats`, the .desktop MIME list and the Open
// dialog's filter.

#include <QStringList>
#include <utility>
#include <vector>

namespace asc {

struct FormatSummary {
    QString name;
    QString description;
    std::vector<std::pair<QString, QString>> variants; // name, description
};

std::vector<FormatSummary> formatCatalog();
// Every MIME type a format opens (and the disk-image types that open as raw disks), once each.
QStringList openableMimeTypes();
// Every declared file name suffix as a glob ("*.tgz").
QStringList openableNameGlobs();

} // namespace asc
