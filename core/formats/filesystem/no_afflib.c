// SPDX-License-Identifier: MIT
// A libafflib.so.0 with nothing in it. The Sleuth Kit's library is linked against libafflib (AFF
// forensic images), which brings libcurl, GnuTLS, OpenSSL, Kerberos and LDAP into every process
// that loads TSK: 28 libraries, about 5.5 MB resident in each worker, and network code in a
// process that may not use the network. We hand TSK its images ourselves
// (tsk_img_open_external), so its AFF reader is never called. Our programs find this library
// first (their RPATH names its private folder); each function fails as afflib does on a file
// it cannot open.

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

void *af_open(const char *filename, int flags, int mode)
{
    (void)filename;
    (void)flags;
    (void)mode;
    errno = ENOTSUP;
    return NULL;
}

int af_identify_file_type(const char *filename, int exists)
{
    (void)filename;
    (void)exists;
    return -1; // AF_IDENTIFY_ERR
}

int af_close(void *af)
{
    (void)af;
    return -1;
}

int af_read(void *af, unsigned char *buf, size_t count)
{
    (void)af;
    (void)buf;
    (void)count;
    errno = ENOTSUP;
    return -1;
}

uint64_t af_seek(void *af, int64_t pos, int whence)
{
    (void)af;
    (void)pos;
    (void)whence;
    return (uint64_t)-1;
}

int af_eof(void *af)
{
    (void)af;
    return 1;
}

int64_t af_get_imagesize(void *af)
{
    (void)af;
    return -1;
}

int af_get_seg(void *af, const char *name, uint32_t *arg, unsigned char *data, size_t *datalen)
{
    (void)af;
    (void)name;
    (void)arg;
    (void)data;
    (void)datalen;
    return -1;
}

int af_cannot_decrypt(void *af)
{
    (void)af;
    return 0;
}
