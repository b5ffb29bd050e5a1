// SPDX-License-Identifier: MIT
// Takes a BUFFER argument like buffered_reader, then ignores it: the whole file goes to
// /dev/null through sendfile(2), a kernel copy, 1 MiB at a time whatever BUFFER says. ArchiveScope flags it: "ignores the buffer: its reads are 1048576 bytes
// at every size" (the go-qcow2reader io.CopyBuffer bug in 40 lines).
//   cc -O2 -o kernel_copy_reader kernel_copy_reader.c
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s FILE BUFFER\n", argv[0]);
        return 2;
    }
    (void)strtoull(argv[2], NULL, 10); // the buffer the caller asked for, unused
    const int in = open(argv[1], O_RDONLY);
    const int out = open("/dev/null", O_WRONLY);
    if (in < 0 || out < 0) {
        perror(argv[1]);
        return 1;
    }
    ssize_t n;
    while ((n = sendfile(out, in, NULL, 1 << 20)) > 0) {
    }
    if (n < 0) {
        perror("sendfile");
        return 1;
    }
    return 0;
}
