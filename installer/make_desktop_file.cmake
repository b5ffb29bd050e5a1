# SPDX-License-Identifier: MIT
# Fills @ARCHIVESCOPE_MIME_TYPES@ in the .desktop template from the CLI's `formats --mime-types`.
file(READ ${TYPES} types)
string(STRIP "${types}" types)
string(REPLACE "\n" ";" types "${types}")
list(REMOVE_DUPLICATES types)
list(JOIN types ";" joined)
set(ARCHIVESCOPE_MIME_TYPES "${joined};")
configure_file(${IN} ${OUT} @ONLY)
