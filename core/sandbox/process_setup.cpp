// SPDX-License-Identifier: MIT
#include "sandbox/process_setup.h"

#include <clocale>
#include <cstring>
#include <langinfo.h>

namespace asc {

void useUtf8Locale()
{
    std::setlocale(LC_ALL, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset && std::strcmp(codeset, "UTF-8") == 0)
        return;
    if (!std::setlocale(LC_CTYPE, "C.UTF-8"))
        std::setlocale(LC_CTYPE, "C.utf8");
}

} // namespace asc
