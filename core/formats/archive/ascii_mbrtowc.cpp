// SPDX-License-Identifier: MIT
// libarchive 3.6.2's tar reader turns the name of every regular file into wide characters, to
// see whether it ends in '/', with one mbrtowc call per byte; in a UTF-8 locale each call goes
// through glibc's gconv machinery. Listing a tar spent a third of its instructions there. This
// definition is found before libc's by every library (the program's own symbols come first):
// an ASCII byte in the initial shift state of a UTF-8 locale — what it decodes to is itself in
// every case — is answered here; anything else goes to glibc's own mbrtowc.

#include "ascii_mbrtowc.h"

#include <cstdlib>
#include <cwchar>
#include <dlfcn.h>

namespace {

using Mbrtowc = size_t (*)(wchar_t *, const char *, size_t, mbstate_t *);

Mbrtowc libcMbrtowc()
{
    static const auto real = reinterpret_cast<Mbrtowc>(::dlsym(RTLD_NEXT, "mbrtowc"));
    return real;
}

} // namespace

extern "C" size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps)
{
    // glibc: UTF-8 is the one charset with MB_CUR_MAX 6; __count 0 is the initial state (no
    // partial character pending). A null state (glibc's hidden one) always goes to glibc.
    if (s && n > 0 && ps && ps->__count == 0 && static_cast<unsigned char>(*s) < 0x80 && MB_CUR_MAX == 6) {
        if (pwc)
            *pwc = wchar_t(*s);
        return *s ? 1 : 0;
    }
    return libcMbrtowc()(pwc, s, n, ps);
}

namespace asc {

bool asciiMbrtowcInUse()
{
    using Found = size_t (*)(wchar_t *, const char *, size_t, mbstate_t *);
    return reinterpret_cast<Found>(::dlsym(RTLD_DEFAULT, "mbrtowc")) == &::mbrtowc && libcMbrtowc() != nullptr;
}

} // namespace asc
