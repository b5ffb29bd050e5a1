// SPDX-License-Identifier: MIT
#include "about_dialog.h"

#include "io/version.h"

#include <QMessageBox>

namespace asc::ui {

void showAbout(QWidget *parent)
{
    QMessageBox::about(parent, QObject::tr("About ArchiveScope"),
                       QObject::tr("<h3>ArchiveScope %1</h3><p>Browse archives and disk images, and measure how fast "
                                   "they read.</p><p>Copyright © 2026 The ArchiveScope developers. Free software under the "
                                   "<a href=\"https://opensource.org/license/mit\">MIT licence</a>.</p>"
                                   "<p>Homepage: <a href=\"https://github.com/archivescope/archivescope\">"
                                   "github.com/archivescope/archivescope</a></p><p>Built with %2.</p>")
                           .arg(programVersion(), libraryVersions().toHtmlEscaped()));
}

} // namespace asc::ui
